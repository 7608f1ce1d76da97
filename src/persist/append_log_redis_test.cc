// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// AppendLog writing a Redis AOF (persist/append_log.h, redis_format): the
// exact bytes, checked against what redis-server 7.0 writes for the same
// commands (SELECT before MULTI, MULTI/EXEC only around several commands).

#include <memory>
#include <string>
#include <string_view>

#include "gtest/gtest.h"
#include "persist/append_log.h"
#include "persist/fault_env.h"

namespace rankd {
namespace {

std::string Resp(std::initializer_list<std::string_view> args) {
  std::string out = "*" + std::to_string(args.size()) + "\r\n";
  for (std::string_view a : args) {
    out += "$" + std::to_string(a.size()) + "\r\n" + std::string(a) + "\r\n";
  }
  return out;
}

std::unique_ptr<AppendLog> OpenRedisLog(FaultEnv& env) {
  std::unique_ptr<AppendLog> log;
  EXPECT_TRUE(AppendLog::Open(&env, "a.1.incr.aof", FsyncPolicy::kNo, &log, true).ok());
  return log;
}

TEST(AppendLogRedisTest, OneCommandAloneSeveralInMultiAfterTheirSelect) {
  FaultEnv env;
  auto log = OpenRedisLog(env);
  const std::string_view set[] = {"SET", "k", "v"};
  log->Add(9, set);
  ASSERT_TRUE(log->Commit().ok());
  const std::string_view flush[] = {"FLUSHALL"};
  log->Add(9, set);
  log->Add(9, flush);
  ASSERT_TRUE(log->Commit().ok());
  const std::string_view del[] = {"DEL", "k"};
  log->Add(3, del);
  log->Add(3, del);
  ASSERT_TRUE(log->Commit().ok());
  EXPECT_EQ(env.Contents("a.1.incr.aof"),
            Resp({"SELECT", "9"}) + Resp({"SET", "k", "v"}) +                      //
                Resp({"MULTI"}) + Resp({"SET", "k", "v"}) + Resp({"FLUSHALL"}) +   //
                Resp({"EXEC"}) +                                                   //
                Resp({"SELECT", "3"}) + Resp({"MULTI"}) + Resp({"DEL", "k"}) +     //
                Resp({"DEL", "k"}) + Resp({"EXEC"}));
  EXPECT_EQ(log->size(), env.Contents("a.1.incr.aof").size());
}

TEST(AppendLogRedisTest, APrefixCommitLeavesTheRestWithItsSelect) {
  FaultEnv env;
  auto log = OpenRedisLog(env);
  const std::string_view a[] = {"INCR", "a"}, b[] = {"INCR", "b"};
  log->Add(0, a);
  log->Add(0, a);
  const size_t mark = log->batch_bytes();
  log->Add(1, b);  // a script still running, in another database
  log->Add(1, b);
  ASSERT_TRUE(log->Commit(mark).ok());
  const std::string first = Resp({"SELECT", "0"}) + Resp({"MULTI"}) + Resp({"INCR", "a"}) +
                            Resp({"INCR", "a"}) + Resp({"EXEC"});
  EXPECT_EQ(env.Contents("a.1.incr.aof"), first);
  ASSERT_TRUE(log->Commit().ok());
  EXPECT_EQ(env.Contents("a.1.incr.aof"), first + Resp({"SELECT", "1"}) + Resp({"MULTI"}) +
                                              Resp({"INCR", "b"}) + Resp({"INCR", "b"}) +
                                              Resp({"EXEC"}));
}

}  // namespace
}  // namespace rankd
