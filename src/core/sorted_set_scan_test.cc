// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SortedSet::Scan keeps Redis's SCAN guarantee: a full iteration returns
// every element present from start to end at least once, even when
// elements are added and removed between calls and the member index grows
// or shrinks (rehashes) mid-iteration, or the set changes encoding.

#include "core/sorted_set.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace rankd {
namespace {

const SortedSetLimits kTreeLimits{0, 64};

std::string Name(const char* prefix, uint64_t i) { return prefix + std::to_string(i); }

TEST(SortedSetScanTest, CompactSetIsVisitedWholeInOneCall) {
  SortedSet set(SortedSetLimits{});
  for (int i = 0; i < 50; ++i) set.Add(Name("m", i), i, {}, SortedSetLimits{});
  ASSERT_EQ(set.encoding(), SortedSet::Encoding::kCompact);
  std::set<std::string> seen;
  EXPECT_EQ(set.Scan(0, 10, [&](std::string_view m, double) { seen.emplace(m); }), 0u);
  EXPECT_EQ(seen.size(), 50u);
  // A stale cursor from an earlier tree encoding also gets everything.
  seen.clear();
  EXPECT_EQ(set.Scan(123456789, 10, [&](std::string_view m, double) { seen.emplace(m); }), 0u);
  EXPECT_EQ(seen.size(), 50u);
}

TEST(SortedSetScanTest, EmptyTreeScanEndsAtOnce) {
  SortedSet set(kTreeLimits);
  int calls = 0;
  EXPECT_EQ(set.Scan(0, 10, [&](std::string_view, double) { ++calls; }), 0u);
  EXPECT_EQ(calls, 0);
}

TEST(SortedSetScanTest, StableSetVisitsEachElementExactlyOnce) {
  for (size_t count : {1, 7, 100, 100000}) {
    SortedSet set(kTreeLimits);
    for (int i = 0; i < 3000; ++i) set.Add(Name("m", i), i % 17, {}, kTreeLimits);
    std::multiset<std::string> seen;
    uint64_t cursor = 0;
    int calls = 0;
    do {
      size_t before = seen.size();
      cursor = set.Scan(cursor, count, [&](std::string_view m, double s) {
        EXPECT_EQ(set.Score(m), s);
        seen.emplace(m);
      });
      ++calls;
      ASSERT_GE(seen.size() - before, std::min<size_t>(count, 1));
      ASSERT_LT(calls, 10000);
    } while (cursor != 0);
    EXPECT_EQ(seen.size(), 3000u) << "count " << count;
    EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 3000u);
  }
}

// Mutations between calls: `stable` members are never removed and must all
// be returned; everything returned must have been present at some point.
void RunChurn(uint32_t seed, size_t count, bool big_swings) {
  std::printf("SortedSetScanTest churn seed=%u count=%zu swings=%d\n", seed, count, big_swings);
  std::mt19937_64 rng(seed);
  SortedSet set(kTreeLimits);
  std::set<std::string> stable, ever, volatile_members;
  for (int i = 0; i < 2000; ++i) {
    std::string m = Name("s", i);
    set.Add(m, static_cast<double>(rng() % 100), {}, kTreeLimits);
    stable.insert(m);
    ever.insert(m);
  }
  uint64_t next_id = 0;
  std::set<std::string> seen;
  uint64_t cursor = 0;
  int calls = 0;
  do {
    cursor = set.Scan(cursor, count, [&](std::string_view m, double) {
      ASSERT_TRUE(ever.count(std::string(m))) << "never added: " << m;
      seen.emplace(m);
    });
    ASSERT_LT(++calls, 100000);
    // Churn: adds and removals; sometimes large enough to rehash the index.
    size_t adds = rng() % 20, removes = rng() % 20;
    if (big_swings && rng() % 8 == 0) {
      // Swing between ~2K and ~12K elements: the index rehashes both ways.
      if (volatile_members.size() < 5000) adds = 5000; else removes = volatile_members.size();
    }
    for (size_t k = 0; k < adds; ++k) {
      std::string m = Name("v", next_id++);
      set.Add(m, static_cast<double>(rng() % 100), {}, kTreeLimits);
      volatile_members.insert(m);
      ever.insert(m);
    }
    for (size_t k = 0; k < removes && !volatile_members.empty(); ++k) {
      auto it = volatile_members.begin();
      std::advance(it, rng() % std::min<size_t>(volatile_members.size(), 64));
      ASSERT_TRUE(set.Remove(*it));
      volatile_members.erase(it);
    }
    if (rng() % 16 == 0) {  // score updates move elements in the tree only
      auto it = stable.begin();
      std::advance(it, rng() % stable.size());
      set.Add(*it, static_cast<double>(rng() % 1000), {}, kTreeLimits);
    }
  } while (cursor != 0);
  ASSERT_EQ(set.CheckInvariants(), "");
  for (const std::string& m : stable) ASSERT_TRUE(seen.count(m)) << "missed " << m;
}

TEST(SortedSetScanTest, ChurnBetweenCallsNeverLosesStableMembers) {
  RunChurn(101, 10, false);
  RunChurn(102, 1, false);
  RunChurn(103, 50, false);
}

TEST(SortedSetScanTest, IndexGrowthAndShrinkMidIteration) {
  for (uint32_t seed = 200; seed < 203; ++seed) RunChurn(seed, 5 + seed % 40, true);
}

TEST(SortedSetScanTest, ShrinkToCompactMidIterationStillCompletes) {
  SortedSet set(kTreeLimits);
  for (int i = 0; i < 100; ++i) set.Add(Name("m", i), i, {}, kTreeLimits);
  std::set<std::string> seen;
  uint64_t cursor = set.Scan(0, 10, [&](std::string_view m, double) { seen.emplace(m); });
  ASSERT_NE(cursor, 0u);
  set.ShrinkIfFits(SortedSetLimits{});
  ASSERT_EQ(set.encoding(), SortedSet::Encoding::kCompact);
  cursor = set.Scan(cursor, 10, [&](std::string_view m, double) { seen.emplace(m); });
  EXPECT_EQ(cursor, 0u);
  EXPECT_EQ(seen.size(), 100u);
}

}  // namespace
}  // namespace rankd
