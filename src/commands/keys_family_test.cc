// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Generic key commands, OBJECT and MEMORY through the real dispatcher.
// Expected replies and error texts were taken from redis-server 7.0.15.

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "commands/test_util.h"

namespace rankd {
namespace {

class KeysFamilyTest : public CommandTest {
 protected:
  void MakeSet(std::string_view key, std::initializer_list<std::string_view> members) {
    auto set = std::make_unique<PlainSet>();
    for (std::string_view m : members) (void)set->Add(m, PlainSetLimits{});
    db().Insert(key, Value(std::move(set)));
  }
  // Parses a RESP2 "*2 cursor, *n keys" SCAN reply. Enough RESP for tests.
  static uint64_t ParseScan(const std::string& reply, std::vector<std::string>* keys) {
    size_t pos = reply.find('$');
    size_t eol = reply.find("\r\n", pos);
    uint64_t cursor = std::stoull(reply.substr(eol + 2, reply.find("\r\n", eol + 2) - eol - 2));
    pos = reply.find('*', eol);
    while ((pos = reply.find('$', pos)) != std::string::npos) {
      eol = reply.find("\r\n", pos);
      size_t len = std::stoul(reply.substr(pos + 1, eol - pos - 1));
      keys->push_back(reply.substr(eol + 2, len));
      pos = eol + 2 + len + 2;
    }
    return cursor;
  }
};

TEST_F(KeysFamilyTest, DelExistsTypeTouch) {
  Run({"MSET", "a", "1", "b", "2"});
  MakeSet("s", {"x"});
  EXPECT_EQ(Run({"EXISTS", "a", "a", "nokey", "s"}), RespInt(3));
  EXPECT_EQ(Run({"TYPE", "a"}), RespSimple("string"));
  EXPECT_EQ(Run({"TYPE", "s"}), RespSimple("set"));
  EXPECT_EQ(Run({"TYPE", "nokey"}), RespSimple("none"));
  EXPECT_EQ(Run({"TOUCH", "a", "a", "nokey"}), RespInt(2));
  EXPECT_EQ(Run({"DEL", "a", "a", "nokey"}), RespInt(1));
  EXPECT_EQ(Run({"UNLINK", "b", "s"}), RespInt(2));
  EXPECT_EQ(Run({"DBSIZE"}), RespInt(0));
  EXPECT_EQ(Run({"DEL"}), RespErr("ERR wrong number of arguments for 'del' command"));
}

TEST_F(KeysFamilyTest, KeysGlob) {
  Run({"MSET", "one", "1", "two", "2", "three", "3"});
  EXPECT_EQ(Run({"KEYS", "nomatch*"}), RespArray({}));
  EXPECT_EQ(Run({"KEYS", "t[wx]o"}), RespArray({RespBulk("two")}));
  std::string all = Run({"KEYS", "*"});
  EXPECT_TRUE(all.starts_with("*3\r\n")) << all;
}

TEST_F(KeysFamilyTest, ScanArguments) {
  Run({"SET", "a", "1"});
  EXPECT_EQ(Run({"SCAN", "abc"}), RespErr("ERR invalid cursor"));
  EXPECT_EQ(Run({"SCAN", " 0"}), RespErr("ERR invalid cursor"));
  EXPECT_EQ(Run({"SCAN", "18446744073709551616"}), RespErr("ERR invalid cursor"));
  EXPECT_EQ(Run({"SCAN", "0", "COUNT", "0"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"SCAN", "0", "COUNT", "x"}), RespErr("ERR value is not an integer or out of range"));
  EXPECT_EQ(Run({"SCAN", "0", "MATCH"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"SCAN", "0", "FOO", "bar"}), RespErr("ERR syntax error"));
  const std::string one = RespArray({RespBulk("0"), RespArray({RespBulk("a")})});
  EXPECT_EQ(Run({"SCAN", "0"}), one);
  EXPECT_EQ(Run({"SCAN", ""}), one);  // strtoul accepts ""
  EXPECT_EQ(Run({"SCAN", "+0"}), one);
  EXPECT_EQ(Run({"SCAN", "0", "TYPE", "STRING"}), one);
  EXPECT_EQ(Run({"SCAN", "0", "TYPE", "zset"}), RespArray({RespBulk("0"), RespArray({})}));
  EXPECT_EQ(Run({"SCAN", "0", "MATCH", "b*"}), RespArray({RespBulk("0"), RespArray({})}));
}

TEST_F(KeysFamilyTest, ScanFullIterationSeesEveryKeyDespiteWrites) {
  std::set<std::string> stable;
  for (int i = 0; i < 500; i++) {
    std::string k = "key:" + std::to_string(i);
    Run({"SET", k, "v"});
    stable.insert(k);
  }
  std::set<std::string> seen;
  uint64_t cursor = 0;
  int steps = 0, extra = 0;
  do {
    std::vector<std::string> keys;
    cursor = ParseScan(Run({"SCAN", std::to_string(cursor), "COUNT", "7"}), &keys);
    seen.insert(keys.begin(), keys.end());
    // Grow the table between steps so it resizes under the cursor.
    for (int j = 0; j < 20; j++) Run({"SET", "extra:" + std::to_string(extra++), "v"});
    ASSERT_LT(++steps, 10000);
  } while (cursor != 0);
  for (const std::string& k : stable) EXPECT_TRUE(seen.count(k)) << k;
}

TEST_F(KeysFamilyTest, RandomKey) {
  EXPECT_EQ(Run({"RANDOMKEY"}), RespNull());
  Run({"SET", "only", "1"});
  EXPECT_EQ(Run({"RANDOMKEY"}), RespBulk("only"));
}

TEST_F(KeysFamilyTest, Rename) {
  EXPECT_EQ(Run({"RENAME", "nokey", "x"}), RespErr("ERR no such key"));
  EXPECT_EQ(Run({"RENAME", "nokey", "nokey"}), RespErr("ERR no such key"));
  EXPECT_EQ(Run({"RENAMENX", "nokey", "nokey"}), RespErr("ERR no such key"));
  Run({"SET", "a", "1", "EX", "100"});
  EXPECT_EQ(Run({"RENAME", "a", "a"}), RespOk());
  EXPECT_EQ(Run({"RENAMENX", "a", "a"}), RespInt(0));
  EXPECT_EQ(Run({"RENAME", "a", "b"}), RespOk());
  EXPECT_EQ(Run({"EXISTS", "a"}), RespInt(0));
  EXPECT_EQ(Run({"GET", "b"}), RespBulk("1"));
  EXPECT_EQ(Run({"TTL", "b"}), RespInt(100));  // the deadline moves with the key
  Run({"SET", "c", "3"});
  EXPECT_EQ(Run({"RENAMENX", "b", "c"}), RespInt(0));
  EXPECT_EQ(Run({"RENAME", "b", "c"}), RespOk());  // overwrites
  EXPECT_EQ(Run({"GET", "c"}), RespBulk("1"));
  EXPECT_EQ(Run({"TTL", "c"}), RespInt(100));
  EXPECT_EQ(Run({"RENAMENX", "c", "d"}), RespInt(1));
  EXPECT_EQ(Run({"DBSIZE"}), RespInt(1));
}

TEST_F(KeysFamilyTest, Copy) {
  MakeSet("s", {"x"});
  Run({"SET", "a", "1", "EX", "100"});
  EXPECT_EQ(Run({"COPY", "a", "a"}), RespErr("ERR source and destination objects are the same"));
  EXPECT_EQ(Run({"COPY", "a", "b", "DB", "abc"}),
            RespErr("ERR value is not an integer or out of range"));
  EXPECT_EQ(Run({"COPY", "a", "b", "DB", "99999999999"}),
            RespErr("ERR value is out of range, value must between -2147483648 and 2147483647"));
  EXPECT_EQ(Run({"COPY", "a", "b", "DB", "16"}), RespErr("ERR DB index is out of range"));
  EXPECT_EQ(Run({"COPY", "a", "b", "DB", "-1"}), RespErr("ERR DB index is out of range"));
  EXPECT_EQ(Run({"COPY", "a", "b", "FOO"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"COPY", "nokey", "b"}), RespInt(0));
  EXPECT_EQ(Run({"COPY", "a", "b"}), RespInt(1));
  EXPECT_EQ(Run({"TTL", "b"}), RespInt(100));
  EXPECT_EQ(Run({"COPY", "s", "b"}), RespInt(0));
  EXPECT_EQ(Run({"COPY", "s", "b", "REPLACE", "REPLACE"}), RespInt(1));
  EXPECT_EQ(Run({"TYPE", "b"}), RespSimple("set"));
  EXPECT_EQ(Run({"TTL", "b"}), RespInt(-1));
  // A deep copy: changing the copy leaves the source alone.
  ASSERT_TRUE(db().Find("b")->value.set().Add("y", PlainSetLimits{}));
  EXPECT_EQ(db().Find("s")->value.set().size(), 1u);
  EXPECT_EQ(Run({"COPY", "a", "a", "DB", "1"}), RespInt(1));
  EXPECT_EQ(server().db(1).size(), 1u);
}

TEST_F(KeysFamilyTest, MoveAndSwapDb) {
  Run({"SET", "a", "1", "EX", "100"});
  EXPECT_EQ(Run({"MOVE", "a", "0"}), RespErr("ERR source and destination objects are the same"));
  EXPECT_EQ(Run({"MOVE", "a", "abc"}), RespErr("ERR value is not an integer or out of range"));
  EXPECT_EQ(Run({"MOVE", "a", "99"}), RespErr("ERR DB index is out of range"));
  EXPECT_EQ(Run({"MOVE", "nokey", "1"}), RespInt(0));
  EXPECT_EQ(Run({"MOVE", "a", "1"}), RespInt(1));
  EXPECT_EQ(Run({"EXISTS", "a"}), RespInt(0));
  Database::Entry* e = server().db(1).Find("a");
  ASSERT_NE(e, nullptr);
  EXPECT_GT(server().db(1).ExpireMs(e), 0);
  Run({"SET", "a", "0"});
  EXPECT_EQ(Run({"MOVE", "a", "1"}), RespInt(0));  // target exists

  EXPECT_EQ(Run({"SWAPDB", "abc", "0"}), RespErr("ERR invalid first DB index"));
  EXPECT_EQ(Run({"SWAPDB", "0", "99999999999"}), RespErr("ERR invalid second DB index"));
  EXPECT_EQ(Run({"SWAPDB", "0", "99"}), RespErr("ERR DB index is out of range"));
  EXPECT_EQ(Run({"SWAPDB", "1", "1"}), RespOk());
  EXPECT_EQ(Run({"SWAPDB", "0", "1"}), RespOk());
  EXPECT_EQ(Run({"GET", "a"}), RespBulk("1"));
  EXPECT_EQ(Run({"TTL", "a"}), RespInt(100));
}

TEST_F(KeysFamilyTest, Flush) {
  Run({"SET", "a", "1"});
  server().db(1).Insert("b", Value(std::string("2")));
  EXPECT_EQ(Run({"FLUSHDB", "foo"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"FLUSHALL", "SYNC", "x"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"FLUSHDB", "ASYNC"}), RespOk());
  EXPECT_EQ(Run({"DBSIZE"}), RespInt(0));
  EXPECT_EQ(server().db(1).size(), 1u);
  EXPECT_EQ(Run({"FLUSHALL"}), RespOk());
  EXPECT_EQ(server().db(1).size(), 0u);
}

TEST_F(KeysFamilyTest, Object) {
  Run({"SET", "i", "123"});
  Run({"SET", "big", "10000"});
  Run({"SET", "e", "abc"});
  Run({"SET", "r", std::string(45, 'x')});
  MakeSet("s", {"1"});
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "i"}), RespBulk("int"));
  EXPECT_EQ(Run({"OBJECT", "encoding", "e"}), RespBulk("embstr"));
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "r"}), RespBulk("raw"));
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "s"}), RespBulk("intset"));
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "nokey"}), RespNull());
  EXPECT_EQ(Run({"OBJECT", "REFCOUNT", "i"}), RespInt(2147483647));
  EXPECT_EQ(Run({"OBJECT", "REFCOUNT", "big"}), RespInt(1));
  EXPECT_EQ(Run({"OBJECT", "REFCOUNT", "e"}), RespInt(1));
  EXPECT_EQ(Run({"OBJECT", "IDLETIME", "e"}), RespInt(0));
  EXPECT_EQ(Run({"OBJECT", "FREQ", "e"}),
            RespErr("ERR An LFU maxmemory policy is not selected, access frequency not tracked. "
                    "Please note that when switching between policies at runtime LRU and LFU "
                    "data will take some time to adjust."));
  EXPECT_EQ(Run({"OBJECT", "FREQ", "nokey"}), RespNull());
  EXPECT_EQ(Run({"OBJECT"}), RespErr("ERR wrong number of arguments for 'object' command"));
  EXPECT_EQ(Run({"OBJECT", "ENCODING"}),
            RespErr("ERR wrong number of arguments for 'object|encoding' command"));
  EXPECT_EQ(Run({"OBJECT", "HELP", "x"}),
            RespErr("ERR wrong number of arguments for 'object|help' command"));
  EXPECT_EQ(Run({"OBJECT", "foo"}), RespErr("ERR unknown subcommand 'foo'. Try OBJECT HELP."));
  std::string help = Run({"OBJECT", "HELP"});
  EXPECT_TRUE(help.starts_with(
      "*15\r\n+OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"))
      << help;
  EXPECT_TRUE(help.ends_with("+HELP\r\n+    Prints this help.\r\n"));
}

