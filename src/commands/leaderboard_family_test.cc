// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// LB.* through the real dispatcher: seed 000's team leaderboard done
// natively, every command's reply shape, Z* commands on boards, errors, and
// the LB.LOAD effects that writes to boards leave in the log.

#include <string>
#include <vector>

#include "commands/lb_args.h"
#include "commands/test_util.h"
#include "server/errors.h"

namespace rankd {
namespace {

std::string Row(int64_t rank, std::string_view member, std::string_view score) {
  return RespArray({RespInt(rank), RespBulk(member), RespBulk(score)});
}

// Records what the server logs.
class CaptureLog : public EffectLog {
 public:
  void Append(int db, std::span<const std::string_view> args) override {
    std::string line;
    for (std::string_view a : args) line += (line.empty() ? "" : " ") + std::string(a);
    lines.push_back(line);
  }
  std::vector<std::string> lines;
};

class LeaderboardTest : public CommandTest {};

TEST_F(LeaderboardTest, Seed000TeamsTieByTimeWithSharedRanks) {
  // The seed's data: team contributions, then two increments that tie three
  // teams at 5. Earlier arrival at 5 ranks first: a (initial), d, then c.
  EXPECT_EQ(Run({"LB.CREATE", "z1"}), RespOk());
  EXPECT_EQ(Run({"LB.ADD", "z1", "5", "a", "6", "b", "1", "c", "2", "d", "10", "e"}),
            RespArray({RespArray({RespBulk("5"), RespInt(1), RespNull()}),
                       RespArray({RespBulk("6"), RespInt(1), RespNull()}),
                       RespArray({RespBulk("1"), RespInt(3), RespNull()}),
                       RespArray({RespBulk("2"), RespInt(3), RespNull()}),
                       RespArray({RespBulk("10"), RespInt(1), RespNull()})}));
  EXPECT_EQ(Run({"ZINCRBY", "z1", "3", "d"}), RespBulk("5"));
  EXPECT_EQ(Run({"LB.ADD", "z1", "INCR", "4", "c"}),
            RespArray({RespArray({RespBulk("5"), RespInt(5), RespInt(5)})}));
  EXPECT_EQ(Run({"ZREVRANGE", "z1", "0", "-1"}),
            RespArray({RespBulk("e"), RespBulk("b"), RespBulk("a"), RespBulk("d"), RespBulk("c")}));
  EXPECT_EQ(Run({"ZREVRANK", "z1", "d"}), RespInt(3));
  // The seed's tied ("1224") rank and page, in one command each.
  EXPECT_EQ(Run({"LB.RANK", "z1", "c", "MODE", "COMPETITION"}),
            RespArray({RespInt(3), RespBulk("5")}));
  EXPECT_EQ(Run({"LB.TOP", "z1", "10", "MODE", "competition"}),
            RespArray({Row(1, "e", "10"), Row(2, "b", "6"), Row(3, "a", "5"), Row(3, "d", "5"),
                       Row(3, "c", "5")}));
  EXPECT_EQ(Run({"LB.TOP", "z1", "2", "OFFSET", "3", "MODE", "DENSE"}),
            RespArray({Row(3, "d", "5"), Row(3, "c", "5")}));
  EXPECT_EQ(Run({"LB.RANK", "z1", "c"}), RespArray({RespInt(5), RespBulk("5")}));
  // Rank 3..3 with ties is everyone tied third; rank 4 is nobody's.
  EXPECT_EQ(Run({"LB.RANGE", "z1", "3", "3", "MODE", "COMPETITION"}),
            RespArray({Row(3, "a", "5"), Row(3, "d", "5"), Row(3, "c", "5")}));
  EXPECT_EQ(Run({"LB.RANGE", "z1", "4", "5", "MODE", "COMPETITION"}), RespArray({}));
  EXPECT_EQ(Run({"LB.RANGE", "z1", "2", "3", "MODE", "DENSE"}),
            RespArray({Row(2, "b", "6"), Row(3, "a", "5"), Row(3, "d", "5"), Row(3, "c", "5")}));
}

TEST_F(LeaderboardTest, AddModesReplyWithMovement) {
  EXPECT_EQ(Run({"LB.ADD", "lb", "10", "x", "20", "y"}),
            RespArray({RespArray({RespBulk("10"), RespInt(1), RespNull()}),
                       RespArray({RespBulk("20"), RespInt(1), RespNull()})}));
  // BEST on a DESC board keeps the higher score.
  EXPECT_EQ(Run({"LB.ADD", "lb", "BEST", "5", "x", "30", "x"}),
            RespArray({RespArray({RespBulk("10"), RespInt(2), RespInt(2)}),
                       RespArray({RespBulk("30"), RespInt(1), RespInt(2)})}));
  EXPECT_EQ(Run({"LB.ADD", "lb", "XX", "1", "nobody"}), RespArray({"*-1\r\n"}));
  EXPECT_EQ(Run({"LB.ADD", "lb", "NX", "1", "x"}),
            RespArray({RespArray({RespBulk("30"), RespInt(1), RespInt(1)})}));
  EXPECT_EQ(Run({"LB.ADD", "lb", "AT", "1700000000000", "SET", "7", "z"}),
            RespArray({RespArray({RespBulk("7"), RespInt(3), RespNull()})}));
  EXPECT_EQ(Run({"LB.STAMP", "lb", "z"}), RespArray({RespInt(4), RespInt(1700000000000)}));
  // BEST on an ASC board keeps the lower score (golf, speedruns).
  EXPECT_EQ(Run({"LB.CREATE", "golf", "ORDER", "ASC"}), RespOk());
  Run({"LB.ADD", "golf", "72", "p"});
  EXPECT_EQ(Run({"LB.ADD", "golf", "BEST", "75", "p"}),
            RespArray({RespArray({RespBulk("72"), RespInt(1), RespInt(1)})}));
  EXPECT_EQ(Run({"LB.ADD", "golf", "BEST", "70", "p"}),
            RespArray({RespArray({RespBulk("70"), RespInt(1), RespInt(1)})}));
  // XX on a missing key creates nothing.
  EXPECT_EQ(Run({"LB.ADD", "none", "XX", "1", "a"}), RespArray({"*-1\r\n"}));
  EXPECT_EQ(Run({"EXISTS", "none"}), RespInt(0));
}

TEST_F(LeaderboardTest, TiesLastAndAscOrderUseZRange) {
  EXPECT_EQ(Run({"LB.CREATE", "t", "ORDER", "ASC", "TIES", "LAST"}), RespOk());
  Run({"LB.ADD", "t", "1", "a", "1", "b", "0", "c"});
  // ASC board: ZRANGE lists it; among equal scores the latest first (LAST).
  EXPECT_EQ(Run({"ZRANGE", "t", "0", "-1"}),
            RespArray({RespBulk("c"), RespBulk("b"), RespBulk("a")}));
  EXPECT_EQ(Run({"ZRANK", "t", "a"}), RespInt(2));
  EXPECT_EQ(Run({"LB.INFO", "t"}),
            RespArray({RespBulk("board"), RespInt(1), RespBulk("order"), RespBulk("asc"),
                       RespBulk("ties"), RespBulk("last"), RespBulk("size"), RespInt(3),
                       RespBulk("distinct"), RespInt(2), RespBulk("next-seq"), RespInt(4)}));
  EXPECT_EQ(Run({"TYPE", "t"}), RespSimple("zset"));
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "t"}), RespBulk("skiplist"));
}

