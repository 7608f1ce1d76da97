// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Store commands into a leaderboard (server/lb_store.h): the result stays a
// board with the destination's policy, unchanged members keep their stamps,
// changed and new ones take new sequences in the result's ascending order,
// and the log (DEL + LB.LOAD) replays to exactly the same board. Plain
// destinations keep Redis's behaviour.

#include "commands/lb_store.h"

#include <string>
#include <vector>

#include "commands/test_util.h"

namespace rankd {
namespace {

// Records every logged command, argument by argument.
class CaptureLog : public EffectLog {
 public:
  void Append(int db, std::span<const std::string_view> args) override {
    commands.emplace_back(args.begin(), args.end());
  }
  std::vector<std::vector<std::string>> commands;
};

std::string Stamp(int64_t seq, int64_t ms) { return RespArray({RespInt(seq), RespInt(ms)}); }

TEST(RestampedBoardTest, KeepsUnchangedStampsAndNumbersTheRestInAscendingOrder) {
  auto old = SortedSet::NewBoard({BoardOrder::kAsc, BoardTies::kLast});
  old->BoardPut("a", 5, {1, 100});
  old->BoardPut("b", 3, {2, 200});
  old->BoardPut("c", 7, {3, 300});
  old->BoardRaiseNextSeq(10);  // seqs 4..9 were taken by removed members
  const ScoredMembers result = {{"d", 4}, {"a", 5}, {"e", 1}, {"b", 4}};
  auto z = RestampedBoard(*old, result, 999);
  ASSERT_NE(z->board(), nullptr);
  EXPECT_EQ(*z->board(), (BoardPolicy{BoardOrder::kAsc, BoardTies::kLast}));
  EXPECT_EQ(z->size(), 4u);
  EXPECT_EQ(z->BoardStampOf("a"), (BoardStamp{1, 100}));  // same score: kept
  EXPECT_EQ(z->BoardStampOf("e"), (BoardStamp{10, 999}));  // new, lowest score
  EXPECT_EQ(z->BoardStampOf("b"), (BoardStamp{11, 999}));  // changed 3 -> 4
  EXPECT_EQ(z->BoardStampOf("d"), (BoardStamp{12, 999}));  // new at 4, after "b"
  EXPECT_FALSE(z->BoardStampOf("c").has_value());
  EXPECT_EQ(z->BoardNextSeq(), 13u);
  EXPECT_EQ(z->CheckInvariants(), "");
}

TEST(RestampedBoardTest, NegativeZeroEqualsZeroAndKeepsTheStamp) {
  auto old = SortedSet::NewBoard({});
  old->BoardPut("a", 0.0, {4, 7});
  old->BoardRaiseNextSeq(5);
  auto z = RestampedBoard(*old, {{"a", -0.0}}, 1);
  EXPECT_EQ(z->BoardStampOf("a"), (BoardStamp{4, 7}));
  EXPECT_EQ(z->BoardNextSeq(), 5u);
}

// LB.INFO's reply (RESP2) for a board.
std::string Info(std::string_view order, std::string_view ties, int64_t size, int64_t distinct,
                 int64_t next_seq) {
  return "*12\r\n" + RespBulk("board") + RespInt(1) + RespBulk("order") + RespBulk(order) +
         RespBulk("ties") + RespBulk(ties) + RespBulk("size") + RespInt(size) +
         RespBulk("distinct") + RespInt(distinct) + RespBulk("next-seq") + RespInt(next_seq);
}

// The first element of LB.STAMP's reply: the member's sequence.
std::string SeqOf(int64_t seq) { return "*2\r\n" + RespInt(seq); }

class LbStoreTest : public CommandTest {
 protected:
  std::string Seq(std::string_view key, std::string_view member) {
    std::string r = Run({"LB.STAMP", key, member});
    return r.substr(0, r.find("\r\n", 4) + 2);
  }
  // Everything replay must reproduce: policy, counter, order, stamps.
  std::string State(std::string_view key) {
    std::string out = Run({"TYPE", key}) + Run({"LB.INFO", key}) +
                      Run({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    for (const char* m : {"a", "b", "c", "d", "e", "x"}) out += Run({"LB.STAMP", key, m});
    return out;
  }
};

TEST_F(LbStoreTest, EveryStoreCommandIntoABoardKeepsItABoard) {
  Run({"LB.CREATE", "lb", "TIES", "LAST"});
  Run({"LB.ADD", "lb", "AT", "1000", "5", "a", "5", "b", "1", "c"});  // seqs 1, 2, 3
  Run({"ZADD", "in", "5", "a", "7", "b", "9", "x"});
  // a and c keep their scores (and stamps), b moves 5 -> 7, x is new: b then
  // x take 4 and 5 (ascending result order).
  EXPECT_EQ(Run({"ZUNIONSTORE", "lb", "2", "lb", "in", "AGGREGATE", "MAX"}), RespInt(4));
  EXPECT_EQ(Run({"LB.STAMP", "lb", "a"}), Stamp(1, 1000));
  EXPECT_EQ(Run({"LB.STAMP", "lb", "c"}), Stamp(3, 1000));
  EXPECT_EQ(Seq("lb", "b"), SeqOf(4));
  EXPECT_EQ(Seq("lb", "x"), SeqOf(5));
  EXPECT_EQ(Run({"LB.INFO", "lb"}), Info("desc", "last", 4, 4, 6));
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "lb"}), RespBulk("skiplist"));
  EXPECT_EQ(Run({"ZREVRANGE", "lb", "0", "-1"}),
            RespArray({RespBulk("x"), RespBulk("b"), RespBulk("a"), RespBulk("c")}));

