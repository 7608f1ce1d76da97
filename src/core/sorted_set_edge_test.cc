// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SortedSet edge cases, each under both encodings: empty and one-element
// sets, equal scores, -0.0 vs 0.0, infinities, empty / 1 MB / binary
// members, ZADD flag rules, the hint constructor and conversions.

#include "core/sorted_set.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace rankd {
namespace {

using Kind = AddResult::Kind;
constexpr double kInf = std::numeric_limits<double>::infinity();

// Compact-capable limits that still fit 1 MB members, and always-tree.
const SortedSetLimits kCompactLimits{1000, 2u << 20};
const SortedSetLimits kTreeLimits{0, 64};

class SortedSetEdgeTest : public ::testing::TestWithParam<bool> {
 protected:
  const SortedSetLimits& limits() const { return GetParam() ? kTreeLimits : kCompactLimits; }
  SortedSet::Encoding want() const {
    return GetParam() ? SortedSet::Encoding::kTree : SortedSet::Encoding::kCompact;
  }
  AddResult Add(std::string_view m, double s, AddOptions o = {}) {
    return set_.Add(m, s, o, limits());
  }
  std::vector<std::string> Members() const {
    std::vector<std::string> out;
    if (!set_.empty()) {
      set_.ForEachInRankRange(0, set_.size() - 1, false,
                              [&](std::string_view m, double) { out.emplace_back(m); });
    }
    return out;
  }
  void TearDown() override {
    EXPECT_EQ(set_.CheckInvariants(), "");
    EXPECT_EQ(set_.encoding(), want());
  }