TEST_F(LeaderboardTest, AroundRanksPercentileRankForScoreAt) {
  for (int i = 1; i <= 9; ++i) {
    Run({"LB.ADD", "b", std::to_string(i * 10), "p" + std::to_string(i)});
  }
  // p9 is first; around p8 with 1 row each side; at the top it fills below.
  EXPECT_EQ(Run({"LB.AROUND", "b", "p8", "1"}),
            RespArray({Row(1, "p9", "90"), Row(2, "p8", "80"), Row(3, "p7", "70")}));
  EXPECT_EQ(Run({"LB.AROUND", "b", "p9", "1"}),
            RespArray({Row(1, "p9", "90"), Row(2, "p8", "80"), Row(3, "p7", "70")}));
  EXPECT_EQ(Run({"LB.AROUND", "b", "p1", "1"}),
            RespArray({Row(7, "p3", "30"), Row(8, "p2", "20"), Row(9, "p1", "10")}));
  EXPECT_EQ(Run({"LB.AROUND", "b", "ghost", "1"}), RespArray({}));
  EXPECT_EQ(Run({"LB.RANKS", "b", "p2", "p7", "ghost", "p5"}),
            RespArray({RespArray({RespInt(1), RespBulk("p7"), RespBulk("70"), RespInt(3)}),
                       RespArray({RespInt(2), RespBulk("p5"), RespBulk("50"), RespInt(5)}),
                       RespArray({RespInt(3), RespBulk("p2"), RespBulk("20"), RespInt(8)})}));
  EXPECT_EQ(Run({"LB.PERCENTILE", "b", "p5"}), RespBulk("50"));
  EXPECT_EQ(Run({"LB.PERCENTILE", "b", "ghost"}), RespNull());
  EXPECT_EQ(Run({"LB.RANKFOR", "b", "50"}), RespInt(6));  // after p5, who got there first
  EXPECT_EQ(Run({"LB.RANKFOR", "b", "50", "MODE", "COMPETITION"}), RespInt(5));
  EXPECT_EQ(Run({"LB.RANKFOR", "b", "55", "MODE", "DENSE"}), RespInt(5));
  EXPECT_EQ(Run({"LB.SCOREAT", "b", "3"}), RespBulk("70"));
  EXPECT_EQ(Run({"LB.SCOREAT", "b", "10"}), RespNull());
  EXPECT_EQ(Run({"LB.RANK", "missing", "x"}), RespNull());
  EXPECT_EQ(Run({"LB.TOP", "missing", "3"}), RespArray({}));
}

