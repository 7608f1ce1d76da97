// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Every input is parsed whole and split into fragments of 1000, 100, 10, 5, 2
// and 1 bytes (Seastar style); all splits must give the same commands and
// error. Error texts were checked against redis-server 7.0.15.

#include "net/resp_parser.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace rankd {
namespace {

using Command = std::vector<std::string>;

struct Outcome {
  std::vector<Command> commands;
  std::string error;    // empty: no error
  size_t leftover = 0;  // unconsumed bytes at the end
  bool operator==(const Outcome&) const = default;
};

// Feeds `input` in `frag`-byte pieces as a connection would: appending to a
// buffer that is compacted now and then (moving the pending bytes).
Outcome ParseInPieces(std::string_view input, size_t frag, const RespParser::Limits& limits) {
  RespParser parser;
  Outcome out;
  std::string buf;
  size_t pos = 0;
  std::vector<std::string_view> args;
  for (size_t off = 0; off < input.size();) {
    const size_t n = std::min(frag, input.size() - off);
    if (pos > 0 && pos * 2 >= buf.size()) {
      buf = buf.substr(pos);  // a fresh allocation: stale views would show under ASan
      pos = 0;
    }
    buf.append(input.substr(off, n));
    off += n;
    for (;;) {
      RespParser::Result r = parser.Parse(buf, &pos, &args, limits);
      if (r == RespParser::Result::kError) {
        out.error = parser.error();
        return out;
      }
      if (r == RespParser::Result::kNeedMore) break;
      EXPECT_FALSE(args.empty());
      out.commands.emplace_back(args.begin(), args.end());
    }
  }
  out.leftover = buf.size() - pos;
  return out;
}

const size_t kFragments[] = {SIZE_MAX, 1000, 100, 10, 5, 2, 1};

// Parses `input` under every fragmentation and checks they all agree;
// returns the outcome.
Outcome ParseAll(std::string_view input, RespParser::Limits limits = {}) {
  Outcome whole = ParseInPieces(input, SIZE_MAX, limits);
  for (size_t frag : kFragments) {
    if (frag == 1 && input.size() > 300000) continue;  // keep the suite fast
    EXPECT_EQ(ParseInPieces(input, frag, limits), whole) << "fragment size " << frag;
  }
  return whole;
}

std::vector<Command> Commands(std::string_view input) {
  Outcome o = ParseAll(input);
  EXPECT_EQ(o.error, "");
  return o.commands;
}

std::string Error(std::string_view input, RespParser::Limits limits = {}) {
  return ParseAll(input, limits).error;
}

std::string Encode(const Command& cmd) {
  std::string s = "*" + std::to_string(cmd.size()) + "\r\n";
  for (const std::string& a : cmd) s += "$" + std::to_string(a.size()) + "\r\n" + a + "\r\n";
  return s;
}

TEST(RespParserTest, Multibulk) {
  EXPECT_EQ(Commands("*1\r\n$4\r\nPING\r\n"), (std::vector<Command>{{"PING"}}));
  EXPECT_EQ(Commands("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n"),
            (std::vector<Command>{{"SET", "k", ""}, {"GET", "k"}}));
  // Bulk bodies are binary safe.
  std::string bin("a\r\nb\0c\n", 7);
  EXPECT_EQ(Commands(Encode({"ECHO", bin})), (std::vector<Command>{{"ECHO", bin}}));
}

TEST(RespParserTest, IncompleteCommandIsKept) {
  Outcome o = ParseAll("*2\r\n$3\r\nGET\r\n$1\r\n");
  EXPECT_TRUE(o.commands.empty());
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.leftover, 13u);  // everything after the "*2\r\n" header
}

TEST(RespParserTest, EmptyMultibulksAreSkipped) {
  EXPECT_EQ(Commands("*0\r\n*-1\r\n*-5\r\n*1\r\n$4\r\nPING\r\n"),
            (std::vector<Command>{{"PING"}}));
}

TEST(RespParserTest, RedisQuirksAreKept) {
  // The byte after '\r' and the two after a bulk are skipped unchecked.
  EXPECT_EQ(Commands("*1\rx$4\r\nPINGxx"), (std::vector<Command>{{"PING"}}));
  EXPECT_EQ(Commands("*1\r\n$4\rxPING\r\n"), (std::vector<Command>{{"PING"}}));
  // A NUL before the line end hides it (strchr), so nothing parses...
  Outcome o = ParseAll(std::string("PING\0\r\nPING\r\n", 12));
  EXPECT_TRUE(o.commands.empty());
  EXPECT_EQ(o.error, "");
  o = ParseAll(std::string("*1\0\r\n$4\r\nPING\r\n", 15));
  EXPECT_TRUE(o.commands.empty());
  // ...until more than 64 KB are buffered.
  EXPECT_EQ(Error(std::string("PING\0\r\n", 7) + std::string(70000, 'x')),
            "Protocol error: too big inline request");
}

