// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Leaderboards in snapshots (format::kTypeBoard): policy, sequence counter,
// every member's stamp and hence the order among ties survive a round trip,
// an empty board included; damaged policy bytes are rejected.

#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "db/database.h"
#include "gtest/gtest.h"
#include "persist/fault_env.h"
#include "core/periodic_board.h"
#include "persist/periodic_codec.h"
#include "persist/snapshot.h"

namespace rankd {
namespace {

std::string DumpBoard(const SortedSet& z) {
  std::string out = std::string(OrderName(z.board()->order)) + "/" +
                    std::string(TiesName(z.board()->ties)) + " next " +
                    std::to_string(z.BoardNextSeq());
  z.BoardForEach([&](std::string_view m, double s, BoardStamp st) {
    out += " " + std::string(m) + ":" + std::to_string(s) + "#" + std::to_string(st.seq) + "@" +
           std::to_string(st.ms);
  });
  return out;
}

TEST(LeaderboardSnapshotTest, RoundTripKeepsPolicyStampsAndOrder) {
  FaultEnv env;
  Database src(0);
  auto big = SortedSet::NewBoard({BoardOrder::kAsc, BoardTies::kLast});
  SortedSetLimits limits;
  for (int i = 0; i < 3000; ++i) big->Add("m" + std::to_string(i % 700), i % 5, {}, limits, 5000 + i);
  src.Insert("big", Value(std::move(big)));
  src.Insert("empty", Value(SortedSet::NewBoard({})));
  auto plain = std::make_unique<SortedSet>(limits);
  plain->Add("x", 1, {}, limits);
  src.Insert("plain", Value(std::move(plain)));
  std::vector<Database*> dbs = {&src};
  SnapshotWriteStats ws;
  ASSERT_TRUE(WriteSnapshot(&env, "d/dump", "d/tmp", dbs, &ws).ok());

  Database dst(0);
  SnapshotLoadOptions o;
  o.now_ms = WallMs();
  SnapshotLoadStats ls;
  Status s = LoadSnapshot(&env, "d/dump", [&](int i) { return i == 0 ? &dst : nullptr; }, o, &ls);
  ASSERT_TRUE(s.ok()) << s.message();
  for (const char* k : {"big", "empty"}) {
    const SortedSet& a = src.Peek(k)->value.zset();
    const SortedSet& b = dst.Peek(k)->value.zset();
    ASSERT_NE(b.board(), nullptr) << k;
    EXPECT_EQ(DumpBoard(b), DumpBoard(a)) << k;
    EXPECT_EQ(b.CheckInvariants(), "");
  }
  EXPECT_EQ(dst.Peek("plain")->value.zset().board(), nullptr);
}

// A periodic board: the open period is the entry, the closed ones (with
// metadata) the kOpPeriodic item; a damaged blob is refused.
TEST(LeaderboardSnapshotTest, PeriodsRoundTrip) {
  FaultEnv env;
  Database src(0);
  PeriodSpec spec;
  spec.unit = PeriodUnit::kWeek;
  spec.zone = "America/New_York";
  spec.week_starts_sunday = true;
  spec.retain = 4;
  absl::TimeZone tz;
  ASSERT_TRUE(absl::LoadTimeZone(spec.zone, &tz));
  auto z = SortedSet::NewBoard({});
  z->SetPeriodic(std::make_unique<PeriodicBoard>(PeriodCalendar(spec, tz), 100));
  SortedSetLimits limits;
  for (int p = 101; p <= 103; p++) {
    for (int i = 0; i < 50 * p - 5000; i++) {
      (void)z->Add("m" + std::to_string(i), i % 7, {}, limits, p);
    }
    z->SetMemberMeta("m1", "meta" + std::to_string(p));
    ASSERT_TRUE(z->periodic()->RollTo(*z, p));
  }
  (void)z->Add("open", 1, {}, limits, 1);
  const std::string blob = EncodePeriodic(*z);
  src.Insert("p", Value(std::move(z)));
  std::vector<Database*> dbs = {&src};
  SnapshotWriteStats ws;
  ASSERT_TRUE(WriteSnapshot(&env, "d/dump", "d/tmp", dbs, &ws).ok());
  Database dst(0);
  SnapshotLoadOptions o;
  o.now_ms = WallMs();
  SnapshotLoadStats ls;
  Status s = LoadSnapshot(&env, "d/dump", [&](int i) { return i == 0 ? &dst : nullptr; }, o, &ls);
  ASSERT_TRUE(s.ok()) << s.message();
  const SortedSet& a = src.Peek("p")->value.zset();
  const SortedSet& b = dst.Peek("p")->value.zset();
  ASSERT_NE(b.periodic(), nullptr);
  EXPECT_EQ(b.periodic()->spec(), spec);
  EXPECT_EQ(b.periodic()->open_index(), 103);
  EXPECT_EQ(DumpBoard(b), DumpBoard(a));
  for (int p = 100; p <= 102; p++) {
    const SortedSet* pa = a.periodic()->Period(a, p);
    const SortedSet* pb = b.periodic()->Period(b, p);
    ASSERT_EQ(pa == nullptr, pb == nullptr) << p;
    if (!pa) continue;
    EXPECT_EQ(DumpBoard(*pb), DumpBoard(*pa)) << p;
    EXPECT_EQ(pb->MemberMeta("m1"), pa->MemberMeta("m1"));
  }
  EXPECT_EQ(EncodePeriodic(b), blob);
  for (size_t cut : {size_t{0}, size_t{3}, blob.size() / 2, blob.size() - 1}) {
    EXPECT_NE(DecodePeriodic(blob.substr(0, cut), nullptr), "") << cut;
  }
  EXPECT_NE(DecodePeriodic(blob + "x", nullptr), "");
  EXPECT_EQ(DecodePeriodic(blob, nullptr), "");
}

}  // namespace
}  // namespace rankd
