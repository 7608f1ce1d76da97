// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/repl_backlog.h"

#include <string>

#include "gtest/gtest.h"

namespace rankd {
namespace {

TEST(ReplBacklogTest, HoldsTheStreamByOffset) {
  ReplBacklog b(ReplBacklog::kMinSize, 1);
  EXPECT_EQ(b.histlen(), 0);
  EXPECT_TRUE(b.Covers(1));
  EXPECT_FALSE(b.Covers(2));
  b.Append("hello");
  b.Append(" world");
  EXPECT_EQ(b.first_offset(), 1u);
  EXPECT_EQ(b.next_offset(), 12u);
  EXPECT_EQ(b.CopyFrom(1), "hello world");
  EXPECT_EQ(b.CopyFrom(7), "world");
  EXPECT_EQ(b.CopyFrom(12), "");
  EXPECT_FALSE(b.Covers(13));
}

TEST(ReplBacklogTest, WrapsAroundAndDropsTheOldest) {
  ReplBacklog b(1, 100);  // raised to the minimum size
  EXPECT_EQ(b.size(), ReplBacklog::kMinSize);
  std::string all;
  for (int i = 0; i < 5000; i++) {
    std::string piece = "piece" + std::to_string(i) + ";";
    all += piece;
    b.Append(piece);
  }
  EXPECT_EQ(b.histlen(), ReplBacklog::kMinSize);
  EXPECT_EQ(b.next_offset(), 100 + all.size());
  EXPECT_FALSE(b.Covers(b.first_offset() - 1));
  EXPECT_EQ(b.CopyFrom(b.first_offset()), all.substr(all.size() - ReplBacklog::kMinSize));
  EXPECT_EQ(b.CopyFrom(b.next_offset() - 10), all.substr(all.size() - 10));
}

TEST(ReplBacklogTest, OneAppendLargerThanTheBuffer) {
  ReplBacklog b(ReplBacklog::kMinSize, 1);
  std::string big(ReplBacklog::kMinSize * 2 + 7, 'x');
  big.back() = 'y';
  b.Append(big);
  EXPECT_EQ(b.histlen(), ReplBacklog::kMinSize);
  EXPECT_EQ(b.CopyFrom(b.next_offset() - 1), "y");
}

TEST(ReplBacklogTest, ResizeKeepsTheNewestBytes) {
  ReplBacklog b(ReplBacklog::kMinSize * 2, 1);
  std::string all;
  for (int i = 0; i < 4000; i++) all += "x" + std::to_string(i);
  b.Append(all);
  b.Resize(ReplBacklog::kMinSize);
  EXPECT_EQ(b.histlen(), ReplBacklog::kMinSize);
  EXPECT_EQ(b.CopyFrom(b.first_offset()), all.substr(all.size() - ReplBacklog::kMinSize));
  b.Resize(ReplBacklog::kMinSize * 4);
  b.Append("tail");
  EXPECT_EQ(b.CopyFrom(b.next_offset() - 8), all.substr(all.size() - 4) + "tail");
  b.Reset(50);
  EXPECT_EQ(b.histlen(), 0);
  EXPECT_EQ(b.first_offset(), 50u);
}

}  // namespace
}  // namespace rankd
