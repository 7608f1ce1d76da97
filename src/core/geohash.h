// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Geohashes as Redis's geo commands use them, so that scores, positions,
// distances and search results are Redis's to the bit.
//
// A position is cut into 2^step x 2^step cells over longitude [-180, 180]
// and latitude [-85.05112878, 85.05112878] (the Web Mercator square). Its
// cell numbers interleave into one integer: latitude in the even bits,
// longitude in the odd bits, most significant pair first. At step 26 that is
// 52 bits, which a double holds exactly: the score of a geo member in its
// sorted set. Decoding a score answers the centre of its cell.
//
// Searches (core/geo_search.h) look at the cell of the centre at a step
// chosen from the radius, plus its eight neighbours; every cell is one
// contiguous score interval [min, max) of the sorted set.
//
// Distances: haversine on a sphere of radius 6372797.560856 m.

#pragma once

#include <cstdint>
#include <string>

namespace rankd::geo {

inline constexpr double kLonMin = -180;
inline constexpr double kLonMax = 180;
inline constexpr double kLatMin = -85.05112878;
inline constexpr double kLatMax = 85.05112878;
inline constexpr int kMaxStep = 26;  // 52-bit scores
inline constexpr double kEarthRadiusM = 6372797.560856;
inline constexpr double kMercatorMax = 20037726.37;  // half the Mercator width (m)

struct Range {
  double min, max;
};

// The WGS84 ranges every score uses.
inline constexpr Range kLonRange{kLonMin, kLonMax};
inline constexpr Range kLatRange{kLatMin, kLatMax};

// A cell: `bits` holds 2 * step interleaved bits (a position on the very
// top or right edge sets bit 2 * step or above, as in Redis). step 0 and
// bits 0 is "no cell" (a neighbour excluded from a search).
struct Hash {
  uint64_t bits = 0;
  int step = 0;
  bool none() const { return bits == 0 && step == 0; }
};

// A cell's bounds.
struct Area {
  Range lon, lat;
};

// The cell of (lon, lat) at `step` over the given ranges. Returns false
// when the position lies outside the WGS84 limits or the ranges, or step
// is not in 1..32.
bool Encode(Range lon_range, Range lat_range, double lon, double lat, int step, Hash* out);

// The bounds of cell `h` over the given ranges.
Area Decode(Range lon_range, Range lat_range, Hash h);

// The 52-bit score of a position. REQUIRES: inside the WGS84 limits.
uint64_t Score(double lon, double lat);

// The first score of cell `h` and the first after it: h covers [min, max).
void ScoreRange(Hash h, uint64_t* min, uint64_t* max);

// The centre of the step-26 cell of a score, clamped to the WGS84 limits.
// Any double is accepted (read as an unsigned integer).
void DecodeScore(double score, double* lon, double* lat);

// The standard 11-character base-32 geohash of a score (GEOHASH): its
// position re-encoded over latitude [-90, 90]; the 11th character is '0'.
std::string HashString(double score);

// The eight neighbours of `h`, wrapping around at the edges of the map.
struct Neighbors {
  Hash north, south, east, west, north_east, north_west, south_east, south_west;
};
Neighbors NeighborsOf(Hash h);

// Great-circle distance in metres (haversine).
double Distance(double lon1, double lat1, double lon2, double lat2);

// The step whose cells are about as large as a search of `radius_m` metres
// around latitude `lat` needs (1..26; 26 for a radius of 0).
int EstimateStep(double radius_m, double lat);

}  // namespace rankd::geo