  SortedSet set_{GetParam() ? kTreeLimits : kCompactLimits};
};

TEST_P(SortedSetEdgeTest, EmptySet) {
  EXPECT_EQ(set_.size(), 0u);
  EXPECT_FALSE(set_.Score("a"));
  EXPECT_FALSE(set_.Rank("a"));
  EXPECT_FALSE(set_.Remove("a"));
  EXPECT_EQ(set_.ScoreLowerRank(-kInf, false), 0u);
  EXPECT_EQ(set_.ScoreUpperRank(kInf, false), 0u);
  EXPECT_EQ(set_.LexUpperRank({LexBound::Kind::kPlusInf, {}}), 0u);
  EXPECT_EQ(set_.Scan(0, 10, [](std::string_view, double) { FAIL(); }), 0u);
  EXPECT_GT(set_.MemoryUsage(), 0u);
}

TEST_P(SortedSetEdgeTest, OneElement) {
  EXPECT_EQ(Add("only", 1.5).kind, Kind::kAdded);
  EXPECT_EQ(set_.Rank("only"), 0u);
  EXPECT_EQ(set_.At(0), std::make_pair(std::string_view("only"), 1.5));
  EXPECT_EQ(set_.ScoreLowerRank(1.5, false), 0u);
  EXPECT_EQ(set_.ScoreLowerRank(1.5, true), 1u);
  EXPECT_EQ(set_.RemoveRankRange(0, 0), 1u);
  EXPECT_TRUE(set_.empty());
}

TEST_P(SortedSetEdgeTest, EqualScoresOrderByBytesUnsigned) {
  const std::string nul1("a\0", 2), nul2("a\0b", 3);
  for (std::string m : {std::string("b"), std::string("\xff"), std::string("a"), nul2, nul1,
                        std::string(""), std::string("a\x01")}) {
    Add(m, 7);
  }
  EXPECT_EQ(Members(), (std::vector<std::string>{"", "a", nul1, nul2, "a\x01", "b", "\xff"}));
  EXPECT_EQ(set_.LexLowerRank({LexBound::Kind::kInclusive, nul1}), 2u);
  EXPECT_EQ(set_.LexLowerRank({LexBound::Kind::kExclusive, nul1}), 3u);
  EXPECT_EQ(set_.LexUpperRank({LexBound::Kind::kInclusive, "b"}), 6u);
  EXPECT_EQ(set_.LexUpperRank({LexBound::Kind::kExclusive, ""}), 0u);
  EXPECT_EQ(set_.Rank(nul2), 3u);
  EXPECT_EQ(set_.Score(std::string("a\0c", 3)), std::nullopt);
}

TEST_P(SortedSetEdgeTest, NegativeZeroEqualsZeroButKeepsItsBits) {
  EXPECT_EQ(Add("b", 0.0).kind, Kind::kAdded);
  EXPECT_EQ(Add("a", -0.0).kind, Kind::kAdded);
  EXPECT_TRUE(std::signbit(*set_.Score("a")));
  EXPECT_EQ(Add("a", 0.0).kind, Kind::kUnchanged);  // equal: stored bits stay
  EXPECT_TRUE(std::signbit(*set_.Score("a")));
  EXPECT_EQ(Members(), (std::vector<std::string>{"a", "b"}));  // tie -> by member
  EXPECT_EQ(set_.ScoreLowerRank(0.0, false), 0u);
  EXPECT_EQ(set_.ScoreUpperRank(-0.0, false), 2u);
  EXPECT_EQ(set_.ScoreUpperRank(-0.0, true), 0u);
}

TEST_P(SortedSetEdgeTest, InfinitiesAndIncrToNaN) {
  Add("hi", kInf);
  Add("lo", -kInf);
  Add("mid", 0);
  EXPECT_EQ(Members(), (std::vector<std::string>{"lo", "mid", "hi"}));
  AddResult r = Add("hi", -kInf, {.incr = true});
  EXPECT_EQ(r.kind, Kind::kNaN);
  EXPECT_EQ(set_.Score("hi"), kInf);
  EXPECT_EQ(Add("hi", kInf, {.incr = true}).kind, Kind::kUnchanged);
  EXPECT_EQ(set_.ScoreLowerRank(-kInf, true), 1u);
  EXPECT_EQ(set_.ScoreUpperRank(kInf, true), 2u);
  EXPECT_EQ(set_.ScoreUpperRank(kInf, false), 3u);
}

TEST_P(SortedSetEdgeTest, EmptyAndHugeMembers) {
  const std::string huge(1 << 20, 'x');
  std::string binary_huge = huge;
  binary_huge[12345] = '\0';
  EXPECT_EQ(Add("", 1).kind, Kind::kAdded);
  EXPECT_EQ(Add(huge, 2).kind, Kind::kAdded);
  EXPECT_EQ(Add(binary_huge, 2).kind, Kind::kAdded);
  EXPECT_EQ(set_.Score(""), 1.0);
  EXPECT_EQ(set_.Rank(huge), 2u);
  EXPECT_EQ(set_.Rank(binary_huge), 1u);  // '\0' < 'x'
  EXPECT_EQ(set_.At(2).first, huge);
  EXPECT_GT(set_.MemoryUsage(), 2u << 20);
  EXPECT_EQ(Add(huge, 5, {.incr = true}).score, 7.0);
  EXPECT_TRUE(set_.Remove(huge));
  EXPECT_TRUE(set_.Remove(""));
  EXPECT_EQ(set_.size(), 1u);
}

TEST_P(SortedSetEdgeTest, AddFlagsFollowRedis) {
  EXPECT_EQ(Add("m", 5, {.xx = true}).kind, Kind::kSkipped);  // XX: absent stays absent
  EXPECT_FALSE(set_.Score("m"));
  EXPECT_EQ(Add("m", 5, {.gt = true}).kind, Kind::kAdded);  // GT never blocks new
  EXPECT_EQ(Add("m", 9, {.nx = true}).kind, Kind::kSkipped);
  EXPECT_EQ(Add("m", 4, {.gt = true}).kind, Kind::kSkipped);
  EXPECT_EQ(Add("m", 5, {.gt = true}).kind, Kind::kSkipped);  // equal is not greater
  EXPECT_EQ(Add("m", 6, {.lt = true}).kind, Kind::kSkipped);
  AddResult r = Add("m", 1, {.lt = true, .incr = true});  // 5 + 1 is not less
  EXPECT_EQ(r.kind, Kind::kSkipped);
  EXPECT_EQ(r.score, 5);
  r = Add("m", -2, {.xx = true, .lt = true, .incr = true});
  EXPECT_EQ(r.kind, Kind::kUpdated);
  EXPECT_EQ(r.score, 3);
  EXPECT_EQ(Add("m", 3).kind, Kind::kUnchanged);
  EXPECT_EQ(Add("n", 2.5, {.incr = true}).score, 2.5);  // INCR on absent adds
}

INSTANTIATE_TEST_SUITE_P(Encodings, SortedSetEdgeTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) {
                           return i.param ? "Tree" : "Compact";
                         });