TEST_F(KeysFamilyTest, LfuPolicyChangesObjectErrors) {
  Run({"CONFIG", "SET", "maxmemory-policy", "allkeys-lfu"});
  Run({"SET", "k", "v"});
  EXPECT_EQ(Run({"OBJECT", "FREQ", "k"}), RespInt(5));
  EXPECT_TRUE(Run({"OBJECT", "IDLETIME", "k"}).starts_with("-ERR An LFU maxmemory policy is selected"));
}

TEST_F(KeysFamilyTest, Memory) {
  Run({"SET", "k", "v"});
  std::string usage = Run({"MEMORY", "USAGE", "k"});
  EXPECT_EQ(usage[0], ':');
  EXPECT_GT(std::stoll(usage.substr(1)), 0);
  EXPECT_EQ(Run({"MEMORY", "USAGE", "k", "SAMPLES", "0"}), usage);
  EXPECT_EQ(Run({"MEMORY", "USAGE", "k", "SAMPLES"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"MEMORY", "USAGE", "k", "SAMPLES", "-1"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"MEMORY", "USAGE", "nokey"}), RespNull());
  EXPECT_EQ(Run({"MEMORY", "USAGE", "nokey", "foo"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"MEMORY", "USAGE"}),
            RespErr("ERR wrong number of arguments for 'memory|usage' command"));
  EXPECT_EQ(Run({"MEMORY", "foo"}), RespErr("ERR unknown subcommand 'foo'. Try MEMORY HELP."));
  EXPECT_EQ(Run({"MEMORY", "PURGE"}), RespOk());
  EXPECT_EQ(Run({"MEMORY", "STATS", "x"}),
            RespErr("ERR wrong number of arguments for 'memory|stats' command"));
  // 27 fields plus one per non-empty database (db.0 here), each a pair.
  std::string stats = Run({"MEMORY", "STATS"});
  EXPECT_TRUE(stats.starts_with("*56\r\n$14\r\npeak.allocated\r\n")) << stats;
  EXPECT_NE(stats.find("$4\r\ndb.0\r\n*4\r\n$23\r\noverhead.hashtable.main\r\n"),
            std::string::npos);
  EXPECT_NE(stats.find("$10\r\nkeys.count\r\n:1\r\n"), std::string::npos);
  EXPECT_TRUE(Run({"MEMORY", "HELP"}).starts_with("*14\r\n+MEMORY <subcommand>"));
}

TEST_F(KeysFamilyTest, WritesTouchWatchers) {
  Watcher w;
  db().Watch("a", &w);
  Run({"SET", "b", "1"});
  Run({"EXISTS", "a"});
  EXPECT_FALSE(w.dirty);
  Run({"RENAME", "b", "a"});
  EXPECT_TRUE(w.dirty);
  w.dirty = false;
  Run({"MOVE", "a", "1"});
  EXPECT_TRUE(w.dirty);
  w.dirty = false;
  Run({"COPY", "a", "a", "DB", "1"});  // source db 0 has no "a" now
  EXPECT_FALSE(w.dirty);
  Run({"SET", "c", "1"});
  Run({"COPY", "c", "a"});
  EXPECT_TRUE(w.dirty);
  w.dirty = false;
  Run({"DEL", "a"});
  EXPECT_TRUE(w.dirty);
  db().Unwatch("a", &w);
}

}  // namespace
}  // namespace rankd