  // Every score changes (x2): a 10, b 14, x 18 take 6, 7, 8; c is dropped.
  EXPECT_EQ(Run({"ZINTERSTORE", "lb", "2", "lb", "in", "WEIGHTS", "2", "0"}), RespInt(3));
  EXPECT_EQ(Seq("lb", "a"), SeqOf(6));
  EXPECT_EQ(Seq("lb", "b"), SeqOf(7));
  EXPECT_EQ(Seq("lb", "x"), SeqOf(8));
  EXPECT_EQ(Run({"LB.STAMP", "lb", "c"}), RespNull());

  // Nothing changes: every stamp and the counter stay.
  const std::string before = State("lb");
  EXPECT_EQ(Run({"ZDIFFSTORE", "lb", "2", "lb", "nothing"}), RespInt(3));
  EXPECT_EQ(State("lb"), before);
  EXPECT_EQ(Run({"ZUNIONSTORE", "lb", "1", "lb"}), RespInt(3));
  EXPECT_EQ(State("lb"), before);

  EXPECT_EQ(Run({"ZRANGESTORE", "lb", "lb", "0", "1"}), RespInt(2));  // a 10, b 14
  EXPECT_EQ(Seq("lb", "a"), SeqOf(6));
  EXPECT_EQ(Run({"LB.STAMP", "lb", "x"}), RespNull());
  EXPECT_EQ(Run({"LB.INFO", "lb"}), Info("desc", "last", 2, 2, 9));
}

TEST_F(LbStoreTest, EqualScoresFromTheStoreTieInAscendingMemberOrder) {
  Run({"LB.CREATE", "lb"});  // DESC, FIRST
  Run({"LB.ADD", "lb", "1", "old"});
  Run({"ZADD", "in", "3", "c", "3", "a", "3", "b"});
  EXPECT_EQ(Run({"ZUNIONSTORE", "lb", "1", "in"}), RespInt(3));
  // a, b, c reached 3 in that order: FIRST ranks a first.
  EXPECT_EQ(Run({"ZREVRANGE", "lb", "0", "-1"}),
            RespArray({RespBulk("a"), RespBulk("b"), RespBulk("c")}));
  EXPECT_EQ(Seq("lb", "a"), SeqOf(2));
  EXPECT_EQ(Seq("lb", "c"), SeqOf(4));
}

TEST_F(LbStoreTest, EmptyResultDeletesTheBoard) {
  Run({"LB.CREATE", "lb"});
  Run({"LB.ADD", "lb", "1", "a"});
  EXPECT_EQ(Run({"ZINTERSTORE", "lb", "2", "lb", "missing"}), RespInt(0));
  EXPECT_EQ(Run({"EXISTS", "lb"}), RespInt(0));
  // An empty board (LB.CREATE) is a board too: a non-empty store keeps it one.
  Run({"LB.CREATE", "e", "ORDER", "ASC"});
  Run({"ZADD", "in", "2", "a"});
  EXPECT_EQ(Run({"ZRANGESTORE", "e", "in", "0", "-1"}), RespInt(1));
  EXPECT_EQ(Run({"LB.INFO", "e"}), Info("asc", "first", 1, 1, 2));
  EXPECT_EQ(Seq("e", "a"), SeqOf(1));
}

TEST_F(LbStoreTest, PlainDestinationsStayPlain) {
  Run({"ZADD", "p", "1", "a"});
  Run({"LB.CREATE", "lb"});
  Run({"LB.ADD", "lb", "5", "a"});
  // A board as a source does not make the destination a board.
  EXPECT_EQ(Run({"ZUNIONSTORE", "p", "1", "lb"}), RespInt(1));
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "p"}), RespBulk("listpack"));
  EXPECT_EQ(Run({"LB.STAMP", "p", "a"}).substr(0, 1), "-");
  EXPECT_EQ(Run({"ZRANGESTORE", "new", "lb", "0", "-1"}), RespInt(1));
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "new"}), RespBulk("listpack"));
  Run({"SET", "s", "v"});
  EXPECT_EQ(Run({"ZUNIONSTORE", "s", "1", "lb"}), RespInt(1));  // any type is replaced
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "s"}), RespBulk("listpack"));
}

