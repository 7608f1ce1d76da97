// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Losing data on purpose (LevelDB's fault_injection_test): an AppendLog over
// FaultEnv takes batches of commands while the disk fills up, fsync fails
// with EIO (and forgets dirty pages, as Linux does), and the machine crashes
// at random moments, dropping everything not fsynced. After each crash,
// recovery (ReadLogFile + truncating the torn tail) must yield a prefix of
// the commands in the order they were added, containing every command whose
// batch Commit() acknowledged. Then the log is reopened and the cycle
// repeats on the same file.

#include <random>
#include <string>
#include <vector>

#include "base/clock.h"
#include "gtest/gtest.h"
#include "persist/append_log.h"
#include "persist/command_codec.h"
#include "persist/fault_env.h"
#include "persist/log_reader.h"

namespace rankd {
namespace {

const std::string kPath = "aof/log";

// Recovers like the server: read, then cut the torn tail. Returns commands.
std::vector<std::string> Recover(FaultEnv& env) {
  std::vector<std::string> cmds;
  LogFileInfo info;
  Status s = ReadLogFile(
      &env, kPath,
      [&](std::string_view payload, uint64_t) {
        BatchReader r(payload);
        int db;
        std::vector<std::string_view> args;
        while (r.Next(&db, &args)) cmds.emplace_back(args[2]);
        EXPECT_EQ(r.error(), "");
        return Status::OK();
      },
      &info);
  EXPECT_TRUE(s.ok()) << s.message();
  if (info.torn_bytes > 0) {
    EXPECT_TRUE(env.TruncateFile(kPath, info.valid_size).ok());
  }
  return cmds;
}

void RunCrashCycles(FsyncPolicy policy, uint32_t seed) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  FaultEnv env;
  std::vector<std::string> added;  // every command, in order
  size_t acked = 0;                // commands acknowledged durable
  for (int cycle = 0; cycle < 8; cycle++) {
    std::unique_ptr<AppendLog> log;
    ASSERT_TRUE(AppendLog::Open(&env, kPath, policy, &log).ok());
    const int steps = 1 + rng() % 60;
    int64_t now = 1000000 * (cycle + 1);
    for (int step = 0; step < steps; step++) {
      switch (rng() % 12) {
        case 0: env.set_space_left(rng() % 200); break;
        case 1: env.set_space_left(-1); break;
        case 2: env.set_sync_error(true); break;
        case 3: env.set_sync_error(false); break;
        default: break;
      }
      const int n = 1 + rng() % 4;
      for (int i = 0; i < n; i++) {
        added.push_back(std::to_string(added.size()));
        std::string_view args[] = {"SET", "k", added.back()};
        log->Add(static_cast<int>(rng() % 3), args);
      }
      Status s = log->Commit();
      if (s.ok() && policy == FsyncPolicy::kAlways) acked = added.size();
      now += rng() % 400;
      log->Tick(now);
      if (rng() % 10 == 0) {  // a clean fsync point
        env.set_space_left(-1);
        env.set_sync_error(false);
        if (log->FlushAndSync().ok()) acked = added.size();
      }
    }
    log.reset();
    env.Crash();
    env.set_space_left(-1);
    env.set_sync_error(false);
    std::vector<std::string> got = Recover(env);
    ASSERT_LE(got.size(), added.size());
    for (size_t i = 0; i < got.size(); i++) ASSERT_EQ(got[i], added[i]) << "not a prefix at " << i;
    ASSERT_GE(got.size(), acked) << "lost acknowledged commands in cycle " << cycle;
    // What was lost is gone for good: the next cycle continues from here.
    added.resize(got.size());
    acked = got.size();
  }
}

TEST(FaultInjectionTest, AlwaysKeepsEveryAcknowledgedBatch) {
  for (uint32_t seed = 1; seed <= 200; seed++) RunCrashCycles(FsyncPolicy::kAlways, seed);
}

TEST(FaultInjectionTest, EverySecAndNoRecoverAPrefix) {
  for (uint32_t seed = 1; seed <= 100; seed++) {
    RunCrashCycles(FsyncPolicy::kEverySec, seed);
    RunCrashCycles(FsyncPolicy::kNo, seed);
  }
}

TEST(FaultInjectionTest, ErrorStateRefusesUntilTheDiskRecovers) {
  FaultEnv env;
  std::unique_ptr<AppendLog> log;
  ASSERT_TRUE(AppendLog::Open(&env, kPath, FsyncPolicy::kAlways, &log).ok());
  std::string_view a[] = {"SET", "k", "1"};
  log->Add(0, a);
  ASSERT_TRUE(log->Commit().ok());
  env.set_space_left(5);
  log->Add(0, a);
  Status s = log->Commit();
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(log->ok());
  EXPECT_EQ(ErrorDetail(log->error()), "No space left on device");
  log->Tick(MonoMs() + 1000);  // still full
  EXPECT_FALSE(log->ok());
  env.set_space_left(-1);
  log->Tick(MonoMs() + 2000);
  EXPECT_TRUE(log->ok());
  env.Crash();
  EXPECT_EQ(Recover(env).size(), 2u);

  env.set_sync_error(true);
  ASSERT_TRUE(AppendLog::Open(&env, kPath, FsyncPolicy::kAlways, &log).ok());
  log->Add(0, a);
  EXPECT_FALSE(log->Commit().ok());
  EXPECT_EQ(ErrorDetail(log->error()), "Input/output error");
  env.set_sync_error(false);
  log->Tick(MonoMs() + 3000);
  EXPECT_TRUE(log->ok());
  env.Crash();
  EXPECT_EQ(Recover(env).size(), 3u);
}

}  // namespace
}  // namespace rankd
