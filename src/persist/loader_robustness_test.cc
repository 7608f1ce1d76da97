// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Hostile input for the loaders, short of a real fuzzer (fuzz/persist_fuzz.cc
// runs the same bodies under libFuzzer with clang): valid snapshots and logs
// mutated at random (flips, inserted and deleted bytes, truncation, garbage)
// must load or be rejected with a Status; never crash, hang or allocate
// absurdly. Run under ASan (make asan) to catch memory errors.

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "persist/append_log.h"
#include "persist/command_codec.h"
#include "persist/fault_env.h"
#include "persist/log_reader.h"
#include "persist/persist_test_util.h"
#include "persist/snapshot.h"

namespace rankd {
namespace {

std::string Mutate(std::string s, std::mt19937& rng) {
  const int edits = 1 + rng() % 4;
  for (int i = 0; i < edits && !s.empty(); i++) {
    size_t pos = rng() % s.size();
    switch (rng() % 5) {
      case 0: s[pos] ^= static_cast<char>(1 << (rng() % 8)); break;
      case 1: s[pos] = static_cast<char>(rng()); break;
      case 2: s.insert(pos, 1 + rng() % 8, static_cast<char>(rng())); break;
      case 3: s.erase(pos, 1 + rng() % 8); break;
      case 4: s.resize(pos); break;
    }
  }
  return s;
}

Status LoadSnapshotBytes(const std::string& bytes) {
  FaultEnv env;
  env.SetContents("dump", bytes);
  std::vector<std::unique_ptr<Database>> dbs;
  for (int i = 0; i < 4; i++) dbs.push_back(std::make_unique<Database>(i));
  SnapshotLoadOptions o;
  o.now_ms = 0;
  SnapshotLoadStats stats;
  return LoadSnapshot(
      &env, "dump", [&](int i) { return i < 4 ? dbs[i].get() : nullptr; }, o, &stats);
}

Status ReadLogBytes(const std::string& bytes) {
  FaultEnv env;
  env.SetContents("log", bytes);
  LogFileInfo info;
  return ReadLogFile(
      &env, "log",
      [](std::string_view payload, uint64_t) {
        BatchReader r(payload);
        int db;
        std::vector<std::string_view> args;
        while (r.Next(&db, &args)) {
        }
        return r.error().empty() ? Status::OK() : Status::Corruption(r.error());
      },
      &info);
}

TEST(LoaderRobustnessTest, MutatedSnapshotsAreLoadedOrRejected) {
  FaultEnv env;
  std::vector<std::unique_ptr<Database>> owned;
  std::vector<Database*> dbs;
  for (int i = 0; i < 2; i++) {
    owned.push_back(std::make_unique<Database>(i));
    dbs.push_back(owned.back().get());
  }
  testing::Fill(*dbs[1], 7, 12);
  SnapshotWriteStats ws;
  ASSERT_TRUE(WriteSnapshot(&env, "dump", "tmp", dbs, &ws).ok());
  const std::string good = env.Contents("dump");
  ASSERT_TRUE(LoadSnapshotBytes(good).ok());
  std::mt19937 rng(12345);
  int rejected = 0;
  for (int i = 0; i < 3000; i++) {
    Status s = LoadSnapshotBytes(Mutate(good, rng));
    rejected += !s.ok();
  }
  EXPECT_GT(rejected, 2900);  // the checksum catches (nearly) everything
}

TEST(LoaderRobustnessTest, MutatedLogsAreReadOrRejected) {
  FaultEnv env;
  std::unique_ptr<AppendLog> log;
  ASSERT_TRUE(AppendLog::Open(&env, "log", FsyncPolicy::kAlways, &log).ok());
  for (int i = 0; i < 20; i++) {
    std::string v = std::to_string(i);
    std::string_view args[] = {"ZADD", "lb", v, "member"};
    log->Add(i % 3, args);
    if (i % 3 == 0) {
      ASSERT_TRUE(log->Commit().ok());
    }
  }
  ASSERT_TRUE(log->Commit().ok());
  const std::string good = env.Contents("log");
  ASSERT_TRUE(ReadLogBytes(good).ok());
  std::mt19937 rng(54321);
  for (int i = 0; i < 3000; i++) (void)ReadLogBytes(Mutate(good, rng));
  for (int i = 0; i < 300; i++) {  // pure garbage
    std::string junk(rng() % 200, '\0');
    for (char& ch : junk) ch = static_cast<char>(rng());
    (void)ReadLogBytes(junk);
    (void)LoadSnapshotBytes(junk);
  }
}

}  // namespace
}  // namespace rankd
