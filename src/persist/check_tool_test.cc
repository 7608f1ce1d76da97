// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/check_tool.h"

#include <cstdio>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "persist/append_log.h"
#include "persist/fault_env.h"
#include "persist/log_reader.h"

namespace rankd {
namespace {

// Runs the tool; returns its exit status and sets *report.
int RunTool(FaultEnv& env, std::vector<std::string> args, std::string* report) {
  std::vector<char*> argv;
  args.insert(args.begin(), "--check-aof");
  for (std::string& a : args) argv.push_back(a.data());
  char* buf = nullptr;
  size_t len = 0;
  FILE* out = open_memstream(&buf, &len);
  int rc = RunCheckTool(&env, static_cast<int>(argv.size()), argv.data(), out);
  fclose(out);
  report->assign(buf, len);
  free(buf);
  return rc;
}

std::string MakeLog(FaultEnv& env, int batches) {
  std::unique_ptr<AppendLog> log;
  EXPECT_TRUE(AppendLog::Open(&env, "d/log", FsyncPolicy::kAlways, &log).ok());
  for (int i = 0; i < batches; i++) {
    std::string v = std::to_string(i);
    std::string_view args[] = {"ZADD", "lb", v, "m"};
    log->Add(0, args);
    EXPECT_TRUE(log->Commit().ok());
  }
  return env.Contents("d/log");
}

TEST(CheckToolTest, CleanLogPasses) {
  FaultEnv env;
  MakeLog(env, 3);
  std::string report;
  EXPECT_EQ(RunTool(env, {"d/log"}, &report), 0) << report;
  EXPECT_NE(report.find("3 batches, 3 commands"), std::string::npos) << report;
  EXPECT_NE(report.find("log OK"), std::string::npos);
}

TEST(CheckToolTest, TornTailIsReportedAndFixed) {
  FaultEnv env;
  std::string whole = MakeLog(env, 3);
  env.SetContents("d/log", whole.substr(0, whole.size() - 4));
  std::string report;
  EXPECT_EQ(RunTool(env, {"d/log"}, &report), 1);
  EXPECT_NE(report.find("torn tail"), std::string::npos) << report;
  EXPECT_EQ(RunTool(env, {"--fix", "d/log"}, &report), 0) << report;
  EXPECT_EQ(RunTool(env, {"d/log"}, &report), 0) << report;
  EXPECT_NE(report.find("2 batches"), std::string::npos) << report;
}

TEST(CheckToolTest, CorruptionNamesTheOffsetAndFixDropsTheRest) {
  FaultEnv env;
  std::string whole = MakeLog(env, 5);
  LogFileInfo info;
  std::vector<uint64_t> offsets;
  ASSERT_TRUE(ReadLogFile(&env, "d/log", [&](std::string_view, uint64_t off) {
                offsets.push_back(off);
                return Status::OK();
              }, &info).ok());
  std::string bad = whole;
  bad[offsets[1] + 12] ^= 0x10;
  env.SetContents("d/log", bad);
  std::string report;
  EXPECT_EQ(RunTool(env, {"d/log"}, &report), 1);
  EXPECT_NE(report.find("CORRUPT"), std::string::npos) << report;
  EXPECT_NE(report.find("offset " + std::to_string(offsets[1])), std::string::npos) << report;
  EXPECT_EQ(RunTool(env, {"--fix", "d/log"}, &report), 0) << report;
  EXPECT_NE(report.find("including every record after the damage"), std::string::npos);
  EXPECT_EQ(env.Contents("d/log").size(), offsets[1]);
}

TEST(CheckToolTest, ForeignFileIsNeverTruncated) {
  FaultEnv env;
  env.SetContents("d/x", std::string(100, 'q'));
  std::string report;
  EXPECT_EQ(RunTool(env, {"--fix", "d/x"}, &report), 1);
  EXPECT_EQ(env.Contents("d/x").size(), 100u);
}

}  // namespace
}  // namespace rankd
