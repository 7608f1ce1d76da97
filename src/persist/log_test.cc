// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Log writer/reader round trips, and the torn-tail vs corruption rules of
// persist/log_reader.h on files damaged on purpose.

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "persist/coding.h"
#include "persist/command_codec.h"
#include "persist/fault_env.h"
#include "persist/log_reader.h"
#include "persist/log_writer.h"

namespace rankd {
namespace {

const std::string kPath = "dir/log";

std::string HeaderPayload() {
  std::string p(format::kLogMagic);
  coding::PutFixed32(&p, format::kLogVersion);
  return p;
}

// Writes a header and `payloads` as batch records; returns record offsets.
std::vector<uint64_t> WriteLog(FaultEnv& env, const std::vector<std::string>& payloads) {
  std::unique_ptr<WritableFile> f;
  EXPECT_TRUE(env.NewWritableFile(kPath, &f).ok());
  LogWriter w(std::move(f), 0, true);
  w.AddRecord(format::RecordType::kHeader, HeaderPayload());
  std::vector<uint64_t> offsets;
  EXPECT_TRUE(w.Flush(true).ok());
  for (const std::string& p : payloads) {
    offsets.push_back(w.written_size());
    w.AddRecord(format::RecordType::kBatch, p);
    EXPECT_TRUE(w.Flush(true).ok());
  }
  return offsets;
}

Status ReadAll(FaultEnv& env, std::vector<std::string>* out, LogFileInfo* info) {
  out->clear();
  return ReadLogFile(
      &env, kPath,
      [&](std::string_view p, uint64_t) {
        out->emplace_back(p);
        return Status::OK();
      },
      info);
}

std::vector<std::string> Payloads(int n) {
  std::vector<std::string> v;
  for (int i = 0; i < n; i++) v.push_back(std::string(10 + i * 37 % 300, static_cast<char>('a' + i % 26)));
  return v;
}

TEST(LogTest, RoundTrip) {
  FaultEnv env;
  auto payloads = Payloads(50);
  payloads.push_back(std::string(3 << 20, 'x'));  // bigger than a read chunk
  WriteLog(env, payloads);
  std::vector<std::string> got;
  LogFileInfo info;
  ASSERT_TRUE(ReadAll(env, &got, &info).ok());
  EXPECT_EQ(got, payloads);
  EXPECT_EQ(info.torn_bytes, 0u);
  EXPECT_EQ(info.valid_size, info.file_size);
  EXPECT_EQ(info.records, payloads.size());
}

TEST(LogTest, EveryTruncationOfTheLastRecordIsATornTail) {
  FaultEnv env;
  auto payloads = Payloads(5);
  auto offsets = WriteLog(env, payloads);
  const std::string whole = env.Contents(kPath);
  for (size_t cut = offsets.back() + 1; cut < whole.size(); cut++) {
    env.SetContents(kPath, whole.substr(0, cut));
    std::vector<std::string> got;
    LogFileInfo info;
    Status s = ReadAll(env, &got, &info);
    ASSERT_TRUE(s.ok()) << "cut " << cut << ": " << s.message();
    EXPECT_EQ(got.size(), 4u);
    EXPECT_EQ(info.valid_size, offsets.back());
    EXPECT_EQ(info.torn_bytes, cut - offsets.back());
  }
}

TEST(LogTest, GarbageOrZerosAtTheEndAreATornTail) {
  FaultEnv env;
  auto payloads = Payloads(5);
  WriteLog(env, payloads);
  const std::string whole = env.Contents(kPath);
  for (const std::string& tail : {std::string(4096, '\0'), std::string(100, '\x5a')}) {
    env.SetContents(kPath, whole + tail);
    std::vector<std::string> got;
    LogFileInfo info;
    ASSERT_TRUE(ReadAll(env, &got, &info).ok());
    EXPECT_EQ(got, payloads);
    EXPECT_EQ(info.torn_bytes, tail.size());
  }
}

// A full-length last record that fails is damage to a record written whole
// (and maybe acknowledged), not a torn write: refused, naming the offset.
TEST(LogTest, EveryFlippedByteInTheLastRecordIsCorruption) {
  FaultEnv env;
  auto payloads = Payloads(5);
  auto offsets = WriteLog(env, payloads);
  const std::string whole = env.Contents(kPath);
  for (size_t pos = offsets.back(); pos < whole.size(); pos++) {
    for (uint8_t mask : {0x01, 0x40, 0xff}) {
      std::string damaged = whole;
      damaged[pos] = static_cast<char>(damaged[pos] ^ mask);
      env.SetContents(kPath, damaged);
      std::vector<std::string> got;
      LogFileInfo info;
      Status s = ReadAll(env, &got, &info);
      ASSERT_EQ(s.code(), Status::Code::kCorruption) << "byte " << pos << " mask " << int(mask);
      EXPECT_NE(s.message().find("offset " + std::to_string(offsets.back())), std::string::npos)
          << s.message();
      EXPECT_EQ(got.size(), 4u);
      EXPECT_EQ(info.valid_size, offsets.back());
    }
  }
}

// Blocks that were never written read back as zeros: a last record whose
// final sector is zeros (or that is zeros entirely) is a torn tail.
TEST(LogTest, ZeroFillOverTheLastRecordIsATornTail) {
  FaultEnv env;
  auto payloads = Payloads(5);
  payloads.push_back(std::string(3000, 'z'));
  auto offsets = WriteLog(env, payloads);
  const std::string whole = env.Contents(kPath);
  const size_t last_sector = (whole.size() - 1) / 512 * 512;
  ASSERT_GT(last_sector, offsets.back());
  for (size_t from : {last_sector, last_sector - 512, static_cast<size_t>(offsets.back())}) {
    std::string damaged = whole;
    std::fill(damaged.begin() + from, damaged.end(), '\0');
    env.SetContents(kPath, damaged);
    std::vector<std::string> got;
    LogFileInfo info;
    ASSERT_TRUE(ReadAll(env, &got, &info).ok()) << from;
    EXPECT_EQ(got.size(), 5u);
    EXPECT_EQ(info.torn_bytes, whole.size() - offsets.back());
  }
  // Zeros only over the last few bytes (not a whole sector): damage.
  std::string damaged = whole;
  std::fill(damaged.end() - 2, damaged.end(), '\0');
  env.SetContents(kPath, damaged);
  std::vector<std::string> got;
  LogFileInfo info;
  EXPECT_EQ(ReadAll(env, &got, &info).code(), Status::Code::kCorruption);
}

TEST(LogTest, DamageBeforeTheTailIsCorruptionNamingTheOffset) {
  FaultEnv env;
  auto payloads = Payloads(5);
  auto offsets = WriteLog(env, payloads);
  const std::string whole = env.Contents(kPath);
  // Flip one byte in each part of record 2: crc, length, type, payload.
  for (uint64_t pos : {offsets[2], offsets[2] + 4, offsets[2] + 8, offsets[2] + 12}) {
    std::string damaged = whole;
    damaged[pos] ^= 0x40;
    env.SetContents(kPath, damaged);
    std::vector<std::string> got;
    LogFileInfo info;
    Status s = ReadAll(env, &got, &info);
    ASSERT_EQ(s.code(), Status::Code::kCorruption) << "byte " << pos;
    EXPECT_NE(s.message().find("dir/log"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("offset " + std::to_string(offsets[2])), std::string::npos)
        << s.message();
    EXPECT_EQ(got.size(), 2u);
  }
}

TEST(LogTest, FileWithoutHeaderIsRejected) {
  FaultEnv env;
  std::string data;
  EncodeRecord(&data, format::RecordType::kBatch, "x");
  env.SetContents(kPath, data);
  std::vector<std::string> got;
  LogFileInfo info;
  EXPECT_EQ(ReadAll(env, &got, &info).code(), Status::Code::kCorruption);
  // An empty file (a crash right after creating it) is an empty log.
  env.SetContents(kPath, "");
  EXPECT_TRUE(ReadAll(env, &got, &info).ok());
  EXPECT_TRUE(got.empty());
}

TEST(CommandCodecTest, RoundTripsBinaryArguments) {
  std::string batch;
  std::vector<std::string_view> a = {"ZADD", "lb", "1.5", std::string_view("m\0\r\n", 4)};
  std::vector<std::string_view> b = {"DEL", ""};
  AppendCommand(&batch, 0, a);
  AppendCommand(&batch, 15, b);
  BatchReader r(batch);
  int db;
  std::vector<std::string_view> args;
  ASSERT_TRUE(r.Next(&db, &args));
  EXPECT_EQ(db, 0);
  EXPECT_EQ(args, a);
  ASSERT_TRUE(r.Next(&db, &args));
  EXPECT_EQ(db, 15);
  EXPECT_EQ(args, b);
  EXPECT_FALSE(r.Next(&db, &args));
  EXPECT_EQ(r.error(), "");
  // Any truncation is an error, never a silently shorter command.
  for (size_t cut = 1; cut < batch.size(); cut++) {
    BatchReader t(std::string_view(batch).substr(0, cut));
    int n = 0;
    while (t.Next(&db, &args)) n++;
    EXPECT_TRUE((n < 2 && !t.error().empty()) || (n == 1 && t.error().empty())) << cut;
  }
}

}  // namespace
}  // namespace rankd
