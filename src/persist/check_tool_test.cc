// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/check_tool.h"

#include <cstdio>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "persist/append_log.h"
#include "persist/fault_env.h"
#include "persist/log_reader.h"
#include "persist/rdb_reader.h"
#include "persist/rdb_writer.h"

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

// A Redis RDB 10 holding `key` -> `v` in database 0 and 3, with its CRC64
// (or none: 8 zero bytes, as rdbchecksum no writes).
std::string RedisRdb(const Value& v, bool crc = true) {
  const std::string p = DumpPayload(v);
  std::string key;
  rdb::PutString(&key, "k");
  const std::string entry = p.substr(0, 1) + key + p.substr(1, p.size() - 11);
  std::string r = "REDIS0010" + std::string("\xfe\x00", 2) + entry + "\xfe\x03" + entry + "\xff";
  const uint64_t c = crc ? Crc64Redis(0, r) : 0;
  for (int i = 0; i < 8; i++) r.push_back(static_cast<char>(c >> (8 * i)));
  return r;
}

TEST(CheckToolTest, RedisRdbIsVerified) {
  FaultEnv env;
  auto z = std::make_unique<SortedSet>(SortedSetLimits{});
  for (int i = 0; i < 300; i++) z->Add("m" + std::to_string(i), i, AddOptions{}, {});
  const std::string good = RedisRdb(Value(std::move(z)));
  env.SetContents("d/dump.rdb", good);
  std::string report;
  EXPECT_EQ(RunTool(env, {"d/dump.rdb"}, &report), 0) << report;
  EXPECT_NE(report.find("version 0010"), std::string::npos) << report;
  EXPECT_NE(report.find("db3: 1 keys"), std::string::npos) << report;
  EXPECT_NE(report.find("2 keys, 0 function libraries, checksum verified"), std::string::npos)
      << report;

  std::string flipped = good;
  flipped[good.size() / 2] ^= 0x01;  // inside a member name: only the CRC sees it
  env.SetContents("d/dump.rdb", flipped);
  EXPECT_EQ(RunTool(env, {"d/dump.rdb"}, &report), 1);
  EXPECT_NE(report.find("CORRUPT: RDB: checksum mismatch"), std::string::npos) << report;

  env.SetContents("d/dump.rdb", good.substr(0, good.size() - 40));
  EXPECT_EQ(RunTool(env, {"d/dump.rdb"}, &report), 1);
  EXPECT_NE(report.find("CORRUPT"), std::string::npos) << report;

  env.SetContents("d/dump.rdb", RedisRdb(Value(std::string("v")), /*crc=*/false));
  EXPECT_EQ(RunTool(env, {"d/dump.rdb"}, &report), 0) << report;
  EXPECT_NE(report.find("checksum absent"), std::string::npos) << report;

  env.SetContents("d/dump.rdb", "REDIS0010\x07\x01k\xff");  // a module value
  EXPECT_EQ(RunTool(env, {"d/dump.rdb"}, &report), 1);
  EXPECT_NE(report.find("NOT LOADABLE"), std::string::npos) << report;
}

}  // namespace
}  // namespace rankd
