// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Geo search over a sorted set whose scores are 52-bit geohashes
// (core/geohash.h): the members inside a circle or a box around a point,
// found the way Redis 7.0 finds them, so that the same members come back in
// the same order (GEOSEARCH, GEORADIUS and their variants).
//
// The search picks a step from the shape's size, takes the centre's cell and
// its eight neighbours (dropping neighbours that lie wholly outside the
// shape's bounding box), and scans each cell's score interval in the order
// centre, N, S, E, W, NE, NW, SE, SW, keeping the members whose decoded
// position is inside the shape. At step 1 the map is 2 x 2 cells and the
// neighbours wrap onto each other; a neighbour equal to the cell scanned
// just before it is skipped, as in Redis, which is enough for no member to
// be reported twice.

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/geohash.h"
#include "core/sorted_set.h"

namespace rankd::geo {

struct Shape {
  enum class Kind { kRadius, kBox };
  Kind kind = Kind::kRadius;
  double lon = 0, lat = 0;  // centre
  double to_meters = 1;     // unit of radius / width / height
  double radius = 0;
  double width = 0, height = 0;
};

struct Point {
  std::string member;
  double score = 0;
  double lon = 0, lat = 0;
  double dist = 0;  // metres from the centre
};

// Whether the member with `score` lies inside `shape`; fills its decoded
// position and its distance (metres) from the centre either way it is
// inside.
bool WithinShape(const Shape& shape, double score, double* lon, double* lat, double* dist);

// The nine cells a search of `shape` scans, in scan order (centre, N, S, E,
// W, NE, NW, SE, SW); excluded neighbours are Hash{} (none()).
struct SearchCells {
  Hash cells[9];
};
SearchCells CellsForShape(const Shape& shape);

// Every member of `z` inside `shape`, in scan order. With `limit` > 0 the
// scan stops once that many are found (COUNT ... ANY). O(cells * log n + m).
std::vector<Point> Search(const SortedSet& z, const Shape& shape, uint64_t limit);

}  // namespace rankd::geo
