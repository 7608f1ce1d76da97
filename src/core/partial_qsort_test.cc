// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// core/partial_qsort: random vectors with many ties; the wanted range must
// hold what a full sort puts there, the whole vector stay a permutation.
// (The tie order itself is checked against redis-server in
// tests/test_sort_ties.py.)

#include "core/partial_qsort.h"

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace rankd {
namespace {

TEST(PartialQsort, RangeMatchesFullSortAndKeepsEveryElement) {
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; round++) {
    const size_t n = 1 + rng() % 120;
    std::vector<std::pair<int, int>> v(n);  // (key, identity)
    for (size_t i = 0; i < n; i++) v[i] = {static_cast<int>(rng() % 6), static_cast<int>(i)};
    const size_t lo = rng() % n, hi = lo + rng() % (n - lo);
    std::vector<std::pair<int, int>> sorted = v;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<std::pair<int, int>> got = v;
    PartialQsort(got, [](const auto& x, const auto& y) { return x.first - y.first; }, lo, hi);
    for (size_t i = lo; i <= hi; i++) ASSERT_EQ(got[i].first, sorted[i].first) << round;
    std::vector<std::pair<int, int>> a = got, b = v;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    ASSERT_EQ(a, b);
  }
}

TEST(PartialQsort, FullRangeSortsEverything) {
  std::vector<int> v = {5, 3, 9, 1, 1, 8, 2, 7, 3, 0, 4, 6, 2, 9, 5, 1, 8};
  PartialQsort(v, [](int x, int y) { return x - y; }, 0, v.size() - 1);
  EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
}

}  // namespace
}  // namespace rankd