// The line-end search scans the first 32 bytes of a line byte by byte and
// the rest with memchr: the delimiter and a hiding NUL are found on either
// side of that boundary, whatever the fragmentation.
TEST(RespParserTest, LineEndsAndNulsAroundTheScanWindow) {
  for (size_t len : {1, 30, 31, 32, 33, 34, 64, 100, 5000}) {
    const std::string word(len, 'a');
    EXPECT_EQ(Commands("ECHO " + word + "\r\nPING\r\n"),
              (std::vector<Command>{{"ECHO", word}, {"PING"}}))
        << len;
    // A NUL at any offset of the line hides its end (strchr semantics).
    std::string hidden = "ECHO " + word;
    hidden[hidden.size() - 1] = '\0';
    Outcome o = ParseAll(hidden + "\r\nPING\r\n");
    EXPECT_TRUE(o.commands.empty()) << len;
    EXPECT_EQ(o.error, "") << len;
    // A NUL after the line end does not.
    EXPECT_EQ(Commands("ECHO " + word + "\r\n*1\r\n$2\r\n" + std::string("a\0", 2) + "\r\n"),
              (std::vector<Command>{{"ECHO", word}, {std::string("a\0", 2)}}))
        << len;
  }
  // Multibulk headers with padding zeros are invalid either side of it.
  EXPECT_EQ(Error("*" + std::string(40, '0') + "1\r\n"),
            "Protocol error: invalid multibulk length");
  EXPECT_EQ(Error("*1\r\n$" + std::string(40, '0') + "4\r\nPING\r\n"),
            "Protocol error: invalid bulk length");
}

TEST(RespParserTest, Inline) {
  EXPECT_EQ(Commands("PING\r\n"), (std::vector<Command>{{"PING"}}));
  EXPECT_EQ(Commands("PING\nPING\n"), (std::vector<Command>{{"PING"}, {"PING"}}));
  EXPECT_EQ(Commands("\r\n\n   \r\nSET  a\tb \r\n"), (std::vector<Command>{{"SET", "a", "b"}}));
  EXPECT_EQ(Commands("ECHO a\rb\r\n"), (std::vector<Command>{{"ECHO", "a", "b"}}));
  EXPECT_EQ(Commands("ECHO a\vb\r\n"), (std::vector<Command>{{"ECHO", "a\vb"}}));
  // Mixed with multibulk.
  EXPECT_EQ(Commands("PING\r\n*1\r\n$4\r\nPING\r\nGET x\n"),
            (std::vector<Command>{{"PING"}, {"PING"}, {"GET", "x"}}));
  // A line of exactly 64 KB is fine, however it arrives.
  std::string long_arg(65536 - 5, 'a');
  EXPECT_EQ(Commands("ECHO " + long_arg + "\n"), (std::vector<Command>{{"ECHO", long_arg}}));
}

// Lines without quotes or NUL take a no-copy path: it must split exactly
// as SplitArgs (sdssplitargs) does, blanks of every kind included.
TEST(RespParserTest, UnquotedInlineSplitsAsSplitArgs) {
  std::mt19937 rng(5);
  const std::string alphabet = "ab \t\v\f\r";
  for (int i = 0; i < 2000; ++i) {
    std::string line;
    const int n = 1 + static_cast<int>(rng() % 12);
    for (int k = 0; k < n; ++k) line += alphabet[rng() % alphabet.size()];
    if (line.find_first_not_of(" \t\v\f\r") == std::string::npos) continue;  // blank
    const std::vector<Command> got = Commands(line + "\n");
    // A trailing \r belongs to the line end, as in Redis.
    std::string trimmed = line;
    if (trimmed.back() == '\r') trimmed.pop_back();
    const std::optional<std::vector<std::string>> want = SplitArgs(trimmed);
    ASSERT_TRUE(want.has_value());
    if (want->empty()) {
      EXPECT_TRUE(got.empty()) << testing::PrintToString(line);
    } else {
      EXPECT_EQ(got, (std::vector<Command>{*want})) << testing::PrintToString(line);
    }
  }
}

