// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/member_ttl.h"

#include <gtest/gtest.h>

#include "core/sorted_set.h"

namespace rankd {
namespace {

TEST(MemberTtl, SetGetEarliestDue) {
  MemberTtl t;
  EXPECT_EQ(t.earliest(), -1);
  t.Set("a", 30);
  t.Set("b", 10);
  t.Set("c", 20);
  EXPECT_EQ(t.Get("a"), 30);
  EXPECT_EQ(t.Get("x"), -1);
  EXPECT_EQ(t.earliest(), 10);
  t.Set("b", 40);  // moves in the order
  EXPECT_EQ(t.earliest(), 20);
  EXPECT_EQ(t.Due(30), (std::vector<std::string>{"c", "a"}));
  t.Erase("c");
  t.Erase("nope");
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.earliest(), 30);
  t.Set("a", -1);
  t.Set("b", -1);
  EXPECT_TRUE(t.empty());
  EXPECT_GE(t.MemoryUsage(), sizeof(MemberTtl));
}

// Deadlines follow members through every way a sorted set loses them, in
// both encodings and in board mode.
void CheckSetKeepsDeadlinesRight(SortedSet& z) {
  const SortedSetLimits limits;
  for (int i = 0; i < 200; i++) z.Add("m" + std::to_string(i), i, AddOptions{}, limits);
  EXPECT_EQ(z.EarliestMemberExpire(), -1);
  z.SetMemberExpire("m5", 500);
  z.SetMemberExpire("m0", 600);
  z.SetMemberExpire("m150", 100);
  EXPECT_EQ(z.EarliestMemberExpire(), 100);
  z.Add("m150", 1000, AddOptions{}, limits);  // a score update keeps it
  EXPECT_EQ(z.MemberExpire("m150"), 100);
  EXPECT_TRUE(z.Remove("m150"));
  EXPECT_EQ(z.MemberExpire("m150"), -1);
  EXPECT_EQ(z.EarliestMemberExpire(), 500);
  z.RemoveRankRange(0, 0);  // m0 (score 0)
  EXPECT_EQ(z.MembersWithExpire(), 1u);
  std::unique_ptr<SortedSet> copy = z.Clone();
  EXPECT_EQ(copy->MemberExpire("m5"), 500);
  EXPECT_EQ(z.RemoveDue(499), std::vector<std::string>{});
  EXPECT_EQ(z.RemoveDue(500), std::vector<std::string>{"m5"});
  EXPECT_FALSE(z.Score("m5"));
  EXPECT_EQ(z.EarliestMemberExpire(), -1);
  EXPECT_EQ(z.CheckInvariants(), "");
}

TEST(MemberTtl, FollowsSortedSetMembers) {
  SortedSet z(SortedSetLimits{});
  CheckSetKeepsDeadlinesRight(z);
  SortedSet small(SortedSetLimits{.max_compact_entries = 1000});
  CheckSetKeepsDeadlinesRight(small);
  std::unique_ptr<SortedSet> board = SortedSet::NewBoard(BoardPolicy{});
  CheckSetKeepsDeadlinesRight(*board);
}

}  // namespace
}  // namespace rankd
