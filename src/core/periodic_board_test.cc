// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/periodic_board.h"

#include <gtest/gtest.h>

namespace rankd {
namespace {

std::unique_ptr<SortedSet> NewPeriodic(int64_t retain, int64_t open_index) {
  PeriodSpec spec;
  spec.unit = PeriodUnit::kSeconds;
  spec.seconds = 10;
  spec.retain = retain;
  auto z = SortedSet::NewBoard({});
  z->SetPeriodic(std::make_unique<PeriodicBoard>(PeriodCalendar(spec, absl::UTCTimeZone()),
                                                 open_index));
  return z;
}

TEST(PeriodicBoardTest, RollMovesTheOpenPeriodAndKeepsTheCounter) {
  auto z = NewPeriodic(-1, 5);
  PeriodicBoard& p = *z->periodic();
  (void)z->Add("a", 1, {}, {}, 1000);
  (void)z->Add("b", 2, {}, {}, 1000);
  z->SetMemberMeta("a", "Ana");
  z->SetMemberExpire("b", 99999);
  EXPECT_FALSE(p.RollTo(*z, 5));
  EXPECT_TRUE(p.RollTo(*z, 7));
  EXPECT_EQ(z->periodic(), &p);  // the key's set keeps its periods
  EXPECT_TRUE(z->empty());
  EXPECT_EQ(z->BoardNextSeq(), 3u);
  EXPECT_EQ(p.open_index(), 7);
  const SortedSet* closed = p.Period(*z, 5);
  ASSERT_NE(closed, nullptr);
  EXPECT_EQ(closed->size(), 2u);
  EXPECT_EQ(closed->MemberMeta("a"), "Ana");
  EXPECT_EQ(closed->MemberExpire("b"), -1);  // frozen
  EXPECT_EQ(p.Period(*z, 6), nullptr);       // nothing written then
  EXPECT_EQ(p.Period(*z, 7), z.get());
  EXPECT_EQ(closed->CheckInvariants(), "");
  // An empty open period leaves nothing behind.
  EXPECT_TRUE(p.RollTo(*z, 8));
  EXPECT_EQ(p.closed_count(), 1u);
  auto copy = z->Clone();
  ASSERT_NE(copy->periodic(), nullptr);
  EXPECT_EQ(copy->periodic()->Period(*copy, 5)->size(), 2u);
}

TEST(PeriodicBoardTest, RetainDropsTheOldest) {
  auto z = NewPeriodic(2, 0);
  PeriodicBoard& p = *z->periodic();
  for (int64_t i = 1; i <= 5; i++) {
    (void)z->Add("m" + std::to_string(i), 1, {}, {}, 0);
    ASSERT_TRUE(p.RollTo(*z, i));
  }
  // Open 5; kept closed: 3 and 4.
  std::vector<int64_t> kept;
  p.ForEachClosed([&](int64_t index, const SortedSet&) { kept.push_back(index); });
  EXPECT_EQ(kept, (std::vector<int64_t>{4, 3}));
  EXPECT_TRUE(p.Kept(3, 5));
  EXPECT_FALSE(p.Kept(2, 5));
  EXPECT_FALSE(p.Kept(6, 5));
  EXPECT_EQ(p.CurrentIndex(0), 5);       // the clock is behind: the open one
  EXPECT_EQ(p.CurrentIndex(70000), 7);
}

}  // namespace
}  // namespace rankd