TEST(SortedSetConversionTest, HintConstructorFollowsZsetTypeCreate) {
  SortedSetLimits d;
  EXPECT_EQ(SortedSet(d).encoding(), SortedSet::Encoding::kCompact);
  EXPECT_EQ(SortedSet(d, 128, 64).encoding(), SortedSet::Encoding::kCompact);
  EXPECT_EQ(SortedSet(d, 129, 1).encoding(), SortedSet::Encoding::kTree);
  EXPECT_EQ(SortedSet(d, 1, 65).encoding(), SortedSet::Encoding::kTree);
  EXPECT_EQ(SortedSet(SortedSetLimits{0, 64}).encoding(), SortedSet::Encoding::kTree);
}

TEST(SortedSetConversionTest, ConvertsOnlyWhenAddingAndShrinksOnRequest) {
  SortedSetLimits d;
  SortedSet set(d);
  for (int i = 0; i < 128; ++i) set.Add("m" + std::to_string(i), i, {}, d);
  EXPECT_EQ(set.encoding(), SortedSet::Encoding::kCompact);
  set.Add("m0", 1000, {}, d);  // update: no conversion
  EXPECT_EQ(set.encoding(), SortedSet::Encoding::kCompact);
  set.Add("m128", 5, {}, d);
  EXPECT_EQ(set.encoding(), SortedSet::Encoding::kTree);
  EXPECT_EQ(set.Rank("m128"), 4u);
  EXPECT_EQ(set.CheckInvariants(), "");
  set.ShrinkIfFits(d);  // 129 > 128: stays
  EXPECT_EQ(set.encoding(), SortedSet::Encoding::kTree);
  set.Remove("m5");
  set.ShrinkIfFits(d);
  EXPECT_EQ(set.encoding(), SortedSet::Encoding::kCompact);
  EXPECT_EQ(set.Rank("m128"), 4u);
  EXPECT_EQ(set.Score("m0"), 1000.0);
  EXPECT_EQ(set.CheckInvariants(), "");
  // A long member converts at once, and keeps the set a tree when shrinking.
  const std::string long_member(65, 'z');
  set.Add(long_member, 0, {}, d);
  EXPECT_EQ(set.encoding(), SortedSet::Encoding::kTree);
  set.ShrinkIfFits(d);
  EXPECT_EQ(set.encoding(), SortedSet::Encoding::kTree);
  // Adding a member that is a view into the set's own storage is safe.
  std::string_view own = set.At(0).first;
  EXPECT_EQ(set.Add(own, -1, {}, d).kind, Kind::kUpdated);
}

TEST(SortedSetConversionTest, MemberViewIntoCompactBufferSurvivesConversion) {
  SortedSetLimits small{2, 64};
  SortedSet set(small);
  set.Add("a", 1, {}, small);
  set.Add("b", 2, {}, small);
  std::string_view own = set.At(1).first;  // points into the compact buffer
  EXPECT_EQ(set.Add(own, 3, {}, small).kind, Kind::kUpdated);
  EXPECT_EQ(set.At(1).first, "b");
  EXPECT_EQ(set.CheckInvariants(), "");
}

}  // namespace
}  // namespace rankd