TEST(RespParserTest, InlineQuoting) {
  EXPECT_EQ(Commands("SET k \"a b\"\r\n"), (std::vector<Command>{{"SET", "k", "a b"}}));
  EXPECT_EQ(Commands("ECHO \"\\x41\\x4a\\n\\r\\t\\b\\a\\q\\\\\\\"\"\r\n"),
            (std::vector<Command>{{"ECHO", "AJ\n\r\t\b\aq\\\""}}));
  EXPECT_EQ(Commands("ECHO \"\\x4g\"\r\n"), (std::vector<Command>{{"ECHO", "x4g"}}));
  EXPECT_EQ(Commands("ECHO 'a\\'b' 'c\\nd'\r\n"), (std::vector<Command>{{"ECHO", "a'b", "c\\nd"}}));
  EXPECT_EQ(Commands("ECHO \"\"\r\n"), (std::vector<Command>{{"ECHO", ""}}));
  EXPECT_EQ(Commands("ECHO ab\"c d\"\r\n"), (std::vector<Command>{{"ECHO", "abc d"}}));
  EXPECT_EQ(Commands("ECHO \"a\"\vb\r\n"), (std::vector<Command>{{"ECHO", "a", "b"}}));
  const std::string unbalanced = "Protocol error: unbalanced quotes in request";
  EXPECT_EQ(Error("ECHO \"a\r\n"), unbalanced);
  EXPECT_EQ(Error("ECHO 'a\r\n"), unbalanced);
  EXPECT_EQ(Error("ECHO \"a\"b\r\n"), unbalanced);
  EXPECT_EQ(Error("ECHO 'a'b\r\n"), unbalanced);
}

TEST(RespParserTest, Errors) {
  EXPECT_EQ(Error("*abc\r\n"), "Protocol error: invalid multibulk length");
  EXPECT_EQ(Error("*01\r\n"), "Protocol error: invalid multibulk length");
  EXPECT_EQ(Error("*+1\r\n"), "Protocol error: invalid multibulk length");
  EXPECT_EQ(Error("*2147483648\r\n"), "Protocol error: invalid multibulk length");
  EXPECT_EQ(Error("*2147483647\r\n"), "");  // Redis 7.0 accepts up to INT_MAX
  EXPECT_EQ(Error("*1\r\n+PING\r\n"), "Protocol error: expected '$', got '+'");
  EXPECT_EQ(Error("*1\r\n\r\n"), "Protocol error: expected '$', got '\r'");
  EXPECT_EQ(Error("*1\r\n$-1\r\n"), "Protocol error: invalid bulk length");
  EXPECT_EQ(Error("*1\r\n$abc\r\n"), "Protocol error: invalid bulk length");
  EXPECT_EQ(Error("*1\r\n$04\r\n"), "Protocol error: invalid bulk length");
  EXPECT_EQ(Error("*1\r\n$+4\r\n"), "Protocol error: invalid bulk length");
  EXPECT_EQ(Error("*1\r\n$536870913\r\n"), "Protocol error: invalid bulk length");
  EXPECT_EQ(Error("*1\r\n$536870912\r\n"), "");
  RespParser::Limits small;
  small.max_bulk_len = 10;
  EXPECT_EQ(Error("*1\r\n$11\r\n", small), "Protocol error: invalid bulk length");
  EXPECT_EQ(Error("ECHO " + std::string(70000, 'a')), "Protocol error: too big inline request");
  EXPECT_EQ(Error("*" + std::string(70000, '1')), "Protocol error: too big mbulk count string");
  EXPECT_EQ(Error("*1\r\n$" + std::string(70000, '1')),
            "Protocol error: too big bulk count string");
  // 64 KB exactly is not "too big" yet.
  EXPECT_EQ(Error("ECHO " + std::string(65536 - 5, 'a')), "");
  EXPECT_EQ(Error("ECHO " + std::string(65536 - 4, 'a')), "Protocol error: too big inline request");
}

// Complete commands take the one-pass path first: whatever it does not
// accept must end exactly as the step-by-step parser says.
TEST(RespParserTest, CompleteCommandsWithOddCountsMatchTheStepwiseParser) {
  EXPECT_EQ(Error("*01\r\n$4\r\nPING\r\n"), "Protocol error: invalid multibulk length");
  EXPECT_EQ(Error("*+1\r\n$4\r\nPING\r\n"), "Protocol error: invalid multibulk length");
  EXPECT_EQ(Error("*1\r\n$04\r\nPING\r\n"), "Protocol error: invalid bulk length");
  EXPECT_EQ(Error("*1\r\n$+4\r\nPING\r\n"), "Protocol error: invalid bulk length");
  EXPECT_EQ(Error("*1\r\n$-1\r\nPING\r\n"), "Protocol error: invalid bulk length");
  EXPECT_EQ(Error("*2\r\n$4\r\nECHO\r\n+a\r\n"), "Protocol error: expected '$', got '+'");
  EXPECT_EQ(Error("*1\r\n$" + std::string(17, '9') + "\r\n"), "Protocol error: invalid bulk length");
  EXPECT_EQ(Error("*1\r\n$" + std::string(19, '9') + "\r\n"), "Protocol error: invalid bulk length");
  EXPECT_EQ(Commands("*1\r\n$0\r\n\r\n"), (std::vector<Command>{{""}}));
  EXPECT_EQ(Commands("*2\r\n$4\r\nECHO\r\n$3\r\nabcxx*1\r\n$4\r\nPING\r\n"),
            (std::vector<Command>{{"ECHO", "abc"}, {"PING"}}));
  RespParser::Limits small;
  small.max_bulk_len = 3;
  EXPECT_EQ(Error("*1\r\n$4\r\nPING\r\n", small), "Protocol error: invalid bulk length");
  EXPECT_EQ(Commands("*1\r\n$3\r\nGET\r\n").size(), 1u);
  RespParser::Limits unauth;
  unauth.unauthenticated = true;
  EXPECT_EQ(Error(Encode(Command(11, "a")), unauth),
            "Protocol error: unauthenticated multibulk length");
  EXPECT_EQ(ParseAll(Encode(Command(10, "a")), unauth).commands.size(), 1u);
  EXPECT_EQ(Error(Encode({"AUTH", std::string(2049, 'p')}), unauth),
            "Protocol error: unauthenticated bulk length");
}

