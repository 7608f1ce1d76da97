// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Snapshot round trips over every type and encoding, expiry on load, and
// damaged files: every single-byte flip and every truncation is rejected.

#include "persist/snapshot.h"

#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "persist/fault_env.h"
#include "persist/persist_test_util.h"

namespace rankd {
namespace {

struct Dbs {
  std::vector<std::unique_ptr<Database>> owned;
  std::vector<Database*> ptrs;
  explicit Dbs(int n) {
    for (int i = 0; i < n; i++) {
      owned.push_back(std::make_unique<Database>(i));
      ptrs.push_back(owned.back().get());
    }
  }
  std::function<Database*(int)> Lookup() {
    return [this](int i) { return i < static_cast<int>(ptrs.size()) ? ptrs[i] : nullptr; };
  }
};

SnapshotLoadOptions Options() {
  SnapshotLoadOptions o;
  o.now_ms = WallMs();
  return o;
}

TEST(SnapshotTest, RoundTripsEveryTypeAndEncoding) {
  FaultEnv env;
  Dbs src(4);
  testing::Fill(*src.ptrs[0], 1, 300);
  testing::Fill(*src.ptrs[3], 2, 50);
  SnapshotWriteStats ws;
  ASSERT_TRUE(WriteSnapshot(&env, "d/dump", "d/tmp", src.ptrs, &ws).ok());
  EXPECT_EQ(ws.keys, 350u);
  EXPECT_FALSE(env.FileExists("d/tmp"));

  Dbs dst(4);
  SnapshotLoadStats ls;
  Status s = LoadSnapshot(&env, "d/dump", dst.Lookup(), Options(), &ls);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(ls.keys_loaded, 350u);
  for (int i = 0; i < 4; i++) EXPECT_EQ(testing::Dump(*dst.ptrs[i]), testing::Dump(*src.ptrs[i]));
  EXPECT_TRUE(VerifySnapshot(&env, "d/dump", &ls).ok());
  EXPECT_EQ(ls.keys_loaded, 350u);
}

TEST(SnapshotTest, ExpiredKeysAreNotResurrected) {
  FaultEnv env;
  Dbs src(1);
  Database& db = *src.ptrs[0];
  db.SetExpire(db.Insert("soon", Value(std::string("x"))), WallMs() + 200);
  db.SetExpire(db.Insert("later", Value(std::string("y"))), WallMs() + 3600000);
  db.Insert("never", Value(std::string("z")));
  SnapshotWriteStats ws;
  ASSERT_TRUE(WriteSnapshot(&env, "dump", "tmp", src.ptrs, &ws).ok());
  Dbs dst(1);
  SnapshotLoadOptions o = Options();
  o.now_ms += 1000;  // loading after "soon" passed
  SnapshotLoadStats ls;
  ASSERT_TRUE(LoadSnapshot(&env, "dump", dst.Lookup(), o, &ls).ok());
  EXPECT_EQ(ls.keys_loaded, 2u);
  EXPECT_EQ(ls.keys_expired, 1u);
  EXPECT_EQ(dst.ptrs[0]->Peek("soon"), nullptr);
  ASSERT_NE(dst.ptrs[0]->Peek("later"), nullptr);
  EXPECT_EQ(dst.ptrs[0]->ExpireMs(dst.ptrs[0]->Peek("later")), db.ExpireMs(db.Peek("later")));
  EXPECT_EQ(dst.ptrs[0]->ExpireMs(dst.ptrs[0]->Peek("never")), -1);
}

TEST(SnapshotTest, ExpiredHashFieldsAreNotResurrected) {
  FaultEnv env;
  Dbs src(1);
  Database& db = *src.ptrs[0];
  auto h = std::make_unique<Hash>();
  h->Set("soon", "1", HashLimits{});
  h->Set("later", "2", HashLimits{});
  h->Set("never", "3", HashLimits{});
  h->SetFieldExpire("soon", WallMs() + 200);
  h->SetFieldExpire("later", WallMs() + 3600000);
  db.Insert("h", Value(std::move(h)));
  auto all = std::make_unique<Hash>();
  all->Set("f", "1", HashLimits{});
  all->SetFieldExpire("f", WallMs() + 200);
  db.Insert("all", Value(std::move(all)));
  SnapshotWriteStats ws;
  ASSERT_TRUE(WriteSnapshot(&env, "dump", "tmp", src.ptrs, &ws).ok());
  Dbs dst(1);
  SnapshotLoadOptions o = Options();
  o.now_ms += 1000;  // loading after "soon" passed
  SnapshotLoadStats ls;
  ASSERT_TRUE(LoadSnapshot(&env, "dump", dst.Lookup(), o, &ls).ok());
  EXPECT_EQ(ls.keys_loaded, 1u);
  EXPECT_EQ(ls.keys_expired, 1u);
  EXPECT_EQ(dst.ptrs[0]->Peek("all"), nullptr);
  const Hash& got = dst.ptrs[0]->Peek("h")->value.hash();
  EXPECT_EQ(got.size(), 2u);
  EXPECT_FALSE(got.Contains("soon"));
  EXPECT_EQ(got.FieldExpire("later"), db.Peek("h")->value.hash().FieldExpire("later"));
  EXPECT_EQ(got.FieldExpire("never"), -1);
  // The loaded hash is registered for active field expiry.
  EXPECT_TRUE(dst.ptrs[0]->has_field_deadlines());
}

TEST(SnapshotTest, EveryByteFlipAndTruncationIsRejected) {
  FaultEnv env;
  Dbs src(2);
  testing::Fill(*src.ptrs[1], 3, 10);
  SnapshotWriteStats ws;
  ASSERT_TRUE(WriteSnapshot(&env, "dump", "tmp", src.ptrs, &ws).ok());
  const std::string good = env.Contents("dump");
  for (size_t i = 0; i < good.size(); i++) {
    std::string bad = good;
    bad[i] ^= 0x21;
    env.SetContents("dump", bad);
    Dbs dst(2);
    SnapshotLoadStats ls;
    Status s = LoadSnapshot(&env, "dump", dst.Lookup(), Options(), &ls);
    ASSERT_EQ(s.code(), Status::Code::kCorruption) << "flip at " << i;
    EXPECT_NE(s.message().find("dump: "), std::string::npos) << s.message();
  }
  for (size_t cut = 0; cut < good.size(); cut++) {
    env.SetContents("dump", good.substr(0, cut));
    SnapshotLoadStats ls;
    ASSERT_EQ(VerifySnapshot(&env, "dump", &ls).code(), Status::Code::kCorruption) << cut;
  }
  env.SetContents("dump", good + "x");
  SnapshotLoadStats ls;
  EXPECT_EQ(VerifySnapshot(&env, "dump", &ls).code(), Status::Code::kCorruption);
}

TEST(SnapshotTest, FailedWriteLeavesTheOldSnapshot) {
  FaultEnv env;
  Dbs v1(1), v2(1);
  testing::Fill(*v1.ptrs[0], 4, 20);
  testing::Fill(*v2.ptrs[0], 5, 400);
  SnapshotWriteStats ws;
  ASSERT_TRUE(WriteSnapshot(&env, "dump", "tmp", v1.ptrs, &ws).ok());
  env.set_space_left(1000);  // ENOSPC part-way
  EXPECT_FALSE(WriteSnapshot(&env, "dump", "tmp", v2.ptrs, &ws).ok());
  env.set_space_left(-1);
  env.set_sync_error(true);
  EXPECT_FALSE(WriteSnapshot(&env, "dump", "tmp", v2.ptrs, &ws).ok());
  env.set_sync_error(false);
  env.set_rename_error(true);
  EXPECT_FALSE(WriteSnapshot(&env, "dump", "tmp", v2.ptrs, &ws).ok());
  env.set_rename_error(false);
  EXPECT_FALSE(env.FileExists("tmp"));
  env.Crash();
  Dbs dst(1);
  SnapshotLoadStats ls;
  ASSERT_TRUE(LoadSnapshot(&env, "dump", dst.Lookup(), Options(), &ls).ok());
  EXPECT_EQ(testing::Dump(*dst.ptrs[0]), testing::Dump(*v1.ptrs[0]));
}

TEST(SnapshotTest, DatabaseIndexOutOfRangeIsCorruption) {
  FaultEnv env;
  Dbs src(3);
  src.ptrs[2]->Insert("k", Value(std::string("v")));
  SnapshotWriteStats ws;
  ASSERT_TRUE(WriteSnapshot(&env, "dump", "tmp", src.ptrs, &ws).ok());
  Dbs dst(2);
  SnapshotLoadStats ls;
  Status s = LoadSnapshot(&env, "dump", dst.Lookup(), Options(), &ls);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("out of range"), std::string::npos);
}

}  // namespace
}  // namespace rankd

