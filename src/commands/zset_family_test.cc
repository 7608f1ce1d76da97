// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Sorted-set commands through the real dispatcher. Every TEST_P runs three
// times: with the default limits (small sets compact), with
// zset-max-listpack-entries 0 (always a tree) and with 3 (sets cross the
// conversion threshold mid-test). Expected replies were checked against
// redis-server 7.0.

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "commands/test_util.h"
#include "gtest/gtest.h"

namespace rankd {
namespace {

std::string Bulks(std::initializer_list<std::string_view> items) {
  std::string out = "*" + std::to_string(items.size()) + "\r\n";
  for (std::string_view s : items) out += RespBulk(s);
  return out;
}

std::string Empty() { return "*0\r\n"; }

class ZSetTest : public CommandTest, public ::testing::WithParamInterface<const char*> {
 protected:
  void SetUp() override {
    ASSERT_EQ(Run({"CONFIG", "SET", "zset-max-listpack-entries", GetParam()}), RespOk());
  }
  std::string Encoding(std::string_view key) {
    const Database::Entry* e = db().Peek(key);
    return e ? std::string(e->value.EncodingName()) : "none";
  }
  bool Exists(std::string_view key) { return db().Peek(key) != nullptr; }
};

INSTANTIATE_TEST_SUITE_P(Encodings, ZSetTest, ::testing::Values("128", "0", "3"),
                         [](const auto& info) { return std::string("entries") + info.param; });

// Seed 000: the team-contribution leaderboard transcript.
TEST_P(ZSetTest, LeaderboardTranscript) {
  EXPECT_EQ(Run({"ZADD", "z1", "5", "a", "6", "b", "1", "c", "2", "d", "10", "e"}), RespInt(5));
  EXPECT_EQ(Run({"ZREVRANGE", "z1", "0", "2", "WITHSCORES"}),
            Bulks({"e", "10", "b", "6", "a", "5"}));
  EXPECT_EQ(Run({"ZINCRBY", "z1", "3", "d"}), RespBulk("5"));
  EXPECT_EQ(Run({"ZINCRBY", "z1", "4", "c"}), RespBulk("5"));
  EXPECT_EQ(Run({"ZREVRANGE", "z1", "0", "-1", "WITHSCORES"}),
            Bulks({"e", "10", "b", "6", "d", "5", "c", "5", "a", "5"}));
  EXPECT_EQ(Run({"ZREVRANK", "z1", "d"}), RespInt(2));
  // The tied-rank lookup of the seed: the first team with the same integer score.
  EXPECT_EQ(Run({"ZSCORE", "z1", "c"}), RespBulk("5"));
  EXPECT_EQ(Run({"ZREVRANGEBYSCORE", "z1", "6", "5", "LIMIT", "0", "1"}), Bulks({"b"}));
  EXPECT_EQ(Run({"ZREVRANGEBYSCORE", "z1", "(6", "5", "LIMIT", "0", "1"}), Bulks({"d"}));
  EXPECT_EQ(Run({"ZREVRANK", "z1", "b"}), RespInt(1));
  EXPECT_EQ(Run({"ZREVRANK", "z1", "nosuch"}), RespNull());
}

// Seed 004: the command examples.
TEST_P(ZSetTest, GuideExamples) {
  EXPECT_EQ(Run({"ZADD", "board", "100", "a", "200", "b"}), RespInt(2));
  EXPECT_EQ(Run({"ZADD", "board", "CH", "100", "a", "300", "b"}), RespInt(1));
  EXPECT_EQ(Run({"ZADD", "board", "INCR", "50", "a"}), RespBulk("150"));
  EXPECT_EQ(Run({"ZADD", "login:rank", "NX", "1735689600", "user:1001"}), RespInt(1));
  EXPECT_EQ(Run({"ZADD", "login:rank", "NX", "1735689999", "user:1001"}), RespInt(0));
  EXPECT_EQ(Run({"ZSCORE", "login:rank", "user:1001"}), RespBulk("1735689600"));
  EXPECT_EQ(Run({"ZADD", "user:score", "XX", "880", "user:1001"}), RespInt(0));
  EXPECT_FALSE(Exists("user:score"));
  EXPECT_EQ(Run({"ZRANGE", "board", "100", "200", "BYSCORE", "WITHSCORES"}),
            Bulks({"a", "150"}));
  EXPECT_EQ(Run({"ZRANGE", "board", "(150", "300", "BYSCORE"}), Bulks({"b"}));
  EXPECT_EQ(Run({"ZADD", "names", "0", "apple", "0", "banana", "0", "zoo"}), RespInt(3));
  EXPECT_EQ(Run({"ZRANGE", "names", "[a", "(z", "BYLEX"}), Bulks({"apple", "banana"}));
  EXPECT_EQ(Run({"ZRANGEBYLEX", "names", "a", "z"}),
            RespErr("ERR min or max not valid string range item"));
  EXPECT_EQ(Run({"ZCOUNT", "board", "10,20", "30"}), RespErr("ERR min or max is not a float"));
  EXPECT_EQ(Run({"ZADD", "delay:queue", "1735689500", "t1", "1735689700", "t2"}), RespInt(2));
  EXPECT_EQ(Run({"ZREMRANGEBYSCORE", "delay:queue", "-inf", "1735689600"}), RespInt(1));
  EXPECT_EQ(Run({"ZRANGEBYSCORE", "delay:queue", "0", "1735689800", "LIMIT", "0", "1"}),
            Bulks({"t2"}));
  EXPECT_EQ(Run({"ZREMRANGEBYRANK", "board", "1", "-1"}), RespInt(1));
  EXPECT_EQ(Run({"ZRANGE", "board", "0", "-1"}), Bulks({"a"}));
  // Multi-dimensional board: plays weighted 1, likes weighted 3.
  Run({"ZADD", "{rank}:play", "10", "x", "20", "y"});
  Run({"ZADD", "{rank}:like", "1", "x", "5", "z"});
  EXPECT_EQ(Run({"ZUNIONSTORE", "{rank}:total", "2", "{rank}:play", "{rank}:like", "WEIGHTS",
                 "1", "3", "AGGREGATE", "SUM"}),
            RespInt(3));
  EXPECT_EQ(Run({"ZRANGE", "{rank}:total", "0", "-1", "WITHSCORES"}),
            Bulks({"x", "13", "z", "15", "y", "20"}));
  // Queues.
  Run({"ZADD", "queue:low", "3", "l1", "4", "l2"});
  EXPECT_EQ(Run({"ZMPOP", "2", "queue:high", "queue:low", "MIN", "COUNT", "10"}),
            "*2\r\n" + RespBulk("queue:low") + "*2\r\n" + Bulks({"l1", "3"}) + Bulks({"l2", "4"}));
  EXPECT_FALSE(Exists("queue:low"));
  // Inside the test client blocking is off (no_block): an empty BZMPOP times out at once.
  EXPECT_EQ(Run({"BZMPOP", "5", "2", "queue:high", "queue:low", "MIN", "COUNT", "1"}), "*-1\r\n");
}

TEST_P(ZSetTest, ZAddFlagsAndErrors) {
  EXPECT_EQ(Run({"ZADD", "k", "NX", "XX", "1", "a"}),
            RespErr("ERR XX and NX options at the same time are not compatible"));
  EXPECT_EQ(Run({"ZADD", "k", "GT", "LT", "1", "a"}),
            RespErr("ERR GT, LT, and/or NX options at the same time are not compatible"));
  EXPECT_EQ(Run({"ZADD", "k", "GT", "NX", "1", "a"}),
            RespErr("ERR GT, LT, and/or NX options at the same time are not compatible"));
  EXPECT_EQ(Run({"ZADD", "k", "INCR", "1", "a", "2", "b"}),
            RespErr("ERR INCR option supports a single increment-element pair"));
  EXPECT_EQ(Run({"ZADD", "k", "1", "a", "2"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZADD", "k", "NX", "CH"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZADD", "k", "nan", "a"}), RespErr("ERR value is not a valid float"));
  EXPECT_EQ(Run({"ZADD", "k", "1", "a", "1x", "b"}), RespErr("ERR value is not a valid float"));
  EXPECT_FALSE(Exists("k"));  // a bad score anywhere: nothing written
  EXPECT_EQ(Run({"ZINCRBY", "k", "nx", "a"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZINCRBY", "k", "x", "a"}), RespErr("ERR value is not a valid float"));
  EXPECT_EQ(Run({"ZADD", "k", "1", "a", "2", "b", "3", "c", "4", "d"}), RespInt(4));
  EXPECT_EQ(Run({"ZADD", "k", "GT", "CH", "0", "a", "5", "b", "9", "new"}), RespInt(2));
  EXPECT_EQ(Run({"ZADD", "k", "LT", "CH", "0", "a", "7", "b"}), RespInt(1));
  EXPECT_EQ(Run({"ZADD", "k", "XX", "CH", "9", "c", "1", "ghost"}), RespInt(1));
  EXPECT_EQ(Run({"ZSCORE", "k", "ghost"}), RespNull());
  EXPECT_EQ(Run({"ZADD", "k", "GT", "INCR", "-1", "a"}), RespNull());
  EXPECT_EQ(Run({"ZADD", "k", "NX", "INCR", "1", "a"}), RespNull());
  EXPECT_EQ(Run({"ZADD", "k", "XX", "INCR", "1", "nope"}), RespNull());
  EXPECT_EQ(Run({"ZADD", "k", "XX", "INCR", "0", "a"}), RespBulk("0"));
  EXPECT_EQ(Run({"ZADD", "k", "inf", "i"}), RespInt(1));
  EXPECT_EQ(Run({"ZINCRBY", "k", "-inf", "i"}),
            RespErr("ERR resulting score is not a number (NaN)"));
  EXPECT_EQ(Run({"ZSCORE", "k", "i"}), RespBulk("inf"));
  EXPECT_EQ(Run({"ZINCRBY", "k", "0.1", "f"}), RespBulk("0.10000000000000001"));
  EXPECT_EQ(Run({"SET", "str", "v"}), RespOk());
  EXPECT_EQ(Run({"ZADD", "str", "1", "a"}),
            RespErr("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_EQ(Run({"ZADD", "xx", "XX", "1", "a"}), RespInt(0));
  EXPECT_EQ(Run({"ZADD", "xx", "XX", "INCR", "1", "a"}), RespNull());
  EXPECT_FALSE(Exists("xx"));
}

TEST_P(ZSetTest, NegativeZeroFollowsTheEncoding) {
  // A listpack stores -0 as the integer 0; a skiplist keeps -0. INCR replies
  // with the sum it computed either way.
  const char* z = std::string(GetParam()) == "0" ? "-0" : "0";
  EXPECT_EQ(Run({"ZADD", "k", "-0", "a"}), RespInt(1));
  EXPECT_EQ(Run({"ZSCORE", "k", "a"}), RespBulk(z));
  EXPECT_EQ(Run({"ZINCRBY", "k", "0", "a"}), RespBulk("0"));
  EXPECT_EQ(Run({"ZSCORE", "k", "a"}), RespBulk(z));
  EXPECT_EQ(Run({"ZADD", "k", "INCR", "-0", "b"}), RespBulk("-0"));
  EXPECT_EQ(Run({"ZSCORE", "k", "b"}), RespBulk(z));
  EXPECT_EQ(Run({"ZUNIONSTORE", "u", "1", "k"}), RespInt(2));
  EXPECT_EQ(Run({"ZSCORE", "u", "a"}), RespBulk(z));
}

// Which stored -0 scores a store command folds to 0 depends on how Redis 7.0
// builds the result (listpack filled in order, or skiplist converted whole).
TEST_F(CommandTest, StoreCommandsFoldNegativeZeroAsRedis) {
  ASSERT_EQ(Run({"CONFIG", "SET", "zset-max-listpack-entries", "0"}), RespOk());
  Run({"ZADD", "src", "-0", "a", "-0", "b", "-0", "c", "-0", "d"});
  ASSERT_EQ(Run({"CONFIG", "SET", "zset-max-listpack-entries", "2"}), RespOk());
  EXPECT_EQ(Run({"ZRANGESTORE", "d1", "src", "0", "-1"}), RespInt(4));  // a skiplist at once
  EXPECT_EQ(Run({"ZSCORE", "d1", "a"}), RespBulk("-0"));
  EXPECT_EQ(Run({"ZRANGESTORE", "d2", "src", "0", "1"}), RespInt(2));   // fits: a listpack
  EXPECT_EQ(Run({"ZSCORE", "d2", "a"}), RespBulk("0"));
  EXPECT_EQ(Run({"ZRANGESTORE", "d3", "src", "-inf", "inf", "BYSCORE"}), RespInt(4));
  EXPECT_EQ(Run({"ZSCORE", "d3", "a"}), RespBulk("0"));  // written before the conversion
  EXPECT_EQ(Run({"ZSCORE", "d3", "d"}), RespBulk("-0"));
  EXPECT_EQ(Run({"ZUNIONSTORE", "d4", "1", "src"}), RespInt(4));  // too big to convert
  EXPECT_EQ(Run({"ZSCORE", "d4", "a"}), RespBulk("-0"));
  EXPECT_EQ(Run({"ZUNIONSTORE", "d5", "2", "d2", "d2"}), RespInt(2));
  EXPECT_EQ(Run({"ZSCORE", "d5", "a"}), RespBulk("0"));
}

// A listpack keeps integral scores as integers, which ZSCAN prints plainly.
TEST_F(CommandTest, ZScanPrintsScoresAsTheEncodingStoresThem) {
  Run({"ZADD", "k", "1e17", "a", "1.5", "b"});
  EXPECT_EQ(Run({"ZSCAN", "k", "0"}),
            "*2\r\n" + RespBulk("0") + "*4\r\n" + RespBulk("b") + RespBulk("1.5") +
                RespBulk("a") + RespBulk("100000000000000000"));
  EXPECT_EQ(Run({"ZSCORE", "k", "a"}), RespBulk("1e+17"));
  ASSERT_EQ(Run({"CONFIG", "SET", "zset-max-listpack-entries", "0"}), RespOk());
  Run({"ZADD", "t", "1e17", "a"});
  EXPECT_EQ(Run({"ZSCAN", "t", "0"}),
            "*2\r\n" + RespBulk("0") + "*2\r\n" + RespBulk("a") + RespBulk("1e+17"));
}

TEST_P(ZSetTest, PointReads) {
  Run({"ZADD", "k", "1", "a", "2.5", "b", "-3", "c"});
  EXPECT_EQ(Run({"ZCARD", "k"}), RespInt(3));
  EXPECT_EQ(Run({"ZCARD", "nokey"}), RespInt(0));
  EXPECT_EQ(Run({"ZSCORE", "k", "b"}), RespBulk("2.5"));
  EXPECT_EQ(Run({"ZMSCORE", "k", "a", "zz", "c"}),
            "*3\r\n" + RespBulk("1") + RespNull() + RespBulk("-3"));
  EXPECT_EQ(Run({"ZMSCORE", "nokey", "a"}), "*1\r\n" + RespNull());
  EXPECT_EQ(Run({"ZRANK", "k", "a"}), RespInt(1));
  EXPECT_EQ(Run({"ZREVRANK", "k", "a"}), RespInt(1));
  EXPECT_EQ(Run({"ZRANK", "k", "c"}), RespInt(0));
  EXPECT_EQ(Run({"ZRANK", "k", "b", "WITHSCORE"}), "*2\r\n" + RespInt(2) + RespBulk("2.5"));
  EXPECT_EQ(Run({"ZREVRANK", "k", "b", "withscore"}), "*2\r\n" + RespInt(0) + RespBulk("2.5"));
  EXPECT_EQ(Run({"ZRANK", "k", "zz", "WITHSCORE"}), "*-1\r\n");
  EXPECT_EQ(Run({"ZRANK", "k", "a", "FOO"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZRANK", "k", "a", "WITHSCORE", "x"}),
            RespErr("ERR wrong number of arguments for 'zrank' command"));
  EXPECT_EQ(Run({"ZCOUNT", "k", "-inf", "+inf"}), RespInt(3));
  EXPECT_EQ(Run({"ZCOUNT", "k", "(1", "2.5"}), RespInt(1));
  EXPECT_EQ(Run({"ZCOUNT", "k", "3", "1"}), RespInt(0));
  EXPECT_EQ(Run({"ZCOUNT", "k", "(", "1"}), RespInt(1));  // "(" alone is (0
  SetResp(3);
  EXPECT_EQ(Run({"ZSCORE", "k", "b"}), ",2.5\r\n");
  EXPECT_EQ(Run({"ZSCORE", "k", "zz"}), "_\r\n");
  EXPECT_EQ(Run({"ZRANK", "k", "b", "WITHSCORE"}), "*2\r\n:2\r\n,2.5\r\n");
  EXPECT_EQ(Run({"ZRANK", "k", "zz", "WITHSCORE"}), "_\r\n");
}

TEST_P(ZSetTest, RangeByRankScoreLex) {
  Run({"ZADD", "k", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e"});
  EXPECT_EQ(Run({"ZRANGE", "k", "-2", "100"}), Bulks({"d", "e"}));
  EXPECT_EQ(Run({"ZRANGE", "k", "3", "1"}), Empty());
  EXPECT_EQ(Run({"ZRANGE", "k", "0", "1", "REV", "WITHSCORES"}), Bulks({"e", "5", "d", "4"}));
  EXPECT_EQ(Run({"ZRANGE", "k", "(1", "4", "BYSCORE", "LIMIT", "1", "2"}), Bulks({"c", "d"}));
  EXPECT_EQ(Run({"ZRANGE", "k", "4", "(1", "BYSCORE", "REV", "LIMIT", "1", "5"}),
            Bulks({"c", "b"}));
  EXPECT_EQ(Run({"ZRANGE", "k", "-inf", "+inf", "BYSCORE", "LIMIT", "-1", "2"}), Empty());
  EXPECT_EQ(Run({"ZRANGE", "k", "-inf", "+inf", "BYSCORE", "LIMIT", "3", "-7"}),
            Bulks({"d", "e"}));
  EXPECT_EQ(Run({"ZRANGE", "k", "0", "1", "LIMIT", "0", "1"}),
            RespErr("ERR syntax error, LIMIT is only supported in combination with either "
                    "BYSCORE or BYLEX"));
  EXPECT_EQ(Run({"ZRANGE", "k", "0", "1", "LIMIT", "0", "-1"}), Bulks({"a", "b"}));
  EXPECT_EQ(Run({"ZRANGE", "k", "[a", "[b", "BYLEX", "WITHSCORES"}),
            RespErr("ERR syntax error, WITHSCORES not supported in combination with BYLEX"));
  EXPECT_EQ(Run({"ZRANGE", "k", "0", "1", "BYSCORE", "BYLEX"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZRANGE", "k", "0", "1", "REV", "REV"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZRANGE", "k", "x", "1"}),
            RespErr("ERR value is not an integer or out of range"));
  EXPECT_EQ(Run({"ZRANGE", "k", "0", "1", "LIMIT", "0"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZRANGEBYSCORE", "k", "2", "3", "REV"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZRANGEBYSCORE", "k", "x", "3"}), RespErr("ERR min or max is not a float"));
  EXPECT_EQ(Run({"ZREVRANGEBYSCORE", "k", "3", "2", "WITHSCORES"}),
            Bulks({"c", "3", "b", "2"}));
  EXPECT_EQ(Run({"ZREVRANGE", "k", "0", "0", "LIMIT", "0", "1"}),
            RespErr("ERR syntax error, LIMIT is only supported in combination with either "
                    "BYSCORE or BYLEX"));
  EXPECT_EQ(Run({"ZRANGE", "nokey", "0", "-1"}), Empty());
  Run({"ZADD", "lex", "0", "a", "0", "b", "0", "c", "0", "d"});
  EXPECT_EQ(Run({"ZRANGEBYLEX", "lex", "-", "+"}), Bulks({"a", "b", "c", "d"}));
  EXPECT_EQ(Run({"ZRANGEBYLEX", "lex", "(a", "[c", "LIMIT", "1", "1"}), Bulks({"c"}));
  EXPECT_EQ(Run({"ZREVRANGEBYLEX", "lex", "+", "(b"}), Bulks({"d", "c"}));
  EXPECT_EQ(Run({"ZRANGEBYLEX", "lex", "+", "-"}), Empty());
  EXPECT_EQ(Run({"ZRANGEBYLEX", "lex", "[c", "[b"}), Empty());
  EXPECT_EQ(Run({"ZLEXCOUNT", "lex", "[b", "+"}), RespInt(3));
  EXPECT_EQ(Run({"ZLEXCOUNT", "lex", "-", "-"}), RespInt(0));
  EXPECT_EQ(Run({"ZREVRANGEBYLEX", "lex", "[c", "-", "LIMIT", "1", "-1"}), Bulks({"b", "a"}));
  SetResp(3);
  EXPECT_EQ(Run({"ZRANGE", "k", "0", "0", "WITHSCORES"}), "*1\r\n*2\r\n$1\r\na\r\n,1\r\n");
  EXPECT_EQ(Run({"ZRANGE", "k", "0", "0"}), Bulks({"a"}));
}

TEST_P(ZSetTest, LexOverMixedScoresInACompactSetScansAsRedis) {
  if (std::string(GetParam()) != "128") GTEST_SKIP() << "listpack behaviour only";
  // Undefined in Redis, but its listpack scan answers these (redis-server 7.0).
  Run({"ZADD", "m", "1", "d", "2", "a", "3", "c", "4", "b"});
  EXPECT_EQ(Run({"ZRANGEBYLEX", "m", "[b", "+"}), Bulks({"d", "a", "c", "b"}));
  EXPECT_EQ(Run({"ZRANGEBYLEX", "m", "-", "[c"}), Empty());
  EXPECT_EQ(Run({"ZREVRANGEBYLEX", "m", "[c", "-"}), Empty());
  EXPECT_EQ(Run({"ZREVRANGEBYLEX", "m", "+", "[b"}), Bulks({"b", "c"}));
  EXPECT_EQ(Run({"ZLEXCOUNT", "m", "(a", "[d"}), RespInt(4));
  EXPECT_EQ(Run({"ZRANGEBYLEX", "m", "[a", "[c", "LIMIT", "1", "5"}), Empty());
}

TEST_P(ZSetTest, DeepPageOnALargeSet) {
  std::vector<std::string> args = {"ZADD", "lb"};
  for (int i = 0; i < 3000; i++) {
    args.push_back(std::to_string(i / 2));
    char m[16];
    snprintf(m, sizeof(m), "m%05d", i);
    args.push_back(m);
  }
  EXPECT_EQ(Run(args), RespInt(3000));
  EXPECT_EQ(Encoding("lb"), "skiplist");
  EXPECT_EQ(Run({"ZRANGEBYSCORE", "lb", "-inf", "+inf", "LIMIT", "2000", "3"}),
            Bulks({"m02000", "m02001", "m02002"}));
  EXPECT_EQ(Run({"ZREVRANGEBYSCORE", "lb", "+inf", "-inf", "LIMIT", "2000", "2"}),
            Bulks({"m00999", "m00998"}));
  EXPECT_EQ(Run({"ZRANGEBYSCORE", "lb", "(10", "11", "WITHSCORES"}),
            Bulks({"m00022", "11", "m00023", "11"}));
  EXPECT_EQ(Run({"ZCOUNT", "lb", "100", "(200"}), RespInt(200));
  EXPECT_EQ(Run({"ZREVRANK", "lb", "m00000"}), RespInt(2999));
  EXPECT_EQ(Run({"ZRANGE", "lb", "100000", "100010"}), Empty());
  EXPECT_EQ(Run({"ZREMRANGEBYRANK", "lb", "10", "-11"}), RespInt(2980));
  EXPECT_EQ(Run({"ZCARD", "lb"}), RespInt(20));
}

TEST_P(ZSetTest, RemovalsDeleteEmptiedKeys) {
  Run({"ZADD", "k", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e"});
  EXPECT_EQ(Run({"ZREM", "k", "a", "zz", "a"}), RespInt(1));
  EXPECT_EQ(Run({"ZREMRANGEBYSCORE", "k", "(2", "4"}), RespInt(2));
  EXPECT_EQ(Run({"ZREMRANGEBYRANK", "k", "5", "10"}), RespInt(0));
  EXPECT_EQ(Run({"ZREMRANGEBYRANK", "k", "x", "1"}),
            RespErr("ERR value is not an integer or out of range"));
  EXPECT_EQ(Run({"ZREMRANGEBYLEX", "k", "x", "+"}),
            RespErr("ERR min or max not valid string range item"));
  EXPECT_EQ(Run({"ZRANGE", "k", "0", "-1"}), Bulks({"b", "e"}));
  EXPECT_EQ(Run({"ZREM", "k", "b", "e", "x"}), RespInt(2));
  EXPECT_FALSE(Exists("k"));
  Run({"ZADD", "l", "0", "a", "0", "b", "0", "c"});
  EXPECT_EQ(Run({"ZREMRANGEBYLEX", "l", "-", "+"}), RespInt(3));
  EXPECT_FALSE(Exists("l"));
  EXPECT_EQ(Run({"ZREM", "nokey", "a"}), RespInt(0));
}

TEST_P(ZSetTest, WritesTouchWatchedKeys) {
  Watcher w;
  db().Watch("k", &w);
  Run({"ZADD", "k", "1", "a"});
  EXPECT_TRUE(w.dirty);
  w.dirty = false;
  Run({"ZADD", "k", "1", "a"});  // no change: WATCH stays clean, as in Redis
  EXPECT_FALSE(w.dirty);
  Run({"ZREM", "k", "zz"});
  EXPECT_FALSE(w.dirty);
  Run({"ZPOPMIN", "k"});
  EXPECT_TRUE(w.dirty);
  db().Unwatch("k", &w);
}

TEST_P(ZSetTest, Pops) {
  Run({"ZADD", "k", "1", "a", "2", "b", "3", "c", "4", "d"});
  EXPECT_EQ(Run({"ZPOPMIN", "k"}), Bulks({"a", "1"}));
  EXPECT_EQ(Run({"ZPOPMAX", "k", "2"}), Bulks({"d", "4", "c", "3"}));
  EXPECT_EQ(Run({"ZPOPMIN", "k", "0"}), Empty());
  EXPECT_EQ(Run({"ZPOPMIN", "k", "-1"}), RespErr("ERR value is out of range, must be positive"));
  EXPECT_EQ(Run({"ZPOPMIN", "k", "1", "2"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZPOPMIN", "k", "10"}), Bulks({"b", "2"}));
  EXPECT_FALSE(Exists("k"));
  EXPECT_EQ(Run({"ZPOPMIN", "k"}), Empty());
  Run({"ZADD", "q", "1", "a", "2", "b"});
  EXPECT_EQ(Run({"ZMPOP", "2", "none", "q", "MAX"}),
            "*2\r\n" + RespBulk("q") + "*1\r\n" + Bulks({"b", "2"}));
  EXPECT_EQ(Run({"ZMPOP", "1", "none", "MIN"}), "*-1\r\n");
  EXPECT_EQ(Run({"ZMPOP", "0", "q", "MIN"}), RespErr("ERR numkeys should be greater than 0"));
  EXPECT_EQ(Run({"ZMPOP", "2", "q", "MIN"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZMPOP", "1", "q", "MIN", "COUNT", "0"}),
            RespErr("ERR count should be greater than 0"));
  EXPECT_EQ(Run({"ZMPOP", "1", "q", "MIN", "COUNT", "1", "COUNT", "1"}),
            RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"BZPOPMIN", "none", "q", "0"}),
            "*3\r\n" + RespBulk("q") + RespBulk("a") + RespBulk("1"));
  EXPECT_EQ(Run({"BZPOPMIN", "none", "q", "0.5"}), "*-1\r\n");  // no_block: as on timeout
  EXPECT_EQ(Run({"BZPOPMAX", "q", "-1"}), RespErr("ERR timeout is negative"));
  EXPECT_EQ(Run({"BZPOPMAX", "q", "x"}), RespErr("ERR timeout is not a float or out of range"));
  EXPECT_EQ(Run({"BZPOPMAX", "q", "inf"}), RespErr("ERR timeout is negative"));
  EXPECT_EQ(Run({"BZMPOP", "x", "1", "q", "MIN"}),
            RespErr("ERR timeout is not a float or out of range"));
  EXPECT_EQ(Run({"BZMPOP", "-1", "0", "q", "MIN"}),
            RespErr("ERR numkeys should be greater than 0"));
  Run({"SET", "s", "v"});
  EXPECT_EQ(Run({"BZPOPMIN", "s", "0"}),
            RespErr("WRONGTYPE Operation against a key holding the wrong kind of value"));
  SetResp(3);
  Run({"ZADD", "r", "1", "a", "2", "b"});
  EXPECT_EQ(Run({"ZPOPMIN", "r", "1"}), "*1\r\n*2\r\n$1\r\na\r\n,1\r\n");
  EXPECT_EQ(Run({"ZPOPMIN", "r"}), "*2\r\n$1\r\nb\r\n,2\r\n");
  EXPECT_EQ(Run({"ZMPOP", "1", "r", "MIN"}), "_\r\n");
}

TEST_P(ZSetTest, Algebra) {
  Run({"ZADD", "a", "1", "x", "2", "y", "3", "z"});
  Run({"ZADD", "b", "10", "y", "20", "z", "30", "w"});
  Run({"SADD", "s", "z", "w", "v"});
  EXPECT_EQ(Run({"ZUNION", "2", "a", "b", "WITHSCORES"}),
            Bulks({"x", "1", "y", "12", "z", "23", "w", "30"}));
  EXPECT_EQ(Run({"ZINTER", "2", "a", "b", "AGGREGATE", "MAX", "WITHSCORES"}),
            Bulks({"y", "10", "z", "20"}));
  EXPECT_EQ(Run({"ZINTER", "3", "a", "b", "s", "WEIGHTS", "1", "0", "5", "WITHSCORES"}),
            Bulks({"z", "8"}));
  EXPECT_EQ(Run({"ZDIFF", "2", "a", "b", "WITHSCORES"}), Bulks({"x", "1"}));
  EXPECT_EQ(Run({"ZDIFF", "2", "a", "a"}), Empty());
  EXPECT_EQ(Run({"ZUNION", "2", "s", "missing"}), Bulks({"v", "w", "z"}));
  EXPECT_EQ(Run({"ZINTERCARD", "2", "a", "b"}), RespInt(2));
  EXPECT_EQ(Run({"ZINTERCARD", "2", "a", "b", "LIMIT", "1"}), RespInt(1));
  EXPECT_EQ(Run({"ZINTERCARD", "2", "a", "b", "LIMIT", "-1"}),
            RespErr("ERR LIMIT can't be negative"));
  EXPECT_EQ(Run({"ZINTERCARD", "1", "a", "WITHSCORES"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZUNION", "0", "a"}),
            RespErr("ERR at least 1 input key is needed for 'zunion' command"));
  EXPECT_EQ(Run({"ZUNIONSTORE", "d", "0", "a"}),
            RespErr("ERR at least 1 input key is needed for 'zunionstore' command"));
  EXPECT_EQ(Run({"ZUNION", "3", "a", "b"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZUNION", "2", "a", "b", "WEIGHTS", "1"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZUNION", "2", "a", "b", "WEIGHTS", "1", "x"}),
            RespErr("ERR weight value is not a float"));
  EXPECT_EQ(Run({"ZUNION", "1", "a", "AGGREGATE", "AVG"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZDIFF", "1", "a", "WEIGHTS", "1"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZUNIONSTORE", "d", "1", "a", "WITHSCORES"}), RespErr("ERR syntax error"));
  Run({"SET", "str", "v"});
  // WRONGTYPE is found before the options are parsed.
  EXPECT_EQ(Run({"ZUNION", "2", "a", "str", "BOGUS"}),
            RespErr("WRONGTYPE Operation against a key holding the wrong kind of value"));
  // Infinities: inf + -inf is 0, 0 * inf is 0.
  Run({"ZADD", "pinf", "inf", "m"});
  Run({"ZADD", "ninf", "-inf", "m"});
  EXPECT_EQ(Run({"ZUNION", "2", "pinf", "ninf", "WITHSCORES"}), Bulks({"m", "0"}));
  EXPECT_EQ(Run({"ZUNION", "1", "pinf", "WEIGHTS", "0", "WITHSCORES"}), Bulks({"m", "0"}));
  EXPECT_EQ(Run({"ZINTER", "2", "pinf", "ninf", "AGGREGATE", "MIN", "WITHSCORES"}),
            Bulks({"m", "-inf"}));
  // Stores: the result replaces dst (any type), an empty result deletes it.
  EXPECT_EQ(Run({"ZINTERSTORE", "str", "2", "a", "b"}), RespInt(2));
  EXPECT_EQ(Run({"ZRANGE", "str", "0", "-1", "WITHSCORES"}), Bulks({"y", "12", "z", "23"}));
  EXPECT_EQ(Run({"ZUNIONSTORE", "a", "2", "a", "b"}), RespInt(4));  // dst is an input
  EXPECT_EQ(Run({"ZCARD", "a"}), RespInt(4));
  EXPECT_EQ(Run({"ZDIFFSTORE", "a", "2", "b", "a"}), RespInt(0));
  EXPECT_FALSE(Exists("a"));
  EXPECT_EQ(Run({"ZRANGESTORE", "dst", "b", "0", "0"}), RespInt(1));
  EXPECT_EQ(Run({"ZRANGESTORE", "b", "b", "(10", "+inf", "BYSCORE", "LIMIT", "0", "1"}),
            RespInt(1));
  EXPECT_EQ(Run({"ZRANGE", "b", "0", "-1", "WITHSCORES"}), Bulks({"z", "20"}));
  EXPECT_EQ(Run({"ZRANGESTORE", "dst", "b", "5", "6"}), RespInt(0));
  EXPECT_FALSE(Exists("dst"));
  EXPECT_EQ(Run({"ZRANGESTORE", "dst", "b", "0", "1", "WITHSCORES"}), RespErr("ERR syntax error"));
  SetResp(3);
  EXPECT_EQ(Run({"ZUNION", "1", "b", "WITHSCORES"}), "*1\r\n*2\r\n$1\r\nz\r\n,20\r\n");
}

TEST_P(ZSetTest, StoreResultsTakeRedisEncoding) {
  Run({"ZADD", "a", "1", "x", "2", "y"});
  Run({"ZUNIONSTORE", "d", "1", "a"});
  EXPECT_EQ(Encoding("d"), std::string(GetParam()) == "0" ? "skiplist" : "listpack");
  Run({"ZADD", "big", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e"});
  Run({"ZRANGESTORE", "d2", "big", "0", "-1"});
  EXPECT_EQ(Encoding("d2"), std::string(GetParam()) == "128" ? "listpack" : "skiplist");
}

TEST_P(ZSetTest, RandomMembers) {
  Run({"ZADD", "k", "1", "a", "2", "b", "3", "c"});
  EXPECT_EQ(Run({"ZRANDMEMBER", "k", "5"}), Bulks({"c", "b", "a"}));  // whole set, from the top
  EXPECT_EQ(Run({"ZRANDMEMBER", "k", "0"}), Empty());
  EXPECT_EQ(Run({"ZRANDMEMBER", "nokey"}), RespNull());
  EXPECT_EQ(Run({"ZRANDMEMBER", "nokey", "3"}), Empty());
  EXPECT_EQ(Run({"ZRANDMEMBER", "k", "x"}), RespErr("ERR value is not an integer or out of range"));
  EXPECT_EQ(Run({"ZRANDMEMBER", "k", "1", "foo"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZRANDMEMBER", "k", "-9223372036854775808"}),
            RespErr("ERR value is out of range, value must between -9223372036854775807 and "
                    "9223372036854775807"));
  EXPECT_EQ(Run({"ZRANDMEMBER", "k", "9223372036854775807", "WITHSCORES"}),
            RespErr("ERR value is out of range"));
  std::string one = Run({"ZRANDMEMBER", "k"});
  EXPECT_TRUE(one == RespBulk("a") || one == RespBulk("b") || one == RespBulk("c"));
  EXPECT_EQ(Run({"ZRANDMEMBER", "k", "-5"}).substr(0, 4), "*5\r\n");
  EXPECT_EQ(Run({"ZRANDMEMBER", "k", "-2", "WITHSCORES"}).substr(0, 4), "*4\r\n");
  std::string two = Run({"ZRANDMEMBER", "k", "2"});
  EXPECT_EQ(two.substr(0, 4), "*2\r\n");
  EXPECT_NE(two.substr(4, 7), two.substr(11, 7));  // distinct
}

TEST_P(ZSetTest, ScanVisitsEveryMember) {
  std::vector<std::string> args = {"ZADD", "k"};
  for (int i = 0; i < 300; i++) {
    args.push_back(std::to_string(i));
    args.push_back("m" + std::to_string(i));
  }
  Run(args);
  std::set<std::string> seen;
  std::string cursor = "0";
  int calls = 0;
  do {
    std::vector<std::string> cmd = {"ZSCAN", "k", cursor, "COUNT", "50"};
    std::string r = Run(cmd);
    // *2 $len cursor *n ...
    size_t p = r.find("\r\n", 4);
    size_t len = std::stoul(r.substr(5, p - 5));
    cursor = r.substr(p + 2, len);
    size_t q = p + 2 + len + 2;
    size_t end = r.find("\r\n", q);
    size_t n = std::stoul(r.substr(q + 1, end - q - 1));
    q = end + 2;
    for (size_t i = 0; i < n; i++) {
      size_t e = r.find("\r\n", q);
      size_t l = std::stoul(r.substr(q + 1, e - q - 1));
      std::string item = r.substr(e + 2, l);
      if (i % 2 == 0) seen.insert(item);
      q = e + 2 + l + 2;
    }
    calls++;
  } while (cursor != "0" && calls < 1000);
  EXPECT_EQ(seen.size(), 300u);
  EXPECT_EQ(Run({"ZSCAN", "k", "x"}), RespErr("ERR invalid cursor"));
  EXPECT_EQ(Run({"ZSCAN", "k", "0", "COUNT", "0"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"ZSCAN", "nokey", "0", "BOGUS"}), "*2\r\n" + RespBulk("0") + Empty());
  Run({"ZADD", "small", "1", "apple", "2", "banana"});
  if (Encoding("small") == "listpack") {
    EXPECT_EQ(Run({"ZSCAN", "small", "0", "MATCH", "b*"}),
              "*2\r\n" + RespBulk("0") + Bulks({"banana", "2"}));
  }
}

}  // namespace
}  // namespace rankd
