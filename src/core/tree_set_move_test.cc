// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// TreeSet::UpdateScore against a std::set model (issue 16): moves inside a
// leaf and across leaves (CountedBTree::Move), moves of a leaf's
// first and last element, score ties with separators decided by members
// that share long prefixes, and -0.0 against 0.0 (equal scores: the member
// decides, as in Redis). After each batch the tree's invariants (order,
// separators, hints) and every rank are checked against the model.
// ZincrbyStepsAcrossLeaves checks after every step, in a tree of two
// levels and one of three: ZINCRBY-like steps that mostly land in another
// leaf (CountedBTree::Move across leaves, or EraseAt + InsertAt when the
// source leaf is at its minimum or the target full), score ties broken by
// the member, and moves of the first and last element.

#include <gtest/gtest.h>

#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>

#include <cmath>
#include <cstdio>
#include <functional>
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

// Order-statistic model: (score, member) with ranks.
using RankedModel =
    __gnu_pbds::tree<std::pair<double, std::string>, __gnu_pbds::null_type,
                     std::less<std::pair<double, std::string>>, __gnu_pbds::rb_tree_tag,
                     __gnu_pbds::tree_order_statistics_node_update>;

TEST(TreeSetMoveTest, ZincrbyStepsAcrossLeavesCheckedEachStep) {
  // 3,000 elements: a root above ~30 leaves (two levels); 12,000: three.
  for (const int n : {3000, 12000}) {
    std::printf("TreeSetMoveTest n=%d seed=5\n", n);
    std::mt19937_64 rng(5);
    TreeSet t;
    RankedModel model;
    // Scores 0..n-1 in steps of 1 with every 4th a tie: ~100 elements a leaf.
    for (int i = 0; i < n; ++i) {
      const double s = static_cast<double>((rng() % n) & ~uint64_t{3});
      t.Insert(Name(i), MemberIndex::Hash(Name(i)), s);
      model.insert({s, Name(i)});
    }
    ASSERT_EQ(t.CheckInvariants(), "");
    const int check_every = n > 5000 ? 32 : 1;
    for (int step = 0; step < 4000; ++step) {
      std::string m = Name(static_cast<int>(rng() % n));
      if (step % 16 == 0) m = model.begin()->second;   // the first element
      if (step % 16 == 1) m = model.rbegin()->second;  // the last element
      const TreeSet::Handle h = t.Find(m, MemberIndex::Hash(m));
      const double old = t.ScoreOf(h);
      double s = old + static_cast<double>(rng() % 801) - 400;  // usually another leaf
      if (step % 5 == 0) s = std::floor(s / 4) * 4;             // a tie with others
      if (step % 16 == 2) s = model.begin()->first - 1;         // before the first
      if (step % 16 == 3) s = model.rbegin()->first + 1;        // after the last
      model.erase({old, m});
      model.insert({s, m});
      t.UpdateScore(h, s);
      const uint64_t rank = model.order_of_key({s, m});
      ASSERT_EQ(t.RankOf(h), rank) << "step " << step;
      ASSERT_EQ(t.At(rank).first, m) << "step " << step;
      ASSERT_EQ(t.At(rank).second, s) << "step " << step;
      if (step % check_every == 0) {
        ASSERT_EQ(t.CheckInvariants(), "") << "step " << step;
      }
    }
    Model plain(model.begin(), model.end());
    ExpectSame(t, plain);
  }
}

}  // namespace
}  // namespace rankd
