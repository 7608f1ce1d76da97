// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// TreeSet's searches by score against a std::set model (issue 16): the leaf
// search that starts at a position interpolated from the leaf's bounds
// (CountedBTree::Guess) must give the same answer when the guess is right,
// too far left, too far right, or impossible (equal bounds, infinities,
// bounds whose difference overflows), for inserts (where the new member
// goes), score updates (where it moves) and score counts.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/tree_set.h"

namespace rankd {
namespace {

using Model = std::set<std::pair<double, std::string>>;

std::string Name(uint64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "m:%012llu", static_cast<unsigned long long>(i));
  return buf;
}

// Invariants, every rank, and CountScoreBelow at every present score (and
// just beside it), compared with the model.
void ExpectSame(const TreeSet& t, const Model& model) {
  ASSERT_EQ(t.CheckInvariants(), "");
  ASSERT_EQ(t.size(), model.size());
  uint64_t rank = 0;
  for (const auto& [s, m] : model) {
    ASSERT_EQ(t.RankOf(t.Find(m, MemberIndex::Hash(m))), rank) << m;
    ++rank;
  }
  const std::vector<std::pair<double, std::string>> v(model.begin(), model.end());
  for (const auto& [s, m] : v) {
    for (double x : {s, std::nextafter(s, -INFINITY), std::nextafter(s, INFINITY)}) {
      auto first_at = [&](const auto& e) { return e.first < x; };
      auto first_after = [&](const auto& e) { return e.first <= x; };
      const uint64_t below = std::partition_point(v.begin(), v.end(), first_at) - v.begin();
      const uint64_t at_or_below = std::partition_point(v.begin(), v.end(), first_after) - v.begin();
      ASSERT_EQ(t.CountScoreBelow(x, false), below) << x;
      ASSERT_EQ(t.CountScoreBelow(x, true), at_or_below) << x;
    }
  }
}

// Builds a set of n members with scores from `score(i)` inserted in random
// order, then moves a third of them to new scores from the same source.
void RunWith(const char* what, size_t n, const std::function<double(std::mt19937_64&)>& score) {
  const uint64_t seed = std::random_device{}();
  std::printf("TreeSetSearchTest %s seed=%llu\n", what, static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  TreeSet t;
  Model model;
  for (size_t i = 0; i < n; ++i) {
    const std::string m = Name(rng());
    if (t.Find(m, MemberIndex::Hash(m)) != RecordArena::kNoHandle) continue;
    const double s = score(rng);
    t.Insert(m, MemberIndex::Hash(m), s);
    model.emplace(s, m);
  }
  ExpectSame(t, model);
  std::vector<std::pair<double, std::string>> all(model.begin(), model.end());
  for (size_t i = 0; i < all.size() / 3; ++i) {
    const auto& [old, m] = all[rng() % all.size()];
    const TreeSet::Handle h = t.Find(m, MemberIndex::Hash(m));
    const double s = score(rng);
    model.erase({t.ScoreOf(h), m});
    model.emplace(s, m);
    t.UpdateScore(h, s);
  }
  ExpectSame(t, model);
}

TEST(TreeSetSearchTest, EvenlySpreadScoresGuessRight) {
  RunWith("uniform", 20000, [](std::mt19937_64& r) {
    return std::uniform_real_distribution<double>(0, 1e6)(r);
  });
}

TEST(TreeSetSearchTest, SkewedScoresGuessWrongOnBothSides) {
  // Dense clusters with wide gaps: the interpolated position lands far
  // from the answer, left or right.
  RunWith("skewed", 20000, [](std::mt19937_64& r) {
    const double x = std::uniform_real_distribution<double>(0, 1)(r);
    return std::pow(x, 8) * 1e6 + static_cast<double>(r() % 4) * 1e5;
  });
}

TEST(TreeSetSearchTest, FewDistinctScoresTieOnMembers) {
  // Leaves whose bounds are equal (no interpolation) or one step apart;
  // members decide the order within a score.
  RunWith("ties", 15000, [](std::mt19937_64& r) { return static_cast<double>(r() % 3); });
}

TEST(TreeSetSearchTest, InfinitiesAndHugeScores) {
  // lo or hi infinite, and hi - lo overflowing to infinity.
  constexpr double kMax = std::numeric_limits<double>::max();
  RunWith("extremes", 15000, [](std::mt19937_64& r) -> double {
    switch (r() % 6) {
      case 0: return -INFINITY;
      case 1: return INFINITY;
      case 2: return -kMax;
      case 3: return kMax;
      default: return (r() % 2 ? 1 : -1) * std::uniform_real_distribution<double>(0, kMax)(r);
    }
  });
}

}  // namespace
}  // namespace rankd
