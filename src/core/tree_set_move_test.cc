// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// TreeSet::UpdateScore against a std::set model (issue 16): moves inside a
// leaf (CountedBTree::MoveInLeaf), moves across leaves, moves of a leaf's
// first and last element, score ties with separators decided by members
// that share long prefixes, and -0.0 against 0.0 (equal scores: the member
// decides, as in Redis). After each batch the tree's invariants (order,
// separators, hints) and every rank are checked against the model.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/tree_set.h"

namespace rankd {
namespace {

using Model = std::set<std::pair<double, std::string>>;

// Checks invariants, then every element's (member, score) in rank order.
void ExpectSame(const TreeSet& t, const Model& model) {
  ASSERT_EQ(t.CheckInvariants(), "");
  ASSERT_EQ(t.size(), model.size());
  std::vector<std::pair<double, std::string>> got;
  t.ForEachInRankRange(0, t.size() - 1, false,
                       [&](std::string_view m, double s) { got.emplace_back(s, m); });
  size_t rank = 0;
  for (const auto& [s, m] : model) {
    ASSERT_EQ(got[rank].second, m) << "rank " << rank;
    ASSERT_EQ(got[rank].first, s) << "rank " << rank;
    TreeSet::Handle h = t.Find(m, MemberIndex::Hash(m));
    ASSERT_EQ(t.RankOf(h), rank);
    ++rank;
  }
}

// Sets member `m` (present) to score `s` in both.
void Update(TreeSet& t, Model& model, const std::string& m, double s) {
  TreeSet::Handle h = t.Find(m, MemberIndex::Hash(m));
  ASSERT_NE(h, RecordArena::kNoHandle);
  model.erase({t.ScoreOf(h), m});
  model.emplace(s, m);
  t.UpdateScore(h, s);
}

// Members with a long shared prefix, so ties compare many bytes.
std::string Name(int i) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "player:0000000000:%06d", i);
  return buf;
}

TEST(TreeSetMoveTest, SmallAndLargeMovesMatchModel) {
  for (uint64_t seed : {1, 2, 3}) {
    std::printf("TreeSetMoveTest seed=%llu\n", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    TreeSet t;
    Model model;
    const int n = 4000;
    // Integer scores from a small range: many ties, many separators tied.
    for (int i = 0; i < n; ++i) {
      double s = static_cast<double>(rng() % 500);
      t.Insert(Name(i), MemberIndex::Hash(Name(i)), s);
      model.emplace(s, Name(i));
    }
    ExpectSame(t, model);
    for (int batch = 0; batch < 6; ++batch) {
      for (int k = 0; k < 3000; ++k) {
        const std::string m = Name(static_cast<int>(rng() % n));
        TreeSet::Handle h = t.Find(m, MemberIndex::Hash(m));
        double s = t.ScoreOf(h);
        switch (rng() % 4) {
          case 0: s += 0.25; break;                                      // stays in leaf
          case 1: s -= static_cast<double>(rng() % 3); break;            // ties, maybe no-op
          case 2: s += static_cast<double>(rng() % 200) - 100; break;    // across leaves
          default: s = static_cast<double>(rng() % 500); break;          // anywhere
        }
        Update(t, model, m, s);
      }
      ExpectSame(t, model);
    }
  }
}

TEST(TreeSetMoveTest, FirstAndLastOfEachLeafMove) {
  // Distinct scores 10 apart: +-1 moves keep every element in place or
  // swap it with nothing, +-15 swap neighbours, across leaf boundaries too.
  TreeSet t;
  Model model;
  const int n = 3000;
  for (int i = 0; i < n; ++i) {
    t.Insert(Name(i), MemberIndex::Hash(Name(i)), i * 10.0);
    model.emplace(i * 10.0, Name(i));
  }
  for (double step : {1.0, -1.0, 15.0, -15.0, 9.5, -9.5}) {
    for (int i = 0; i < n; ++i) {
      TreeSet::Handle h = t.Find(Name(i), MemberIndex::Hash(Name(i)));
      Update(t, model, Name(i), t.ScoreOf(h) + step);
    }
    ExpectSame(t, model);
  }
}

TEST(TreeSetMoveTest, NegativeZeroEqualsZeroAndMemberDecides) {
  TreeSet t;
  Model model;
  // Enough elements for several leaves, all scores -1, 0 or 1.
  for (int i = 0; i < 600; ++i) {
    double s = static_cast<double>(i % 3) - 1;
    t.Insert(Name(i), MemberIndex::Hash(Name(i)), s);
    model.emplace(s, Name(i));
  }
  ExpectSame(t, model);
  for (int i = 0; i < 600; i += 2) {
    TreeSet::Handle h = t.Find(Name(i), MemberIndex::Hash(Name(i)));
    if (t.ScoreOf(h) == 0.0) {
      t.UpdateScore(h, -0.0);  // same position: -0.0 == 0.0
      EXPECT_TRUE(std::signbit(t.ScoreOf(h)));
    }
  }
  // The model's std::pair also treats -0.0 == 0.0, so the order is unchanged.
  ExpectSame(t, model);
  for (int i = 1; i < 600; i += 2) Update(t, model, Name(i), i % 4 == 1 ? -0.0 : 0.0);
  ExpectSame(t, model);
  EXPECT_EQ(t.CountScoreBelow(0.0, false), t.CountScoreBelow(-0.0, false));
  EXPECT_EQ(t.CountScoreBelow(0.0, true), t.CountScoreBelow(-0.0, true));
}

}  // namespace
}  // namespace rankd
