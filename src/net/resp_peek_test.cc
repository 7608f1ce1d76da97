// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/resp_peek.h"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "net/resp_parser.h"

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

TEST(RespPeek, RejectsLeadingZeros) {
  PeekedCommand c;
  EXPECT_FALSE(PeekCommand("*01\r\n$4\r\nPING\r\n", 0, &c));
  EXPECT_FALSE(PeekCommand("*1\r\n$04\r\nPING\r\n", 0, &c));
  EXPECT_FALSE(PeekCommand("*1\r\n$00\r\n\r\n", 0, &c));
  ASSERT_TRUE(PeekCommand("*1\r\n$0\r\n\r\n", 0, &c));
  EXPECT_EQ(c.args[0], "");
  EXPECT_EQ(c.size, c.end);
}

// One random command, mostly canonical, sometimes not (leading zeros,
// signs, a wrong type byte, long bulks, many arguments).
std::string RandomCommand(std::mt19937_64& rng) {
  auto count = [&](size_t v) {
    std::string s = std::to_string(v);
    switch (rng() % 40) {
      case 0: return "0" + s;
      case 1: return "+" + s;
      case 2: return " " + s;
      default: return s;
    }
  };
  const size_t argc = rng() % 30 == 0 ? 9 + rng() % 20 : 1 + rng() % 5;
  std::string cmd = (rng() % 60 == 0 ? "$" : "*") + count(argc) + "\r\n";
  for (size_t i = 0; i < argc; i++) {
    const size_t len = rng() % 50 == 0 ? 2000 + rng() % 70000 : rng() % 12;
    cmd += (rng() % 200 == 0 ? ":" : "$") + count(len) + "\r\n";
    for (size_t k = 0; k < len; k++) cmd += static_cast<char>('a' + rng() % 26);
    cmd += "\r\n";
  }
  return cmd;
}

// What the pipeline look-ahead relies on: a command PeekCommand reads is
// read by RespParser::TakePeeked exactly as Parse reads it (same arguments,
// same end), under every limit, or TakePeeked declines.
TEST(RespPeek, TakePeekedMatchesParse) {
  std::mt19937_64 rng(16);
  int taken = 0;
  for (int round = 0; round < 3000; round++) {
    std::string buf;
    for (int i = 0; i < 4; i++) buf += RandomCommand(rng);
    RespParser::Limits limits;
    if (rng() % 4 == 0) limits.unauthenticated = true;
    if (rng() % 4 == 0) limits.max_bulk_len = static_cast<int64_t>(rng() % 100000);
    if (rng() % 8 == 0) limits.max_multibulk_len = static_cast<int64_t>(rng() % 20);
    RespParser parse_all, take_peeked;
    size_t pos_a = 0, pos_b = 0;
    std::vector<std::string_view> args_a, args_b;
    for (int i = 0; i < 4; i++) {
      const RespParser::Result ra = parse_all.Parse(buf, &pos_a, &args_a, limits);
      PeekedCommand p;
      const bool peeked = PeekCommand(buf, pos_b, &p);
      if (peeked && take_peeked.TakePeeked(p, limits, &pos_b)) {
        args_b.assign(p.args, p.args + p.argc);
        taken++;
        ASSERT_EQ(ra, RespParser::Result::kCommand) << buf;
      } else {
        const RespParser::Result rb = take_peeked.Parse(buf, &pos_b, &args_b, limits);
        ASSERT_EQ(ra, rb) << buf;
      }
      ASSERT_EQ(pos_a, pos_b) << buf;
      ASSERT_EQ(args_a, args_b) << buf;
      if (ra != RespParser::Result::kCommand) break;
    }
  }
  EXPECT_GT(taken, 3000);  // the common case is taken
}

}  // namespace
}  // namespace rankd

namespace rankd {
namespace {

// The one count reader of PeekCommand and the parser's one-pass path.
TEST(ReadCanonicalCountTest, AcceptsOnlyCanonicalCountsWithinMaxAndMovesPastTheLine) {
  auto read = [](std::string_view s, uint64_t max) -> std::optional<std::pair<uint64_t, size_t>> {
    const char* p = s.data();
    uint64_t v = 0;
    if (!ReadCanonicalCount(&p, s.data() + s.size(), max, &v)) return std::nullopt;
    return std::make_pair(v, static_cast<size_t>(p - s.data()));
  };
  EXPECT_EQ(read("0\r\nx", 10), std::make_pair(uint64_t{0}, size_t{3}));
  EXPECT_EQ(read("10\r\n", 10), std::make_pair(uint64_t{10}, size_t{4}));
  EXPECT_EQ(read("11\r\n", 10), std::nullopt);  // over max
  EXPECT_EQ(read("01\r\n", 10), std::nullopt);  // leading zero
  EXPECT_EQ(read("+1\r\n", 10), std::nullopt);
  EXPECT_EQ(read("-1\r\n", 10), std::nullopt);
  EXPECT_EQ(read("1\r", 10), std::nullopt);  // partial line
  EXPECT_EQ(read("1\n", 10), std::nullopt);
  EXPECT_EQ(read("", 10), std::nullopt);
  EXPECT_EQ(read(std::string(18, '9') + "\r\n", UINT64_MAX),
            std::make_pair(uint64_t{999999999999999999}, size_t{20}));
  EXPECT_EQ(read("1" + std::string(18, '0') + "\r\n", UINT64_MAX), std::nullopt);  // 19 digits
}

}  // namespace
}  // namespace rankd
