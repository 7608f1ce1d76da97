// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Set commands through the real dispatcher, under both encodings (intset with
// the default limit, hashtable with set-max-intset-entries 2 or with
// non-integer members). Expected replies were checked against redis-server
// 7.0; only intset replies have a defined order, so hashtable replies are
// compared as sets.

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "commands/test_util.h"
#include "gtest/gtest.h"

namespace rankd {
namespace {

std::string Bulks(std::initializer_list<std::string_view> items, char header = '*') {
  std::string out = header + std::to_string(items.size()) + "\r\n";
  for (std::string_view s : items) out += RespBulk(s);
  return out;
}

// The bulk strings of a flat array / set reply, sorted.
std::vector<std::string> Sorted(const std::string& r) {
  std::vector<std::string> out;
  size_t p = r.find("\r\n") + 2;
  while (p < r.size()) {
    size_t e = r.find("\r\n", p);
    size_t n = std::stoul(r.substr(p + 1, e - p - 1));
    out.push_back(r.substr(e + 2, n));
    p = e + 2 + n + 2;
  }
  std::sort(out.begin(), out.end());
  return out;
}

using Strings = std::vector<std::string>;

class SetTest : public CommandTest {
 protected:
  std::string Encoding(std::string_view key) {
    const Database::Entry* e = db().Peek(key);
    return e ? std::string(e->value.EncodingName()) : "none";
  }
};

TEST_F(SetTest, AddRemoveAndMembership) {
  EXPECT_EQ(Run({"SADD", "s", "3", "1", "2", "1"}), RespInt(3));
  EXPECT_EQ(Encoding("s"), "intset");
  EXPECT_EQ(Run({"SMEMBERS", "s"}), Bulks({"1", "2", "3"}));  // intsets list in order
  EXPECT_EQ(Run({"SCARD", "s"}), RespInt(3));
  EXPECT_EQ(Run({"SISMEMBER", "s", "2"}), RespInt(1));
  EXPECT_EQ(Run({"SISMEMBER", "s", "02"}), RespInt(0));
  EXPECT_EQ(Run({"SMISMEMBER", "s", "1", "9"}), "*2\r\n" + RespInt(1) + RespInt(0));
  EXPECT_EQ(Run({"SADD", "s", "x"}), RespInt(1));
  EXPECT_EQ(Encoding("s"), "hashtable");
  EXPECT_EQ(Sorted(Run({"SMEMBERS", "s"})), (Strings{"1", "2", "3", "x"}));
  EXPECT_EQ(Run({"SREM", "s", "1", "9", "x"}), RespInt(2));
  EXPECT_EQ(Run({"SREM", "s", "2", "3"}), RespInt(2));
  EXPECT_EQ(Encoding("s"), "none");  // emptied: deleted
  EXPECT_EQ(Run({"SCARD", "s"}), RespInt(0));
  EXPECT_EQ(Run({"SMEMBERS", "s"}), "*0\r\n");
  EXPECT_EQ(Run({"SISMEMBER", "s", "1"}), RespInt(0));
  Run({"SET", "str", "v"});
  EXPECT_EQ(Run({"SADD", "str", "1"}),
            RespErr("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_EQ(Run({"ZADD", "z", "1", "a"}), RespInt(1));
  EXPECT_EQ(Run({"SCARD", "z"}),
            RespErr("WRONGTYPE Operation against a key holding the wrong kind of value"));
}

TEST_F(SetTest, IntsetLimitConverts) {
  ASSERT_EQ(Run({"CONFIG", "SET", "set-max-intset-entries", "2"}), RespOk());
  Run({"SADD", "s", "1", "2"});
  EXPECT_EQ(Encoding("s"), "intset");
  Run({"SADD", "s", "3"});
  EXPECT_EQ(Encoding("s"), "hashtable");
  EXPECT_EQ(Sorted(Run({"SMEMBERS", "s"})), (Strings{"1", "2", "3"}));
}

TEST_F(SetTest, Algebra) {
  Run({"SADD", "a", "1", "2", "3", "4"});
  Run({"SADD", "b", "3", "4", "5"});
  Run({"SADD", "c", "x", "4"});
  EXPECT_EQ(Run({"SINTER", "a", "b"}), Bulks({"3", "4"}));
  EXPECT_EQ(Run({"SUNION", "a", "b"}), Bulks({"1", "2", "3", "4", "5"}));
  EXPECT_EQ(Run({"SDIFF", "a", "b"}), Bulks({"1", "2"}));
  EXPECT_EQ(Run({"SDIFF", "a", "a"}), "*0\r\n");
  EXPECT_EQ(Run({"SINTER", "a", "missing"}), "*0\r\n");
  EXPECT_EQ(Sorted(Run({"SUNION", "a", "c", "missing"})), (Strings{"1", "2", "3", "4", "x"}));
  EXPECT_EQ(Run({"SINTERCARD", "3", "a", "b", "c"}), RespInt(1));
  EXPECT_EQ(Run({"SINTERCARD", "2", "a", "b", "LIMIT", "1"}), RespInt(1));
  EXPECT_EQ(Run({"SINTERCARD", "0", "a"}), RespErr("ERR numkeys should be greater than 0"));
  EXPECT_EQ(Run({"SINTERCARD", "3", "a"}),
            RespErr("ERR Number of keys can't be greater than number of args"));
  EXPECT_EQ(Run({"SINTERCARD", "1", "a", "LIMIT", "x"}), RespErr("ERR LIMIT can't be negative"));
  EXPECT_EQ(Run({"SINTERSTORE", "d", "a", "b"}), RespInt(2));
  EXPECT_EQ(Run({"SMEMBERS", "d"}), Bulks({"3", "4"}));
  EXPECT_EQ(Run({"SUNIONSTORE", "a", "a", "b"}), RespInt(5));  // dst is an input
  EXPECT_EQ(Run({"SDIFFSTORE", "d", "b", "a"}), RespInt(0));
  EXPECT_EQ(Encoding("d"), "none");
  Run({"SET", "str", "v"});
  EXPECT_EQ(Run({"SINTER", "missing", "str"}),
            RespErr("WRONGTYPE Operation against a key holding the wrong kind of value"));
  // Sets feed the sorted-set algebra with score 1 (the friends-board pattern).
  Run({"ZADD", "board", "10", "alice", "20", "bob", "30", "carol"});
  Run({"SADD", "friends", "alice", "carol", "dave"});
  EXPECT_EQ(Run({"ZINTERSTORE", "fb", "2", "board", "friends", "WEIGHTS", "1", "0"}), RespInt(2));
  EXPECT_EQ(Run({"ZREVRANGE", "fb", "0", "-1", "WITHSCORES"}),
            Bulks({"carol", "30", "alice", "10"}));
}

TEST_F(SetTest, MoveAndPop) {
  Run({"SADD", "a", "1", "2"});
  EXPECT_EQ(Run({"SMOVE", "a", "b", "1"}), RespInt(1));
  EXPECT_EQ(Run({"SMOVE", "a", "b", "9"}), RespInt(0));
  EXPECT_EQ(Run({"SMOVE", "a", "a", "2"}), RespInt(1));
  EXPECT_EQ(Run({"SMOVE", "a", "b", "2"}), RespInt(1));
  EXPECT_EQ(Encoding("a"), "none");
  EXPECT_EQ(Run({"SMEMBERS", "b"}), Bulks({"1", "2"}));
  EXPECT_EQ(Run({"SMOVE", "nokey", "b", "1"}), RespInt(0));
  Run({"SET", "str", "v"});
  EXPECT_EQ(Run({"SMOVE", "b", "str", "1"}),
            RespErr("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_EQ(Run({"SPOP", "b", "-1"}), RespErr("ERR value is out of range, must be positive"));
  EXPECT_EQ(Run({"SPOP", "b", "0"}), "*0\r\n");
  std::string one = Run({"SPOP", "b"});
  EXPECT_TRUE(one == RespBulk("1") || one == RespBulk("2"));
  EXPECT_EQ(Run({"SCARD", "b"}), RespInt(1));
  EXPECT_EQ(Run({"SPOP", "b", "5"}).substr(0, 4), "*1\r\n");
  EXPECT_EQ(Encoding("b"), "none");
  EXPECT_EQ(Run({"SPOP", "b"}), RespNull());
  Run({"SADD", "r", "1", "2", "3"});
  EXPECT_EQ(Run({"SRANDMEMBER", "r", "10"}), Bulks({"1", "2", "3"}));
  EXPECT_EQ(Run({"SRANDMEMBER", "r", "-5"}).substr(0, 4), "*5\r\n");
  EXPECT_EQ(Run({"SRANDMEMBER", "r", "2"}).substr(0, 4), "*2\r\n");
  EXPECT_EQ(Run({"SRANDMEMBER", "r", "x"}),
            RespErr("ERR value is not an integer or out of range"));
  EXPECT_EQ(Run({"SRANDMEMBER", "nokey"}), RespNull());
  EXPECT_EQ(Run({"SRANDMEMBER", "nokey", "2"}), "*0\r\n");
  SetResp(3);
  EXPECT_EQ(Run({"SMEMBERS", "r"}), Bulks({"1", "2", "3"}, '~'));
  EXPECT_EQ(Run({"SPOP", "nokey", "2"}), "~0\r\n");
}

TEST_F(SetTest, Scan) {
  std::vector<std::string> args = {"SADD", "s"};
  for (int i = 0; i < 200; i++) args.push_back("m" + std::to_string(i));
  Run(args);
  std::set<std::string> seen;
  std::string cursor = "0";
  for (int calls = 0; calls < 1000; calls++) {
    std::string r = Run(std::vector<std::string>{"SSCAN", "s", cursor, "COUNT", "20"});
    size_t p = r.find("\r\n", 4);
    size_t len = std::stoul(r.substr(5, p - 5));
    cursor = r.substr(p + 2, len);
    for (const std::string& m : Sorted(r.substr(p + 2 + len + 2))) seen.insert(m);
    if (cursor == "0") break;
  }
  EXPECT_EQ(seen.size(), 200u);
  Run({"SADD", "i", "1", "2", "10"});
  EXPECT_EQ(Run({"SSCAN", "i", "0", "MATCH", "1*"}),
            "*2\r\n" + RespBulk("0") + Bulks({"1", "10"}));
  EXPECT_EQ(Run({"SSCAN", "i", "x"}), RespErr("ERR invalid cursor"));
  EXPECT_EQ(Run({"SSCAN", "i", "0", "COUNT"}), RespErr("ERR syntax error"));
}

}  // namespace
}  // namespace rankd