TEST_F(LeaderboardTest, Errors) {
  Run({"SET", "s", "v"});
  EXPECT_EQ(Run({"LB.ADD", "s", "1", "a"}), RespErr(err::kWrongType));
  EXPECT_EQ(Run({"LB.RANK", "s", "a"}), RespErr(err::kWrongType));
  EXPECT_EQ(Run({"LB.ADD", "k", "x", "a"}), RespErr(err::kNotFloat));
  EXPECT_EQ(Run({"LB.ADD", "k", "NX", "1"}), RespErr(err::kSyntax));
  EXPECT_EQ(Run({"LB.ADD", "k", "NX", "XX", "1", "a"}), RespErr(err::kXXandNX));
  EXPECT_EQ(Run({"LB.ADD", "k", "SET", "INCR", "1", "a"}), RespErr(err::kSyntax));
  EXPECT_EQ(Run({"LB.ADD", "k", "AT", "soon", "1", "a"}), RespErr(err::kNotInteger));
  EXPECT_EQ(Run({"LB.CREATE", "k", "ORDER", "UP"}), RespErr(err::kSyntax));
  EXPECT_EQ(Run({"LB.TOP", "k", "-1"}), RespErr(err::kCountNegative));
  EXPECT_EQ(Run({"LB.TOP", "k", "1", "MODE", "OLYMPIC"}), RespErr(err::kSyntax));
  EXPECT_EQ(Run({"LB.RANGE", "k", "0", "3"}), RespErr(err::kLbRankPositive));
  EXPECT_EQ(Run({"LB.INFO", "k"}), RespErr(err::kNoSuchKey));
  EXPECT_EQ(Run({"LB.ADD", "k", "INCR", "inf", "a", "-inf", "a"}), RespErr(err::kScoreNaN));
  EXPECT_EQ(Run({"EXISTS", "k"}), RespInt(0));  // all or nothing
  Run({"LB.CREATE", "k"});
  EXPECT_EQ(Run({"LB.CREATE", "k"}), RespOk());
  EXPECT_EQ(Run({"LB.CREATE", "k", "TIES", "LAST"}), RespErr(err::kLbPolicyMismatch));
  // A plain sorted set: reads in the default order, DENSE and writes refused.
  Run({"ZADD", "plain", "5", "a", "5", "b", "7", "c"});
  EXPECT_EQ(Run({"LB.TOP", "plain", "3", "MODE", "COMPETITION"}),
            RespArray({Row(1, "c", "7"), Row(2, "b", "5"), Row(2, "a", "5")}));
  EXPECT_EQ(Run({"LB.RANK", "plain", "a", "MODE", "DENSE"}), RespErr(err::kLbPlainDense));
  EXPECT_EQ(Run({"LB.RANKFOR", "plain", "6"}), RespErr(err::kLbPlainOrdinalRankFor));
  EXPECT_EQ(Run({"LB.ADD", "plain", "1", "a"}), RespErr(err::kLbPlainWrite));
  EXPECT_EQ(Run({"LB.CREATE", "plain"}), RespErr(err::kLbPlainCreate));
}

