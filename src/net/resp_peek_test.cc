// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/resp_peek.h"

#include <string>

#include "gtest/gtest.h"

namespace rankd {
namespace {

TEST(RespPeek, ReadsConsecutiveCommands) {
  const std::string buf =
      "*3\r\n$6\r\nZSCORE\r\n$2\r\nlb\r\n$3\r\nm:1\r\n*1\r\n$4\r\nPING\r\n*2\r\n$3\r\nGET";
  PeekedCommand c;
  ASSERT_TRUE(PeekCommand(buf, 0, &c));
  EXPECT_EQ(c.argc, 3u);
  EXPECT_EQ(c.args[0], "ZSCORE");
  EXPECT_EQ(c.args[1], "lb");
  EXPECT_EQ(c.args[2], "m:1");
  ASSERT_TRUE(PeekCommand(buf, c.end, &c));
  EXPECT_EQ(c.argc, 1u);
  EXPECT_EQ(c.args[0], "PING");
  EXPECT_FALSE(PeekCommand(buf, c.end, &c));  // incomplete
}

TEST(RespPeek, KeepsTheFirstArgsOfLongCommands) {
  std::string buf = "*10\r\n";
  for (int i = 0; i < 10; i++) buf += "$1\r\n" + std::to_string(i) + "\r\n";
  PeekedCommand c;
  ASSERT_TRUE(PeekCommand(buf, 0, &c));
  EXPECT_EQ(c.argc, 10u);
  EXPECT_EQ(c.args[7], "7");
  EXPECT_EQ(c.end, buf.size());
}

TEST(RespPeek, GivesUpOnAnythingElse) {
  PeekedCommand c;
  for (const char* s : {"", "PING\r\n", "*0\r\n", "*-1\r\n", "*1\r\n", "*1\r\n$4\r\nPIN",
                        "*1\r\n$4\r\nPING\r", "*1\r\n:4\r\nPING\r\n", "*1\r\n$x\r\n",
                        "*99999\r\n", "*1\r\n$999999\r\n", "*1\r\n$4"}) {
    EXPECT_FALSE(PeekCommand(s, 0, &c)) << s;
  }
}

}  // namespace
}  // namespace rankd
