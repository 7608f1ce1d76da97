// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SortedSet's one-word form and its Rare part (sorted_set.h "The
// representation is one word"): a compact set gains a Rare part for a
// member deadline, metadata or a snapshot schedule, and must return to the
// one-word form when the last of them goes, whichever path removes it. The
// memory of a set that went there and back equals that of one that never
// left; a tree keeps its Rare part (the tree lives there).

#include <gtest/gtest.h>

#include <string>

#include "core/sorted_set.h"

namespace rankd {
namespace {

const SortedSetLimits kLimits;  // Redis's defaults: 128 entries, 64 bytes

// A compact set of `n` members m0.. with scores 0..
SortedSet Filled(int n) {
  SortedSet z(kLimits);
  for (int i = 0; i < n; ++i) z.Add("m" + std::to_string(i), i, {}, kLimits);
  return z;
}

class SortedSetRareTest : public ::testing::Test {
 protected:
  // What the same members cost in the one-word form.
  const size_t plain_ = Filled(5).MemoryUsage();
  // The same for five members left of six by a plain ZREM: the compact buffer
  // keeps the sixth one's room. (Equal to plain_ with glibc, which rounds
  // malloc_usable_size up; AddressSanitizer reports the exact request.)
  const size_t plain_after_removal_ = [] {
    SortedSet z = Filled(6);
    z.Remove("m5");
    return z.MemoryUsage();
  }();
};

TEST_F(SortedSetRareTest, DeadlineClearedDemotes) {
  SortedSet z = Filled(5);
  z.SetMemberExpire("m1", 1000);
  EXPECT_GT(z.MemoryUsage(), plain_);
  z.SetMemberExpire("m1", -1);
  EXPECT_EQ(z.MemoryUsage(), plain_);
  EXPECT_EQ(z.MemberExpire("m1"), -1);
  EXPECT_EQ(z.CheckInvariants(), "");
}

TEST_F(SortedSetRareTest, DueRemovalDemotes) {
  SortedSet z = Filled(6);
  z.SetMemberExpire("m5", 10);
  EXPECT_EQ(z.RemoveDue(10, 100), std::vector<std::string>{"m5"});
  EXPECT_EQ(z.MemoryUsage(), plain_after_removal_);
  EXPECT_EQ(z.size(), 5u);
  EXPECT_EQ(z.EarliestMemberExpire(), -1);
}

TEST_F(SortedSetRareTest, RemovingTheOnlyMemberWithSideDataDemotes) {
  SortedSet z = Filled(6);
  z.SetMemberMeta("m5", "profile");
  z.SetMemberExpire("m5", 1000);
  EXPECT_TRUE(z.Remove("m5"));
  EXPECT_EQ(z.MemoryUsage(), plain_after_removal_);
  EXPECT_EQ(z.MembersWithMeta(), 0u);
  EXPECT_EQ(z.MembersWithExpire(), 0u);
}

TEST_F(SortedSetRareTest, MetadataErasedDemotesOnlyWhenNothingIsLeft) {
  SortedSet z = Filled(5);
  z.SetMemberMeta("m0", "a");
  z.SetMemberExpire("m1", 1000);
  z.SetMemberMeta("m0", "");
  EXPECT_GT(z.MemoryUsage(), plain_);  // the deadline still needs the Rare part
  EXPECT_EQ(z.MemberExpire("m1"), 1000);
  z.SetMemberExpire("m1", -1);
  EXPECT_EQ(z.MemoryUsage(), plain_);
  EXPECT_FALSE(z.MemberMeta("m0").has_value());
}

TEST_F(SortedSetRareTest, SnapshotScheduleClearedDemotes) {
  SortedSet z = Filled(5);
  z.set_snapshot_every_ms(0);  // nothing to do on a one-word set
  EXPECT_EQ(z.MemoryUsage(), plain_);
  z.set_snapshot_every_ms(60000);
  EXPECT_EQ(z.snapshot_every_ms(), 60000);
  z.set_snapshot_every_ms(0);
  EXPECT_EQ(z.MemoryUsage(), plain_);
  EXPECT_EQ(z.snapshot_every_ms(), 0);
}

TEST_F(SortedSetRareTest, SwapContentsMovesSideDataAndDemotesTheOtherSide) {
  SortedSet a = Filled(5);
  a.SetMemberExpire("m2", 1000);
  a.set_snapshot_every_ms(5000);
  SortedSet b(kLimits);
  b.Add("x", 1, {}, kLimits);
  const size_t b_plain = b.MemoryUsage();
  a.SwapContents(b);
  // The members and their deadline moved; each kept its own schedule.
  EXPECT_EQ(a.size(), 1u);
  EXPECT_EQ(b.size(), 5u);
  EXPECT_EQ(b.MemberExpire("m2"), 1000);
  EXPECT_EQ(a.snapshot_every_ms(), 5000);
  EXPECT_EQ(b.snapshot_every_ms(), 0);
  a.set_snapshot_every_ms(0);
  EXPECT_EQ(a.MemoryUsage(), b_plain);  // "x" alone, one-word form
  b.SetMemberExpire("m2", -1);
  EXPECT_EQ(b.MemoryUsage(), plain_);
  EXPECT_EQ(a.CheckInvariants(), "");
  EXPECT_EQ(b.CheckInvariants(), "");
}

TEST_F(SortedSetRareTest, TreeKeepsItsRarePartAfterSideDataGoes) {
  SortedSet z = Filled(200);  // past 128 entries: a tree
  ASSERT_EQ(z.encoding(), SortedSet::Encoding::kTree);
  z.SetMemberMeta("m7", "x");
  z.SetMemberExpire("m8", 1000);
  z.SetMemberMeta("m7", "");
  z.SetMemberExpire("m8", -1);
  EXPECT_EQ(z.encoding(), SortedSet::Encoding::kTree);
  EXPECT_EQ(z.size(), 200u);
  EXPECT_EQ(z.Score("m150"), 150.0);
  EXPECT_EQ(z.CheckInvariants(), "");
}

TEST_F(SortedSetRareTest, MovedFromSetIsAnEmptyOneWordSet) {
  SortedSet a = Filled(5);
  a.SetMemberMeta("m1", "x");
  SortedSet b(std::move(a));
  EXPECT_EQ(b.MemberMeta("m1"), std::optional<std::string_view>("x"));
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): documented state
  EXPECT_EQ(a.MemoryUsage(), SortedSet(kLimits).MemoryUsage());
}

}  // namespace
}  // namespace rankd