TEST_F(LbStoreTest, LoggedAsDelAndLoadThatReplayExactly) {
  CaptureLog log;
  server().set_effect_log(&log);
  Run({"LB.CREATE", "lb", "ORDER", "ASC"});
  Run({"LB.ADD", "lb", "AT", "1000", "5", "a", "5", "b", "1", "c", "3", "d"});
  Run({"ZADD", "in", "5", "a", "2", "b", "4", "e"});
  Run({"ZUNIONSTORE", "lb", "2", "lb", "in", "AGGREGATE", "MIN"});  // b 2, e 4: 5 and 6
  Run({"ZADD", "plain", "1", "x"});
  Run({"ZUNIONSTORE", "plain", "2", "plain", "in"});  // plain: logged as received
  Run({"ZRANGESTORE", "lb", "lb", "1", "-1"});        // drops c, keeps every stamp
  Run({"LB.ADD", "gone", "1", "a"});
  Run({"ZDIFFSTORE", "gone", "2", "gone", "gone"});  // empty: deletes, as received
  Run({"LB.ADD", "lb2", "1", "a"});
  Run({"ZINTERSTORE", "lb2", "2", "lb2", "in", "WEIGHTS", "0", "1"});
  server().set_effect_log(nullptr);
  const auto& c = log.commands;
  ASSERT_EQ(c.size(), 14u);
  EXPECT_EQ(c[3], (std::vector<std::string>{"DEL", "lb"}));
  EXPECT_EQ(c[4], (std::vector<std::string>{"LB.LOAD", "lb", "ORDER", "asc", "TIES", "first",
                                            "NEXTSEQ", "7", "1", "c", "3", "1000", "2", "b",
                                            "5", c[4][15], "3", "d", "4", "1000", "4", "e",
                                            "6", c[4][23], "5", "a", "1", "1000"}));
  EXPECT_EQ(c[6][0], "ZUNIONSTORE");
  EXPECT_EQ(c[7], (std::vector<std::string>{"DEL", "lb"}));
  EXPECT_EQ(c[8].size(), 8u + 4 * 4);
  EXPECT_EQ(c[10][0], "ZDIFFSTORE");
  EXPECT_EQ(c[12], (std::vector<std::string>{"DEL", "lb2"}));
  EXPECT_EQ(c[13][0], "LB.LOAD");

  const std::string lb = State("lb"), lb2 = State("lb2"), plain = State("plain");
  EXPECT_EQ(Run({"LB.INFO", "lb"}), Info("asc", "first", 4, 4, 7));
  EXPECT_EQ(Run({"EXISTS", "gone"}), RespInt(0));
  EXPECT_EQ(Run({"FLUSHALL"}), RespOk());
  for (const auto& cmd : c) Run(cmd);
  EXPECT_EQ(State("lb"), lb);
  EXPECT_EQ(State("lb2"), lb2);
  EXPECT_EQ(State("plain"), plain);
  EXPECT_EQ(Run({"EXISTS", "gone"}), RespInt(0));
  EXPECT_EQ(Run({"LB.INFO", "lb2"}), Info("desc", "first", 1, 1, 3));
}

}  // namespace
}  // namespace rankd
