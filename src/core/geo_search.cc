// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/geo_search.h"

#include <cmath>

namespace rankd::geo {
namespace {

constexpr double kDegToRad = M_PI / 180.0;

// The shape's bounding box {min lon, min lat, max lon, max lat}. The box is
// wider on the side nearer the pole, which is north in the northern
// hemisphere and south in the southern one.
void BoundingBox(const Shape& s, double b[4]) {
  const bool circle = s.kind == Shape::Kind::kRadius;
  const double height = s.to_meters * (circle ? s.radius : s.height / 2);
  const double width = s.to_meters * (circle ? s.radius : s.width / 2);
  const double lat_delta = (height / kEarthRadiusM) / kDegToRad;
  const double lon_delta_top =
      (width / kEarthRadiusM / std::cos((s.lat + lat_delta) * kDegToRad)) / kDegToRad;
  const double lon_delta_bottom =
      (width / kEarthRadiusM / std::cos((s.lat - lat_delta) * kDegToRad)) / kDegToRad;
  const bool south = s.lat < 0;
  b[0] = south ? s.lon - lon_delta_bottom : s.lon - lon_delta_top;
  b[2] = south ? s.lon + lon_delta_bottom : s.lon + lon_delta_top;
  b[1] = s.lat - lat_delta;
  b[3] = s.lat + lat_delta;
}

}  // namespace

bool WithinShape(const Shape& s, double score, double* lon, double* lat, double* dist) {
  DecodeScore(score, lon, lat);
  if (s.kind == Shape::Kind::kRadius) {
    *dist = Distance(s.lon, s.lat, *lon, *lat);
    return *dist <= s.radius * s.to_meters;
  }
  const double width = s.width * s.to_meters, height = s.height * s.to_meters;
  const double lon_distance = Distance(*lon, *lat, s.lon, *lat);
  const double lat_distance = Distance(*lon, *lat, *lon, s.lat);
  if (lon_distance > width / 2 || lat_distance > height / 2) return false;
  *dist = Distance(s.lon, s.lat, *lon, *lat);
  return true;
}

SearchCells CellsForShape(const Shape& s) {
  double b[4];
  BoundingBox(s, b);
  const double min_lon = b[0], min_lat = b[1], max_lon = b[2], max_lat = b[3];
  double radius = s.kind == Shape::Kind::kRadius
                      ? s.radius
                      : std::sqrt((s.width / 2) * (s.width / 2) + (s.height / 2) * (s.height / 2));
  radius *= s.to_meters;
  int step = EstimateStep(radius, s.lat);

  Hash center;
  Encode(kLonRange, kLatRange, s.lon, s.lat, step, &center);
  Neighbors n = NeighborsOf(center);
  Area area = Decode(kLonRange, kLatRange, center);
  // A step whose neighbours do not reach the bounding box's edges is one
  // too fine: take cells twice as large.
  const bool too_fine = Decode(kLonRange, kLatRange, n.north).lat.max < max_lat ||
                        Decode(kLonRange, kLatRange, n.south).lat.min > min_lat ||
                        Decode(kLonRange, kLatRange, n.east).lon.max < max_lon ||
                        Decode(kLonRange, kLatRange, n.west).lon.min > min_lon;
  if (step > 1 && too_fine) {
    step--;
    Encode(kLonRange, kLatRange, s.lon, s.lat, step, &center);
    n = NeighborsOf(center);
    area = Decode(kLonRange, kLatRange, center);
  }
  // Neighbours beyond a side of the bounding box hold nothing to find.
  if (step >= 2) {
    if (area.lat.min < min_lat) n.south = n.south_west = n.south_east = Hash{};
    if (area.lat.max > max_lat) n.north = n.north_east = n.north_west = Hash{};
    if (area.lon.min < min_lon) n.west = n.south_west = n.north_west = Hash{};
    if (area.lon.max > max_lon) n.east = n.south_east = n.north_east = Hash{};
  }
  return SearchCells{{center, n.north, n.south, n.east, n.west, n.north_east, n.north_west,
                      n.south_east, n.south_west}};
}

std::vector<Point> Search(const SortedSet& z, const Shape& shape, uint64_t limit) {
  const SearchCells cells = CellsForShape(shape);
  std::vector<Point> out;
  auto full = [&] { return limit > 0 && out.size() >= limit; };
  int last = 0;  // the last cell scanned; 0 (the centre) is never compared
  for (int i = 0; i < 9; i++) {
    const Hash& h = cells.cells[i];
    if (h.none()) continue;
    if (last != 0 && h.bits == cells.cells[last].bits && h.step == cells.cells[last].step) {
      continue;
    }
    if (full()) break;
    uint64_t min, max;
    ScoreRange(h, &min, &max);
    const uint64_t lo = z.ScoreLowerRank(static_cast<double>(min), false);
    const uint64_t hi = z.ScoreUpperRank(static_cast<double>(max), true);
    if (lo < hi) {
      z.ForEachInRankRange(lo, hi - 1, false, [&](std::string_view member, double score) {
        if (full()) return;
        Point p;
        if (WithinShape(shape, score, &p.lon, &p.lat, &p.dist)) {
          p.member.assign(member);
          p.score = score;
          out.push_back(std::move(p));
        }
      });
    }
    last = i;
  }
  return out;
}

}  // namespace rankd::geo