namespace rankd {
namespace {

TEST(SnapshotTest, AuxFieldsRoundTrip) {
  FaultEnv env;
  Dbs src(1);
  src.ptrs[0]->Insert("k", Value(std::string("v")));
  SnapshotWriteStats ws;
  const std::string payload("\xf5\x00lib\r\n", 7);
  ASSERT_TRUE(WriteSnapshot(&env, "dump", "tmp", src.ptrs, &ws, {{"functions", payload}}).ok());
  Dbs dst(1);
  SnapshotLoadOptions o = Options();
  std::map<std::string, std::string> seen;
  o.on_aux = [&](std::string_view k, std::string_view v) {
    seen[std::string(k)] = std::string(v);
    return Status::OK();
  };
  SnapshotLoadStats ls;
  ASSERT_TRUE(LoadSnapshot(&env, "dump", dst.Lookup(), o, &ls).ok());
  EXPECT_EQ(seen["functions"], payload);
  EXPECT_EQ(seen["rankd-ver"], "0.1.0");
  o.on_aux = [](std::string_view k, std::string_view) {
    return k == "functions" ? Status::Corruption("bad functions") : Status::OK();
  };
  Dbs again(1);
  EXPECT_EQ(LoadSnapshot(&env, "dump", again.Lookup(), o, &ls).message(), "bad functions");
}

}  // namespace
}  // namespace rankd
