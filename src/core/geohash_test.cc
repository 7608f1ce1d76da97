// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// core/geohash and core/geo_search: the values redis-server 7.0.15 gives for
// Redis's documentation example (Palermo, Catania), cell arithmetic, and
// searches checked against a brute-force scan of every member.

#include "core/geohash.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <string>

#include "core/geo_search.h"
#include "gtest/gtest.h"

namespace rankd::geo {
namespace {

TEST(GeoHashTest, RedisDocumentationExample) {
  EXPECT_EQ(Score(13.361389, 38.115556), 3479099956230698ULL);  // Palermo
  EXPECT_EQ(Score(15.087269, 37.502669), 3479447370796909ULL);  // Catania
  EXPECT_EQ(HashString(3479099956230698.0), "sqc8b49rny0");
  EXPECT_EQ(HashString(3479447370796909.0), "sqdtr74hyu0");
  double lon, lat;
  DecodeScore(3479099956230698.0, &lon, &lat);
  char buf[64];
  snprintf(buf, sizeof(buf), "%.17Lf", static_cast<long double>(lon));
  EXPECT_STREQ(buf, "13.36138933897018433");
  snprintf(buf, sizeof(buf), "%.17Lf", static_cast<long double>(lat));
  EXPECT_STREQ(buf, "38.11555639549629859");
  double lon2, lat2;
  DecodeScore(3479447370796909.0, &lon2, &lat2);
  EXPECT_NEAR(Distance(lon, lat, lon2, lat2), 166274.1516, 0.00005);
}

TEST(GeoHashTest, EncodeRejectsPositionsOutsideTheMap) {
  Hash h;
  EXPECT_FALSE(Encode(kLonRange, kLatRange, 180.0001, 0, kMaxStep, &h));
  EXPECT_FALSE(Encode(kLonRange, kLatRange, 0, 85.06, kMaxStep, &h));
  EXPECT_FALSE(Encode(kLonRange, kLatRange, 0, 0, 0, &h));
  ASSERT_TRUE(Encode(kLonRange, kLatRange, -180, -85.05112878, kMaxStep, &h));
  EXPECT_EQ(h.bits, 0u);
}

TEST(GeoHashTest, DecodedCellContainsThePosition) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> lon_d(-180, 180), lat_d(kLatMin, kLatMax);
  for (int i = 0; i < 2000; i++) {
    const double lon = lon_d(rng), lat = lat_d(rng);
    const int step = 1 + static_cast<int>(rng() % kMaxStep);
    Hash h;
    ASSERT_TRUE(Encode(kLonRange, kLatRange, lon, lat, step, &h));
    const Area a = Decode(kLonRange, kLatRange, h);
    ASSERT_LE(a.lon.min, lon);
    ASSERT_GE(a.lon.max, lon);
    ASSERT_LE(a.lat.min, lat);
    ASSERT_GE(a.lat.max, lat);
  }
}

TEST(GeoHashTest, NeighborsAreAdjacentAndWrap) {
  Hash h;
  ASSERT_TRUE(Encode(kLonRange, kLatRange, 13.36, 38.11, 10, &h));
  const Area c = Decode(kLonRange, kLatRange, h);
  const Neighbors n = NeighborsOf(h);
  EXPECT_DOUBLE_EQ(Decode(kLonRange, kLatRange, n.north).lat.min, c.lat.max);
  EXPECT_DOUBLE_EQ(Decode(kLonRange, kLatRange, n.south).lat.max, c.lat.min);
  EXPECT_DOUBLE_EQ(Decode(kLonRange, kLatRange, n.east).lon.min, c.lon.max);
  EXPECT_DOUBLE_EQ(Decode(kLonRange, kLatRange, n.west).lon.max, c.lon.min);
  EXPECT_DOUBLE_EQ(Decode(kLonRange, kLatRange, n.north_east).lon.min, c.lon.max);
  EXPECT_DOUBLE_EQ(Decode(kLonRange, kLatRange, n.south_west).lat.max, c.lat.min);
  // The west neighbour of the westmost cell is the eastmost one.
  ASSERT_TRUE(Encode(kLonRange, kLatRange, -179.99, 0.5, 4, &h));
  EXPECT_DOUBLE_EQ(Decode(kLonRange, kLatRange, NeighborsOf(h).west).lon.max, 180);
}

TEST(GeoHashTest, EstimateStep) {
  EXPECT_EQ(EstimateStep(0, 0), 26);
  EXPECT_EQ(EstimateStep(1, 0), 24);
  EXPECT_EQ(EstimateStep(1000, 0), 14);
  EXPECT_EQ(EstimateStep(1000, 70), 13);
  EXPECT_EQ(EstimateStep(1000, -81), 12);
  EXPECT_EQ(EstimateStep(5e7, 0), 1);
}

// Away from the poles and with radii well under the map's size, a search
// finds exactly the members a scan of all of them finds.
TEST(GeoSearchTest, MatchesBruteForce) {
  const uint64_t seed = 42;
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (bool tree : {false, true}) {
    SortedSetLimits limits;
    if (tree) limits.max_compact_entries = 0;
    SortedSet z(limits);
    for (int i = 0; i < 400; i++) {
      const double lon = 13 + 3 * u(rng), lat = 38 + 3 * u(rng);
      (void)z.Add("m" + std::to_string(i), static_cast<double>(Score(lon, lat)), AddOptions{},
                  limits);
    }
    for (int q = 0; q < 200; q++) {
      Shape s;
      s.lon = 13 + 2 * u(rng);
      s.lat = 38 + 2 * u(rng);
      s.to_meters = q % 2 ? 1000 : 1;
      const double size_m = 1000 * std::pow(10, 2.5 * (u(rng) + 1));  // 1 km .. 100 km
      if (q % 3 == 0) {
        s.kind = Shape::Kind::kBox;
        s.width = 2 * size_m / s.to_meters;
        s.height = size_m / s.to_meters;
      } else {
        s.radius = size_m / s.to_meters;
      }
      std::set<std::string> expected, got;
      for (uint64_t r = 0; r < z.size(); r++) {
        auto [member, score] = z.At(r);
        double lon, lat, dist;
        if (WithinShape(s, score, &lon, &lat, &dist)) expected.emplace(member);
      }
      for (const Point& p : Search(z, s, 0)) ASSERT_TRUE(got.insert(p.member).second);
      ASSERT_EQ(got, expected) << "query " << q << (tree ? " tree" : " compact");
      if (!expected.empty()) ASSERT_EQ(Search(z, s, 1).size(), 1u);
    }
  }
}

// Huge radii search at step 1, where neighbours wrap onto each other: no
// member is reported twice.
TEST(GeoSearchTest, HugeRadiusReportsEachMemberOnce) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> lon_d(-180, 180), lat_d(kLatMin, kLatMax);
  SortedSetLimits limits;
  SortedSet z(limits);
  for (int i = 0; i < 100; i++) {
    (void)z.Add("m" + std::to_string(i), static_cast<double>(Score(lon_d(rng), lat_d(rng))),
                AddOptions{}, limits);
  }
  for (int q = 0; q < 50; q++) {
    Shape s;
    s.lon = lon_d(rng);
    s.lat = lat_d(rng);
    s.radius = q % 2 ? 2e7 : 6e6;
    std::set<std::string> seen;
    for (const Point& p : Search(z, s, 0)) ASSERT_TRUE(seen.insert(p.member).second) << q;
  }
}

}  // namespace
}  // namespace rankd::geo
