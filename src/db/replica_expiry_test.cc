// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Expiry on a replica (db/replica_expiry.cc): a key past its deadline reads
// as missing but stays until deleted by the primary's command; the
// primary's commands see it live; a writable replica's own deadlines are
// its own to expire; hash fields wait for the primary's HDEL.

#include <memory>
#include <string>

#include "base/clock.h"
#include "db/database.h"
#include "gtest/gtest.h"

namespace rankd {
namespace {

TEST(ReplicaExpiryTest, KeysPastTheirDeadlineStayUntilThePrimaryDeletesThem) {
  ReplicaExpiry role;
  role.replica = true;
  Database db(0);
  db.set_replica_expiry(&role);
  db.Insert("k", Value(std::string("v")));
  db.SetExpire(db.Find("k"), WallMs() - 1);

  EXPECT_EQ(db.Find("k"), nullptr);  // reads as missing...
  EXPECT_EQ(db.Peek("k"), nullptr);
  EXPECT_EQ(db.size(), 1u);  // ...and stays
  EXPECT_EQ(db.ActiveExpire(1000), 0u);
  EXPECT_EQ(db.size(), 1u);
  EXPECT_EQ(db.expired_count(), 0u);

  role.from_primary = true;  // the primary's command acts on it
  ASSERT_NE(db.Find("k"), nullptr);
  db.SetExpire(db.Find("k"), -1);  // PERSIST
  role.from_primary = false;
  EXPECT_NE(db.Find("k"), nullptr);

  db.SetExpire(db.Find("k"), WallMs() - 1);
  EXPECT_TRUE(db.Delete("k"));  // DEL counts it (Redis)
  EXPECT_EQ(db.size(), 0u);
}

TEST(ReplicaExpiryTest, AWritableReplicaExpiresItsOwnDeadlines) {
  ReplicaExpiry role;
  role.replica = true;
  Database db(0);
  db.set_replica_expiry(&role);
  db.Insert("theirs", Value(std::string("v")));
  db.SetExpire(db.Find("theirs"), WallMs() - 1);
  role.local_write = true;
  db.Insert("mine", Value(std::string("v")));
  db.SetExpire(db.Find("mine"), WallMs() - 1);
  db.Insert("gone", Value(std::string("v")));
  db.SetExpire(db.Find("gone"), WallMs() + 100000);
  db.SetExpire(db.Find("gone"), -1);  // PERSIST: forgotten when met
  role.local_write = false;

  EXPECT_EQ(db.ActiveExpire(1000), 1u);
  EXPECT_EQ(db.Peek("mine"), nullptr);
  EXPECT_EQ(db.size(), 2u);  // "theirs" waits for the primary

  role.local_write = true;  // a local write deletes what it looks up
  EXPECT_EQ(db.Find("theirs"), nullptr);
  EXPECT_EQ(db.size(), 1u);
  EXPECT_EQ(db.expired_count(), 2u);
}

// The cron's visit is bounded by its budget and fair: with many local
// deadlines, each call looks at the names in turn, so due keys behind live
// ones still go, and setting a deadline again does not queue a name twice.
TEST(ReplicaExpiryTest, LocalDeadlinesAreVisitedInTurnWithinTheBudget) {
  ReplicaExpiry role;
  role.replica = true;
  role.local_write = true;
  Database db(0);
  db.set_replica_expiry(&role);
  constexpr int kLive = 20000, kDue = 200;
  for (int i = 0; i < kLive; ++i) {
    const std::string k = "live:" + std::to_string(i);
    db.Insert(k, Value(std::string("v")));
    db.SetExpire(db.Find(k), WallMs() + 3600 * 1000);
    db.SetExpire(db.Find(k), WallMs() + 7200 * 1000);  // again: queued once
  }
  for (int i = 0; i < kDue; ++i) {  // queued after every live key
    const std::string k = "due:" + std::to_string(i);
    db.Insert(k, Value(std::string("v")));
    db.SetExpire(db.Find(k), WallMs() - 1);
  }
  role.local_write = false;
  size_t expired = 0;
  int calls = 0;
  while (expired < kDue) {
    ASSERT_LT(++calls, 100000) << "due keys never reached";
    expired += db.ActiveExpire(-1);  // a budget already spent: 64 names per call
  }
  EXPECT_EQ(expired, static_cast<size_t>(kDue));
  // Each name once in the queue: the last due key is name kLive + kDue.
  EXPECT_EQ(calls, (kLive + kDue + 63) / 64);
  EXPECT_EQ(db.size(), static_cast<size_t>(kLive));
  EXPECT_EQ(db.ActiveExpire(1000000), 0u);  // a whole pass: nothing more is due
}

TEST(ReplicaExpiryTest, HashFieldsWaitForThePrimary) {
  ReplicaExpiry role;
  Database db(0);
  db.set_replica_expiry(&role);
  auto h = std::make_unique<Hash>();
  h->Set("f", "1", HashLimits{});
  h->Set("g", "2", HashLimits{});
  h->SetFieldExpire("f", WallMs() - 1);
  Database::Entry* e = db.Insert("h", Value(std::move(h)));
  role.replica = true;
  EXPECT_EQ(db.ExpireFields(e, WallMs()), e);
  EXPECT_EQ(db.ActiveExpireFields(WallMs(), 10), 0u);
  EXPECT_EQ(e->value.hash().size(), 2u);
  role.replica = false;  // promoted
  EXPECT_EQ(db.ActiveExpireFields(WallMs(), 10), 1u);
  EXPECT_EQ(e->value.hash().size(), 1u);
}

}  // namespace
}  // namespace rankd
