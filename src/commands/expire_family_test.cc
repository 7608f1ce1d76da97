// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Expiry commands through the real dispatcher. Expected replies and error
// texts were taken from redis-server 7.0.15.

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "commands/test_util.h"

namespace rankd {
namespace {

class ExpireFamilyTest : public CommandTest {};

TEST_F(ExpireFamilyTest, ExpireAndTtl) {
  EXPECT_EQ(Run({"TTL", "nokey"}), RespInt(-2));
  EXPECT_EQ(Run({"PTTL", "nokey"}), RespInt(-2));
  EXPECT_EQ(Run({"EXPIRE", "nokey", "10"}), RespInt(0));
  Run({"SET", "k", "v"});
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(-1));
  EXPECT_EQ(Run({"EXPIRETIME", "k"}), RespInt(-1));
  EXPECT_EQ(Run({"EXPIRE", "k", "100"}), RespInt(1));
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(100));
  std::string pttl = Run({"PTTL", "k"});
  int64_t ms = std::stoll(pttl.substr(1));
  EXPECT_GT(ms, 99000);
  EXPECT_LE(ms, 100000);
  EXPECT_EQ(Run({"PEXPIRE", "k", "5000"}), RespInt(1));
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(5));
  const int64_t at = WallMs() / 1000 + 1000;
  EXPECT_EQ(Run({"EXPIREAT", "k", std::to_string(at)}), RespInt(1));
  EXPECT_EQ(Run({"EXPIRETIME", "k"}), RespInt(at));
  EXPECT_EQ(Run({"PEXPIRETIME", "k"}), RespInt(at * 1000));
  EXPECT_EQ(Run({"PEXPIREAT", "k", std::to_string(at * 1000 + 1)}), RespInt(1));
  EXPECT_EQ(Run({"PEXPIRETIME", "k"}), RespInt(at * 1000 + 1));
  EXPECT_EQ(Run({"PERSIST", "k"}), RespInt(1));
  EXPECT_EQ(Run({"PERSIST", "k"}), RespInt(0));
  EXPECT_EQ(Run({"PERSIST", "nokey"}), RespInt(0));
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(-1));
}

// Found by the command fuzzer under UBSan: (t + 500) overflowed at INT64_MAX.
// Redis 7.0 answers 9223372036854776 (seconds rounded to nearest).
TEST_F(ExpireFamilyTest, ExpireTimeAtTheLargestDeadline) {
  Run({"SET", "k", "v"});
  EXPECT_EQ(Run({"PEXPIREAT", "k", "9223372036854775807"}), RespInt(1));
  EXPECT_EQ(Run({"EXPIRETIME", "k"}), RespInt(9223372036854776));
  EXPECT_EQ(Run({"PEXPIRETIME", "k"}), RespInt(INT64_MAX));
  EXPECT_EQ(Run({"PEXPIREAT", "k", "9223372036854775499"}), RespInt(1));
  EXPECT_EQ(Run({"EXPIRETIME", "k"}), RespInt(9223372036854775));
}

TEST_F(ExpireFamilyTest, PastDeadlineDeletes) {
  Run({"SET", "k", "v"});
  EXPECT_EQ(Run({"EXPIRE", "k", "-1"}), RespInt(1));
  EXPECT_EQ(Run({"EXISTS", "k"}), RespInt(0));
  Run({"SET", "k", "v"});
  EXPECT_EQ(Run({"EXPIREAT", "k", "1"}), RespInt(1));
  EXPECT_EQ(Run({"EXISTS", "k"}), RespInt(0));
  Run({"SET", "k", "v"});
  EXPECT_EQ(Run({"PEXPIRE", "k", "0"}), RespInt(1));
  EXPECT_EQ(Run({"DBSIZE"}), RespInt(0));
}

TEST_F(ExpireFamilyTest, ExpiredKeyIsInvisible) {
  Run({"SET", "k", "v", "PX", "1"});
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(Run({"GET", "k"}), RespNull());
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(-2));
  EXPECT_EQ(Run({"EXPIRE", "k", "10"}), RespInt(0));
}

