// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The floating-point expressions below are evaluated in the order Redis
// evaluates them (offset = (x - min) / (max - min) * 2^step, and so on):
// another order can round differently and move a point to a neighbouring
// cell or change the last digit of a coordinate.

#include "core/geohash.h"

#include <algorithm>
#include <cmath>

namespace rankd::geo {
namespace {

constexpr double kDegToRad = M_PI / 180.0;

// Spreads the 32 bits of v into the even bits of a 64-bit word.
uint64_t Spread(uint32_t v) {
  uint64_t x = v;
  x = (x | (x << 16)) & 0x0000FFFF0000FFFFULL;
  x = (x | (x << 8)) & 0x00FF00FF00FF00FFULL;
  x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0FULL;
  x = (x | (x << 2)) & 0x3333333333333333ULL;
  x = (x | (x << 1)) & 0x5555555555555555ULL;
  return x;
}

// The inverse of Spread: gathers the even bits of x.
uint32_t Gather(uint64_t x) {
  x &= 0x5555555555555555ULL;
  x = (x | (x >> 1)) & 0x3333333333333333ULL;
  x = (x | (x >> 2)) & 0x0F0F0F0F0F0F0F0FULL;
  x = (x | (x >> 4)) & 0x00FF00FF00FF00FFULL;
  x = (x | (x >> 8)) & 0x0000FFFF0000FFFFULL;
  x = (x | (x >> 16)) & 0x00000000FFFFFFFFULL;
  return static_cast<uint32_t>(x);
}

// Moves the cell one step along the coordinate held in the bits of `mask`
// (odd bits: longitude, even bits: latitude), wrapping at the map's edge.
// The other coordinate's bits are kept as they are.
void Move(Hash* h, uint64_t mask, int d) {
  const uint64_t width = 64 - 2 * h->step;
  const uint64_t other = ~mask;
  const uint64_t fill = other >> width;  // the other coordinate's in-step bits
  uint64_t c = h->bits & mask;
  // With the other coordinate's positions all set, +1 carries (and -1
  // borrows) straight through them into the next bit of this coordinate.
  c = d > 0 ? c + (fill + 1) : (c | fill) - (fill + 1);
  c &= mask >> width;
  h->bits = c | (h->bits & other);
}

// Redis reads a score as a cell with (uint64_t)score, which C leaves
// undefined for negative and huge doubles. This is what x86-64 computes
// there (the cvttsd2si sequence compilers emit), defined for every double,
// so GEOPOS on any sorted set answers as Redis does.
uint64_t ScoreToBits(double d) {
  constexpr double k2p63 = 9223372036854775808.0;
  auto truncate = [](double x) -> uint64_t {  // cvttsd2si: 2^63 when out of range
    if (!(x > -k2p63 - 1) || !(x < k2p63)) return uint64_t{1} << 63;
    return static_cast<uint64_t>(static_cast<int64_t>(x));
  };
  if (d < k2p63) return truncate(d);
  return truncate(d - k2p63) ^ (uint64_t{1} << 63);
}

}  // namespace

bool Encode(Range lon_range, Range lat_range, double lon, double lat, int step, Hash* out) {
  if (step < 1 || step > 32) return false;
  if (lon > kLonMax || lon < kLonMin || lat > kLatMax || lat < kLatMin) return false;
  if (lat < lat_range.min || lat > lat_range.max || lon < lon_range.min || lon > lon_range.max) {
    return false;
  }
  double lat_offset = (lat - lat_range.min) / (lat_range.max - lat_range.min);
  double lon_offset = (lon - lon_range.min) / (lon_range.max - lon_range.min);
  lat_offset *= static_cast<double>(1ULL << step);
  lon_offset *= static_cast<double>(1ULL << step);
  out->bits = Spread(static_cast<uint32_t>(lat_offset)) |
              (Spread(static_cast<uint32_t>(lon_offset)) << 1);
  out->step = step;
  return true;
}

Area Decode(Range lon_range, Range lat_range, Hash h) {
  const uint32_t ilat = Gather(h.bits), ilon = Gather(h.bits >> 1);
  const double lat_scale = lat_range.max - lat_range.min;
  const double lon_scale = lon_range.max - lon_range.min;
  const auto cells = static_cast<double>(1ULL << h.step);
  Area a;
  a.lat.min = lat_range.min + (ilat * 1.0 / cells) * lat_scale;
  a.lat.max = lat_range.min + ((ilat + 1) * 1.0 / cells) * lat_scale;
  a.lon.min = lon_range.min + (ilon * 1.0 / cells) * lon_scale;
  a.lon.max = lon_range.min + ((ilon + 1) * 1.0 / cells) * lon_scale;
  return a;
}

uint64_t Score(double lon, double lat) {
  Hash h;
  Encode(kLonRange, kLatRange, lon, lat, kMaxStep, &h);
  return h.bits << (52 - 2 * h.step);
}

void ScoreRange(Hash h, uint64_t* min, uint64_t* max) {
  *min = h.bits << (52 - 2 * h.step);
  *max = (h.bits + 1) << (52 - 2 * h.step);
}

void DecodeScore(double score, double* lon, double* lat) {
  const Area a = Decode(kLonRange, kLatRange, Hash{ScoreToBits(score), kMaxStep});
  *lon = std::clamp((a.lon.min + a.lon.max) / 2, kLonMin, kLonMax);
  *lat = std::clamp((a.lat.min + a.lat.max) / 2, kLatMin, kLatMax);
}

std::string HashString(double score) {
  static constexpr char kAlphabet[] = "0123456789bcdefghjkmnpqrstuvwxyz";
  double lon, lat;
  DecodeScore(score, &lon, &lat);
  Hash h;
  Encode(Range{-180, 180}, Range{-90, 90}, lon, lat, kMaxStep, &h);
  std::string out(11, '0');
  for (int i = 0; i < 10; i++) out[i] = kAlphabet[(h.bits >> (52 - (i + 1) * 5)) & 0x1F];
  return out;
}

Neighbors NeighborsOf(Hash h) {
  constexpr uint64_t kLonBits = 0xAAAAAAAAAAAAAAAAULL, kLatBits = 0x5555555555555555ULL;
  auto moved = [&](int dlon, int dlat) {
    Hash n = h;
    if (dlon) Move(&n, kLonBits, dlon);
    if (dlat) Move(&n, kLatBits, dlat);
    return n;
  };
  Neighbors n;
  n.east = moved(1, 0);
  n.west = moved(-1, 0);
  n.south = moved(0, -1);
  n.north = moved(0, 1);
  n.north_west = moved(-1, 1);
  n.south_west = moved(-1, -1);
  n.north_east = moved(1, 1);
  n.south_east = moved(1, -1);
  return n;
}

double Distance(double lon1, double lat1, double lon2, double lat2) {
  const double lat1r = lat1 * kDegToRad, lon1r = lon1 * kDegToRad;
  const double lat2r = lat2 * kDegToRad, lon2r = lon2 * kDegToRad;
  const double u = std::sin((lat2r - lat1r) / 2);
  const double v = std::sin((lon2r - lon1r) / 2);
  const double a = u * u + std::cos(lat1r) * std::cos(lat2r) * v * v;
  return 2.0 * kEarthRadiusM * std::asin(std::sqrt(a));
}

int EstimateStep(double radius_m, double lat) {
  if (radius_m == 0) return kMaxStep;
  int step = 1;
  while (radius_m < kMercatorMax) {
    radius_m *= 2;
    step++;
  }
  step -= 2;  // so that the radius fits the cell in most cases
  // Cells narrow towards the poles.
  if (lat > 66 || lat < -66) {
    step--;
    if (lat > 80 || lat < -80) step--;
  }
  return std::clamp(step, 1, kMaxStep);
}

}  // namespace rankd::geo