TEST(RespParserTest, CommandsBeforeAnErrorAreReturned) {
  Outcome o = ParseAll("PING\r\n*1\r\n$4\r\nPING\r\n*x\r\nPING\r\n");
  EXPECT_EQ(o.commands, (std::vector<Command>{{"PING"}, {"PING"}}));
  EXPECT_EQ(o.error, "Protocol error: invalid multibulk length");
}

TEST(RespParserTest, ErrorIsSticky) {
  RespParser p;
  size_t pos = 0;
  std::vector<std::string_view> args;
  EXPECT_EQ(p.Parse("*x\r\n", &pos, &args, {}), RespParser::Result::kError);
  pos = 0;
  EXPECT_EQ(p.Parse("PING\r\n", &pos, &args, {}), RespParser::Result::kError);
}

TEST(RespParserTest, UnauthenticatedLimits) {
  RespParser::Limits l;
  l.unauthenticated = true;
  EXPECT_EQ(Error("*11\r\n", l), "Protocol error: unauthenticated multibulk length");
  EXPECT_EQ(Error("*10\r\n$2049\r\n", l), "Protocol error: unauthenticated bulk length");
  EXPECT_EQ(ParseAll(Encode({"AUTH", std::string(2048, 'p')}), l).commands.size(), 1u);
}

TEST(RespParserTest, RandomCommandsRoundTrip) {
  std::mt19937 rng(20260101);
  printf("seed 20260101\n");
  std::vector<Command> expected;
  std::string input;
  for (int i = 0; i < 300; i++) {
    Command cmd(1 + rng() % 5);
    for (std::string& a : cmd) {
      a.resize(rng() % 3 == 0 ? rng() % 300 : rng() % 8);
      for (char& ch : a) ch = static_cast<char>(rng() % 256);
    }
    expected.push_back(cmd);
    input += Encode(cmd);
  }
  EXPECT_EQ(Commands(input), expected);
}

// A 50 MB bulk fed 4 KB at a time: the body is never scanned (the work
// counter stays at the header sizes) and the result is exact.
TEST(RespParserTest, HugeBulkInPiecesIsNotRescanned) {
  const size_t kSize = 50 << 20;
  std::string header = "*2\r\n$3\r\nSET\r\n$" + std::to_string(kSize) + "\r\n";
  std::string buf = header;
  RespParser p;
  size_t pos = 0;
  std::vector<std::string_view> args;
  size_t sent = 0;
  RespParser::Result r = p.Parse(buf, &pos, &args, {});
  EXPECT_EQ(p.BigBulkBytesWanted(buf.size() - pos), kSize + 2 - 0);
  buf.reserve(header.size() + kSize + 2);
  while (r == RespParser::Result::kNeedMore) {
    const size_t n = std::min<size_t>(4096, kSize + 2 - sent);
    buf.append(n, sent + n == kSize + 2 ? '\n' : 'v');
    sent += n;
    r = p.Parse(buf, &pos, &args, {});
  }
  ASSERT_EQ(r, RespParser::Result::kCommand);
  ASSERT_EQ(args.size(), 2u);
  EXPECT_EQ(args[1].size(), kSize);
  EXPECT_EQ(pos, buf.size());
  EXPECT_LT(p.scanned_bytes(), 100u);
  EXPECT_EQ(p.BigBulkBytesWanted(0), 0u);
}

TEST(SplitArgsTest, ConvenienceForm) {
  EXPECT_EQ(SplitArgs("save 900 1"), (std::vector<std::string>{"save", "900", "1"}));
  EXPECT_EQ(SplitArgs(""), std::vector<std::string>{});
  EXPECT_EQ(SplitArgs("a \"b"), std::nullopt);
  EXPECT_EQ(SplitArgs(std::string_view("a\0b c", 5)), std::vector<std::string>{"a"});
}

}  // namespace
}  // namespace rankd