TEST_F(LeaderboardTest, BoardWritesAreLoggedWithExactStamps) {
  CaptureLog log;
  server().set_effect_log(&log);
  Run({"LB.CREATE", "lb", "TIES", "LAST"});
  Run({"LB.ADD", "lb", "AT", "1000", "10", "a", "1.5", "b"});
  Run({"ZADD", "lb", "10", "b"});
  Run({"ZREM", "lb", "a"});
  server().set_effect_log(nullptr);
  ASSERT_EQ(log.lines.size(), 4u);
  EXPECT_EQ(log.lines[0], "LB.CREATE lb TIES LAST");
  EXPECT_EQ(log.lines[1], "LB.LOAD lb ORDER desc TIES last NEXTSEQ 3 10 a 1 1000 1.5 b 2 1000");
  EXPECT_EQ(log.lines[2].rfind("LB.LOAD lb ORDER desc TIES last NEXTSEQ 4 10 b 3 ", 0), 0u);
  EXPECT_EQ(log.lines[3], "ZREM lb a");
  // Replaying LB.LOAD reproduces order and stamps exactly.
  EXPECT_EQ(Run({"LB.LOAD", "copy", "ORDER", "desc", "TIES", "last", "NEXTSEQ", "9", "10", "a",
                 "1", "1000", "10", "b", "3", "2000"}),
            RespInt(2));
  EXPECT_EQ(Run({"ZREVRANGE", "copy", "0", "-1"}), RespArray({RespBulk("b"), RespBulk("a")}));
  EXPECT_EQ(Run({"LB.STAMP", "copy", "b"}), RespArray({RespInt(3), RespInt(2000)}));
  EXPECT_EQ(Run({"LB.ADD", "copy", "11", "c"}).substr(0, 4), "*1\r\n");
  EXPECT_EQ(Run({"LB.STAMP", "copy", "c"}).substr(0, 8), "*2\r\n:9\r\n");
}

TEST_F(LeaderboardTest, CopyAndRenameKeepTheBoard) {
  Run({"LB.CREATE", "lb", "ORDER", "ASC"});
  Run({"LB.ADD", "lb", "3", "a", "3", "b"});
  Run({"COPY", "lb", "lb2"});
  Run({"RENAME", "lb", "lb3"});
  for (const char* k : {"lb2", "lb3"}) {
    EXPECT_EQ(Run({"LB.TOP", k, "5", "MODE", "DENSE"}),
              RespArray({Row(1, "a", "3"), Row(1, "b", "3")}));
    EXPECT_EQ(Run({"LB.STAMP", k, "b"}).substr(0, 8), "*2\r\n:2\r\n");
  }
  // ZPOPMIN on an ASC board takes the board's best.
  EXPECT_EQ(Run({"ZPOPMIN", "lb3"}), RespArray({RespBulk("a"), RespBulk("3")}));
  EXPECT_EQ(Run({"ZREM", "lb3", "b"}), RespInt(1));
  EXPECT_EQ(Run({"EXISTS", "lb3"}), RespInt(0));  // emptied boards go, as sorted sets do
}

}  // namespace
}  // namespace rankd