TEST_F(ExpireFamilyTest, Options) {
  Run({"SET", "k", "v"});
  EXPECT_EQ(Run({"EXPIRE", "k", "100", "XX"}), RespInt(0));
  EXPECT_EQ(Run({"EXPIRE", "k", "100", "GT"}), RespInt(0));  // none counts as infinite
  EXPECT_EQ(Run({"EXPIRE", "k", "100", "LT"}), RespInt(1));
  EXPECT_EQ(Run({"EXPIRE", "k", "50", "NX"}), RespInt(0));
  EXPECT_EQ(Run({"EXPIRE", "k", "200", "LT"}), RespInt(0));
  EXPECT_EQ(Run({"EXPIRE", "k", "200", "gt"}), RespInt(1));
  EXPECT_EQ(Run({"EXPIRE", "k", "150", "GT"}), RespInt(0));
  EXPECT_EQ(Run({"EXPIRE", "k", "300", "XX", "GT"}), RespInt(1));
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(300));
  Run({"PERSIST", "k"});
  EXPECT_EQ(Run({"EXPIRE", "k", "50", "NX"}), RespInt(1));
}

TEST_F(ExpireFamilyTest, Errors) {
  Run({"SET", "k", "v"});
  EXPECT_EQ(Run({"EXPIRE", "k", "10", "foo"}), RespErr("ERR Unsupported option foo"));
  EXPECT_EQ(Run({"EXPIRE", "k", "abc", "foo"}), RespErr("ERR Unsupported option foo"));
  EXPECT_EQ(Run({"EXPIRE", "k", "abc", "nx"}),
            RespErr("ERR value is not an integer or out of range"));
  const std::string nx = RespErr("ERR NX and XX, GT or LT options at the same time are not compatible");
  EXPECT_EQ(Run({"EXPIRE", "k", "10", "NX", "XX"}), nx);
  EXPECT_EQ(Run({"EXPIRE", "k", "10", "NX", "GT"}), nx);
  EXPECT_EQ(Run({"EXPIRE", "k", "10", "LT", "NX"}), nx);
  EXPECT_EQ(Run({"EXPIRE", "k", "10", "GT", "LT"}),
            RespErr("ERR GT and LT options at the same time are not compatible"));
  EXPECT_EQ(Run({"EXPIRE", "k", "9223372036854775807"}),
            RespErr("ERR invalid expire time in 'expire' command"));
  EXPECT_EQ(Run({"EXPIRE", "k", "-9223372036854775808"}),
            RespErr("ERR invalid expire time in 'expire' command"));
  EXPECT_EQ(Run({"PEXPIRE", "k", "9223372036854775807"}),
            RespErr("ERR invalid expire time in 'pexpire' command"));
  EXPECT_EQ(Run({"EXPIREAT", "k", "9223372036854775"}), RespInt(1));
  EXPECT_EQ(Run({"PEXPIREAT", "k", "9223372036854775807"}), RespInt(1));
  EXPECT_EQ(Run({"PEXPIRETIME", "k"}), RespInt(9223372036854775807));
  EXPECT_EQ(Run({"EXPIRE", "k"}), RespErr("ERR wrong number of arguments for 'expire' command"));
}

TEST_F(ExpireFamilyTest, ChangesTouchWatchers) {
  Run({"SET", "k", "v"});
  Watcher w;
  db().Watch("k", &w);
  Run({"EXPIRE", "k", "10", "XX"});
  Run({"TTL", "k"});
  EXPECT_FALSE(w.dirty);
  Run({"EXPIRE", "k", "10"});
  EXPECT_TRUE(w.dirty);
  w.dirty = false;
  Run({"PERSIST", "k"});
  EXPECT_TRUE(w.dirty);
  w.dirty = false;
  Run({"EXPIRE", "k", "0"});
  EXPECT_TRUE(w.dirty);
  db().Unwatch("k", &w);
}

class RecordingLog : public EffectLog {
 public:
  void Append(int db, std::span<const std::string_view> args) override {
    std::string line;
    for (std::string_view a : args) line += std::string(a) + " ";
    lines.push_back(line);
  }
  std::vector<std::string> lines;
};

TEST_F(ExpireFamilyTest, EffectsAreAbsolute) {
  Run({"SET", "k", "v"});
  RecordingLog log;
  server().set_effect_log(&log);
  Run({"EXPIRE", "k", "100"});
  Run({"EXPIRE", "k", "100", "NX"});  // refused: not logged
  Run({"PERSIST", "k"});
  Run({"EXPIRE", "k", "-1"});
  server().set_effect_log(nullptr);
  ASSERT_EQ(log.lines.size(), 3u);
  EXPECT_TRUE(log.lines[0].starts_with("PEXPIREAT k ")) << log.lines[0];
  EXPECT_EQ(log.lines[1], "PERSIST k ");
  EXPECT_EQ(log.lines[2], "DEL k ");
}

}  // namespace
}  // namespace rankd
