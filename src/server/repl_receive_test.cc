// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/repl_receive.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace rankd {
namespace {

std::string TempPath() {
  return ::testing::TempDir() + "repl_receive_test." + std::to_string(getpid());
}

std::string ReadAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool Exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

// Feeds `wire` (the bytes after the header line) in pieces of `piece`
// bytes; returns the bytes it left over (the stream after the snapshot).
std::string FeedInPieces(SnapshotReceiver* r, const std::string& wire, size_t piece,
                         SnapshotReceiver::Result* last) {
  size_t at = 0;
  *last = SnapshotReceiver::Result::kMore;
  while (at < wire.size() && *last == SnapshotReceiver::Result::kMore) {
    const size_t n = std::min(piece, wire.size() - at);
    size_t used = 0;
    std::string err;
    *last = r->Feed(std::string_view(wire).substr(at, n), &used, &err);
    EXPECT_LE(used, n);
    at += used;
    if (*last == SnapshotReceiver::Result::kMore) EXPECT_EQ(used, n);
  }
  return wire.substr(at);
}

const std::string kMark(40, 'x');

TEST(SnapshotReceiverTest, LengthFramingInAnyPieces) {
  const std::string payload = "REDIS0011" + std::string(300, 'p') + "end";
  const std::string wire = payload + "*1\r\n$4\r\nPING\r\n";
  for (size_t piece : {wire.size(), size_t{100}, size_t{7}, size_t{1}}) {
    SnapshotReceiver r;
    std::string err;
    const std::string path = TempPath();
    ASSERT_TRUE(r.Start("$" + std::to_string(payload.size()), path, &err)) << err;
    SnapshotReceiver::Result last;
    EXPECT_EQ(FeedInPieces(&r, wire, piece, &last), "*1\r\n$4\r\nPING\r\n");
    EXPECT_EQ(last, SnapshotReceiver::Result::kDone);
    EXPECT_FALSE(r.active());
    EXPECT_EQ(ReadAll(path), payload);
    EXPECT_EQ(r.bytes_written(), payload.size());
    unlink(path.c_str());
  }
}

TEST(SnapshotReceiverTest, MarkFramingFindsAMarkSplitAcrossPieces) {
  // The payload holds the mark's first 39 bytes: only the whole mark ends it.
  const std::string payload = "RANKD" + std::string(39, 'x') + "y" + std::string(200, 'q');
  const std::string wire = payload + kMark + "+PING\r\n";
  for (size_t piece : {wire.size(), size_t{100}, size_t{41}, size_t{40}, size_t{39}, size_t{7},
                       size_t{3}, size_t{1}}) {
    SnapshotReceiver r;
    std::string err;
    const std::string path = TempPath();
    ASSERT_TRUE(r.Start("$EOF:" + kMark, path, &err)) << err;
    SnapshotReceiver::Result last;
    EXPECT_EQ(FeedInPieces(&r, wire, piece, &last), "+PING\r\n") << "piece " << piece;
    EXPECT_EQ(last, SnapshotReceiver::Result::kDone);
    EXPECT_EQ(ReadAll(path), payload) << "piece " << piece;
    unlink(path.c_str());
  }
}

TEST(SnapshotReceiverTest, EmptyPayloads) {
  for (const std::string header : {std::string("$0"), "$EOF:" + kMark}) {
    SnapshotReceiver r;
    std::string err;
    const std::string path = TempPath();
    ASSERT_TRUE(r.Start(header, path, &err));
    size_t used = 0;
    const std::string wire = header == "$0" ? "rest" : kMark + "rest";
    const auto res = r.Feed(wire, &used, &err);
    EXPECT_EQ(res, SnapshotReceiver::Result::kDone);
    EXPECT_EQ(wire.substr(used), "rest");
    EXPECT_EQ(ReadAll(path), "");
    unlink(path.c_str());
  }
}

TEST(SnapshotReceiverTest, BadHeadersAreRefused) {
  for (const char* header : {"", "+OK", "$-1", "$abc", "$EOF:short", "-ERR no"}) {
    SnapshotReceiver r;
    std::string err;
    const std::string path = TempPath();
    EXPECT_FALSE(r.Start(header, path, &err)) << header;
    EXPECT_NE(err.find("Bad protocol from MASTER"), std::string::npos) << err;
    EXPECT_FALSE(r.active());
    EXPECT_FALSE(Exists(path));
  }
}

TEST(SnapshotReceiverTest, AbortRemovesTheUnfinishedFile) {
  SnapshotReceiver r;
  std::string err;
  const std::string path = TempPath();
  ASSERT_TRUE(r.Start("$100", path, &err));
  size_t used = 0;
  EXPECT_EQ(r.Feed("half", &used, &err), SnapshotReceiver::Result::kMore);
  EXPECT_TRUE(Exists(path));
  r.Abort();
  EXPECT_FALSE(r.active());
  EXPECT_FALSE(Exists(path));
  EXPECT_EQ(r.Feed("more", &used, &err), SnapshotReceiver::Result::kError);
}

TEST(SnapshotReceiverTest, UnwritableFolderIsAnError) {
  SnapshotReceiver r;
  std::string err;
  EXPECT_FALSE(r.Start("$10", "/nonexistent-folder/x.snap", &err));
  EXPECT_NE(err.find("temp file"), std::string::npos) << err;
}

}  // namespace
}  // namespace rankd
