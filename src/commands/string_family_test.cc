// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// String commands through the real dispatcher. Expected replies and error
// texts were taken from redis-server 7.0.15.

#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "commands/test_util.h"

namespace rankd {
namespace {

constexpr std::string_view kWrongType =
    "WRONGTYPE Operation against a key holding the wrong kind of value";

// Records every effect the server logs.
class RecordingLog : public EffectLog {
 public:
  void Append(int db, std::span<const std::string_view> args) override {
    std::string line;
    for (std::string_view a : args) line += std::string(a) + " ";
    if (!line.empty()) line.pop_back();
    lines.push_back(line);
  }
  std::vector<std::string> lines;
};

class StringFamilyTest : public CommandTest {
 protected:
  // A key holding a set, for WRONGTYPE checks.
  void MakeSet(std::string_view key) {
    auto set = std::make_unique<PlainSet>();
    (void)set->Add("m", PlainSetLimits{});
    db().Insert(key, Value(std::move(set)));
  }
};

TEST_F(StringFamilyTest, GetSet) {
  EXPECT_EQ(Run({"GET", "k"}), RespNull());
  EXPECT_EQ(Run({"SET", "k", "v"}), RespOk());
  EXPECT_EQ(Run({"GET", "k"}), RespBulk("v"));
  EXPECT_EQ(Run({"SET", "k", ""}), RespOk());
  EXPECT_EQ(Run({"GET", "k"}), RespBulk(""));
  MakeSet("s");
  EXPECT_EQ(Run({"GET", "s"}), RespErr(kWrongType));
  EXPECT_EQ(Run({"SET", "s", "x"}), RespOk());  // SET replaces any type
  EXPECT_EQ(Run({"GET", "s"}), RespBulk("x"));
  EXPECT_EQ(Run({"GET"}), RespErr("ERR wrong number of arguments for 'get' command"));
}

TEST_F(StringFamilyTest, SetConditionsAndGet) {
  EXPECT_EQ(Run({"SET", "k", "1", "XX"}), RespNull());
  EXPECT_EQ(Run({"SET", "k", "1", "NX"}), RespOk());
  EXPECT_EQ(Run({"SET", "k", "2", "NX"}), RespNull());
  EXPECT_EQ(Run({"SET", "k", "2", "xx", "GET"}), RespBulk("1"));
  EXPECT_EQ(Run({"SET", "k", "3", "NX", "GET"}), RespBulk("2"));  // 7.0: NX+GET allowed
  EXPECT_EQ(Run({"GET", "k"}), RespBulk("2"));
  EXPECT_EQ(Run({"SET", "n", "1", "GET"}), RespNull());
  EXPECT_EQ(Run({"GET", "n"}), RespBulk("1"));
  MakeSet("s");
  EXPECT_EQ(Run({"SET", "s", "v", "GET"}), RespErr(kWrongType));
}

TEST_F(StringFamilyTest, SetSyntaxErrors) {
  const std::string syntax = RespErr("ERR syntax error");
  EXPECT_EQ(Run({"SET", "k", "v", "NX", "XX"}), syntax);
  EXPECT_EQ(Run({"SET", "k", "v", "EX", "10", "PX", "100"}), syntax);
  EXPECT_EQ(Run({"SET", "k", "v", "KEEPTTL", "EX", "10"}), syntax);
  EXPECT_EQ(Run({"SET", "k", "v", "EX"}), syntax);
  EXPECT_EQ(Run({"SET", "k", "v", "PERSIST"}), syntax);
  EXPECT_EQ(Run({"SET", "k", "v", "FOO"}), syntax);
  EXPECT_EQ(Run({"GET", "k"}), RespNull());
  EXPECT_EQ(Run({"SET", "k", "v", "EX", "10", "EX", "20"}), RespOk());  // last one wins
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(20));
}

TEST_F(StringFamilyTest, SetExpireValidation) {
  EXPECT_EQ(Run({"SET", "k", "v", "EX", "0"}),
            RespErr("ERR invalid expire time in 'set' command"));
  EXPECT_EQ(Run({"SET", "k", "v", "px", "-1"}),
            RespErr("ERR invalid expire time in 'set' command"));
  EXPECT_EQ(Run({"SET", "k", "v", "EX", "abc"}),
            RespErr("ERR value is not an integer or out of range"));
  EXPECT_EQ(Run({"SET", "k", "v", "EX", "9223372036854775"}),
            RespErr("ERR invalid expire time in 'set' command"));
  EXPECT_EQ(Run({"SET", "k", "v", "PX", "9223372036854775807"}),
            RespErr("ERR invalid expire time in 'set' command"));
  EXPECT_EQ(Run({"SET", "k", "v", "EXAT", "9223372036854776"}),
            RespErr("ERR invalid expire time in 'set' command"));
  EXPECT_EQ(Run({"SET", "k", "v", "PXAT", "9223372036854775807"}), RespOk());
  EXPECT_EQ(Run({"SET", "k", "v", "EXAT", "1"}), RespOk());  // already past: gone
  EXPECT_EQ(Run({"GET", "k"}), RespNull());
  EXPECT_EQ(Run({"SETEX", "k", "0", "v"}), RespErr("ERR invalid expire time in 'setex' command"));
  EXPECT_EQ(Run({"PSETEX", "k", "-1", "v"}),
            RespErr("ERR invalid expire time in 'psetex' command"));
  EXPECT_EQ(Run({"SETEX", "k", "x", "v"}), RespErr("ERR value is not an integer or out of range"));
}

TEST_F(StringFamilyTest, SetExpiryAndKeepTtl) {
  EXPECT_EQ(Run({"SET", "k", "v", "EX", "100"}), RespOk());
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(100));
  EXPECT_EQ(Run({"SET", "k", "v2", "KEEPTTL"}), RespOk());
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(100));
  EXPECT_EQ(Run({"SET", "k", "v3"}), RespOk());
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(-1));
  const std::string at = std::to_string(WallMs() + 50000);
  EXPECT_EQ(Run({"SET", "k", "v", "PXAT", at}), RespOk());
  EXPECT_EQ(Run({"PEXPIRETIME", "k"}), RespInt(std::stoll(at)));
  EXPECT_EQ(Run({"SETEX", "k", "10", "v"}), RespOk());
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(10));
  EXPECT_EQ(Run({"PSETEX", "k", "100000", "v"}), RespOk());
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(100));
  EXPECT_EQ(Run({"GETSET", "k", "w"}), RespBulk("v"));  // GETSET drops the deadline
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(-1));
}

TEST_F(StringFamilyTest, SetNx) {
  EXPECT_EQ(Run({"SETNX", "k", "1"}), RespInt(1));
  EXPECT_EQ(Run({"SETNX", "k", "2"}), RespInt(0));
  EXPECT_EQ(Run({"GET", "k"}), RespBulk("1"));
}

TEST_F(StringFamilyTest, GetDelGetEx) {
  EXPECT_EQ(Run({"GETDEL", "k"}), RespNull());
  Run({"SET", "k", "v"});
  EXPECT_EQ(Run({"GETDEL", "k"}), RespBulk("v"));
  EXPECT_EQ(Run({"EXISTS", "k"}), RespInt(0));
  MakeSet("s");
  EXPECT_EQ(Run({"GETDEL", "s"}), RespErr(kWrongType));
  EXPECT_EQ(Run({"GETEX", "s"}), RespErr(kWrongType));

  Run({"SET", "k", "v"});
  EXPECT_EQ(Run({"GETEX", "k", "EX", "100"}), RespBulk("v"));
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(100));
  EXPECT_EQ(Run({"GETEX", "k"}), RespBulk("v"));
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(100));
  EXPECT_EQ(Run({"GETEX", "k", "PERSIST"}), RespBulk("v"));
  EXPECT_EQ(Run({"TTL", "k"}), RespInt(-1));
  EXPECT_EQ(Run({"GETEX", "k", "PERSIST", "EX", "10"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"GETEX", "k", "NX"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"GETEX", "k", "KEEPTTL"}), RespErr("ERR syntax error"));
  EXPECT_EQ(Run({"GETEX", "k", "EX", "abc"}),
            RespErr("ERR value is not an integer or out of range"));
  EXPECT_EQ(Run({"GETEX", "k", "EX", "0"}), RespErr("ERR invalid expire time in 'getex' command"));
  EXPECT_EQ(Run({"GETEX", "nokey", "EX", "0"}), RespNull());  // lookup comes first
  EXPECT_EQ(Run({"GETEX", "k", "PXAT", "1"}), RespBulk("v"));  // past: deleted
  EXPECT_EQ(Run({"EXISTS", "k"}), RespInt(0));
}

TEST_F(StringFamilyTest, MGetMSet) {
  MakeSet("s");
  EXPECT_EQ(Run({"MSET", "a", "1", "b", "2"}), RespOk());
  EXPECT_EQ(Run({"MGET", "a", "s", "nokey", "b"}),
            RespArray({RespBulk("1"), RespNull(), RespNull(), RespBulk("2")}));
  EXPECT_EQ(Run({"MSET", "a", "1", "b"}),
            RespErr("ERR wrong number of arguments for 'mset' command"));
  EXPECT_EQ(Run({"MSETNX", "a", "1", "b"}),
            RespErr("ERR wrong number of arguments for 'msetnx' command"));
  EXPECT_EQ(Run({"MSETNX", "c", "3", "a", "x"}), RespInt(0));
  EXPECT_EQ(Run({"EXISTS", "c"}), RespInt(0));
  EXPECT_EQ(Run({"MSETNX", "c", "3", "d", "4", "c", "5"}), RespInt(1));
  EXPECT_EQ(Run({"MGET", "c", "d"}), RespArray({RespBulk("5"), RespBulk("4")}));
}

TEST_F(StringFamilyTest, IncrDecr) {
  EXPECT_EQ(Run({"INCR", "n"}), RespInt(1));
  EXPECT_EQ(Run({"INCRBY", "n", "10"}), RespInt(11));
  EXPECT_EQ(Run({"DECR", "n"}), RespInt(10));
  EXPECT_EQ(Run({"DECRBY", "n", "-5"}), RespInt(15));
  EXPECT_EQ(Run({"DECR", "m"}), RespInt(-1));
  EXPECT_EQ(Run({"INCRBY", "n", "abc"}), RespErr("ERR value is not an integer or out of range"));
  EXPECT_EQ(Run({"DECRBY", "n", "-9223372036854775808"}), RespErr("ERR decrement would overflow"));
  Run({"SET", "big", "9223372036854775807"});
  EXPECT_EQ(Run({"INCR", "big"}), RespErr("ERR increment or decrement would overflow"));
  Run({"SET", "small", "-9223372036854775808"});
  EXPECT_EQ(Run({"DECR", "small"}), RespErr("ERR increment or decrement would overflow"));
  for (const char* bad : {" 1", "1 ", "01", "1.0", "", "abc"}) {
    Run({"SET", "bad", bad});
    EXPECT_EQ(Run({"INCR", "bad"}), RespErr("ERR value is not an integer or out of range")) << bad;
  }
  MakeSet("s");
  EXPECT_EQ(Run({"INCR", "s"}), RespErr(kWrongType));
  // The deadline survives, and the result is a plain integer again.
  Run({"SET", "t", "5", "EX", "100"});
  Run({"APPEND", "t", "0"});
  EXPECT_EQ(Run({"INCR", "t"}), RespInt(51));
  EXPECT_EQ(Run({"TTL", "t"}), RespInt(100));
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "t"}), RespBulk("int"));
}

TEST_F(StringFamilyTest, IncrByFloat) {
  EXPECT_EQ(Run({"INCRBYFLOAT", "f", "1.5"}), RespBulk("1.5"));
  EXPECT_EQ(Run({"INCRBYFLOAT", "f", "0.1"}), RespBulk("1.6"));
  EXPECT_EQ(Run({"INCRBYFLOAT", "f", "-1.6"}), RespBulk("0"));
  EXPECT_EQ(Run({"INCRBYFLOAT", "f", "1.5e3"}), RespBulk("1500"));
  EXPECT_EQ(Run({"INCRBYFLOAT", "f", "abc"}), RespErr("ERR value is not a valid float"));
  EXPECT_EQ(Run({"INCRBYFLOAT", "f", " 1"}), RespErr("ERR value is not a valid float"));
  EXPECT_EQ(Run({"INCRBYFLOAT", "f", "nan"}), RespErr("ERR value is not a valid float"));
  EXPECT_EQ(Run({"INCRBYFLOAT", "f", "1e99999"}), RespErr("ERR value is not a valid float"));
  EXPECT_EQ(Run({"INCRBYFLOAT", "f", "-inf"}),
            RespErr("ERR increment would produce NaN or Infinity"));
  Run({"SET", "s", "x"});
  EXPECT_EQ(Run({"INCRBYFLOAT", "s", "1"}), RespErr("ERR value is not a valid float"));
  Run({"SET", "t", "10", "EX", "100"});
  EXPECT_EQ(Run({"INCRBYFLOAT", "t", "1"}), RespBulk("11"));
  EXPECT_EQ(Run({"TTL", "t"}), RespInt(100));
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "t"}), RespBulk("embstr"));  // not re-encoded
  EXPECT_EQ(Run({"OBJECT", "REFCOUNT", "t"}), RespInt(1));
  EXPECT_EQ(Run({"COPY", "t", "t2"}), RespInt(1));
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "t2"}), RespBulk("embstr"));
  EXPECT_EQ(Run({"INCR", "t"}), RespInt(12));
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "t"}), RespBulk("int"));
}

TEST_F(StringFamilyTest, AppendStrlenEncoding) {
  EXPECT_EQ(Run({"APPEND", "k", "123"}), RespInt(3));
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "k"}), RespBulk("int"));
  EXPECT_EQ(Run({"APPEND", "k", "4"}), RespInt(4));
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "k"}), RespBulk("raw"));
  EXPECT_EQ(Run({"GET", "k"}), RespBulk("1234"));
  EXPECT_EQ(Run({"STRLEN", "k"}), RespInt(4));
  EXPECT_EQ(Run({"STRLEN", "nokey"}), RespInt(0));
  Run({"SET", "e", "hello"});
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "e"}), RespBulk("embstr"));
  MakeSet("s");
  EXPECT_EQ(Run({"APPEND", "s", "x"}), RespErr(kWrongType));
  EXPECT_EQ(Run({"STRLEN", "s"}), RespErr(kWrongType));
}

TEST_F(StringFamilyTest, GetRange) {
  Run({"SET", "k", "Hello World"});
  EXPECT_EQ(Run({"GETRANGE", "k", "0", "4"}), RespBulk("Hello"));
  EXPECT_EQ(Run({"GETRANGE", "k", "-5", "-1"}), RespBulk("World"));
  EXPECT_EQ(Run({"GETRANGE", "k", "-1", "-5"}), RespBulk(""));
  EXPECT_EQ(Run({"GETRANGE", "k", "5", "2"}), RespBulk(""));
  EXPECT_EQ(Run({"GETRANGE", "k", "-100", "100"}), RespBulk("Hello World"));
  EXPECT_EQ(Run({"GETRANGE", "k", "100", "200"}), RespBulk(""));
  EXPECT_EQ(Run({"SUBSTR", "k", "0", "0"}), RespBulk("H"));
  EXPECT_EQ(Run({"GETRANGE", "nokey", "0", "1"}), RespBulk(""));
  EXPECT_EQ(Run({"GETRANGE", "k", "a", "1"}), RespErr("ERR value is not an integer or out of range"));
}

TEST_F(StringFamilyTest, SetRange) {
  EXPECT_EQ(Run({"SETRANGE", "k", "-1", "x"}), RespErr("ERR offset is out of range"));
  EXPECT_EQ(Run({"SETRANGE", "k", "0", ""}), RespInt(0));
  EXPECT_EQ(Run({"EXISTS", "k"}), RespInt(0));
  EXPECT_EQ(Run({"SETRANGE", "k", "5", "x"}), RespInt(6));
  EXPECT_EQ(Run({"GET", "k"}), RespBulk(std::string("\0\0\0\0\0x", 6)));
  EXPECT_EQ(Run({"OBJECT", "ENCODING", "k"}), RespBulk("raw"));
  EXPECT_EQ(Run({"SETRANGE", "k", "0", "ab"}), RespInt(6));
  EXPECT_EQ(Run({"SETRANGE", "k", "1", ""}), RespInt(6));
  EXPECT_EQ(Run({"GETRANGE", "k", "0", "1"}), RespBulk("ab"));
  EXPECT_EQ(Run({"SETRANGE", "k", "536870912", "x"}),
            RespErr("ERR string exceeds maximum allowed size (proto-max-bulk-len)"));
  EXPECT_EQ(Run({"SETRANGE", "k", "9223372036854775807", "x"}),
            RespErr("ERR string exceeds maximum allowed size (proto-max-bulk-len)"));
  MakeSet("s");
  EXPECT_EQ(Run({"SETRANGE", "s", "0", ""}), RespErr(kWrongType));
}

class SmallBulkTest : public CommandTest {
 protected:
  static Config Small() {
    Config c;
    c.proto_max_bulk_len = 8;
    return c;
  }
  SmallBulkTest() : CommandTest(Small()) {}
};

TEST_F(SmallBulkTest, AppendLimit) {
  EXPECT_EQ(Run({"APPEND", "k", "12345"}), RespInt(5));
  EXPECT_EQ(Run({"APPEND", "k", "678"}), RespInt(8));
  EXPECT_EQ(Run({"APPEND", "k", "9"}),
            RespErr("ERR string exceeds maximum allowed size (proto-max-bulk-len)"));
  EXPECT_EQ(Run({"SETRANGE", "k", "8", "x"}),
            RespErr("ERR string exceeds maximum allowed size (proto-max-bulk-len)"));
  EXPECT_EQ(Run({"SETRANGE", "k", "7", "x"}), RespInt(8));
}

TEST_F(StringFamilyTest, WritesTouchWatchers) {
  Watcher w;
  db().Watch("k", &w);
  Run({"GET", "k"});
  EXPECT_FALSE(w.dirty);
  Run({"SET", "k", "v", "XX"});  // not written
  EXPECT_FALSE(w.dirty);
  for (std::vector<std::string> cmd : std::vector<std::vector<std::string>>{
           {"SET", "k", "v"}, {"APPEND", "k", "x"}, {"SETRANGE", "k", "0", "y"},
           {"GETEX", "k", "EX", "10"}, {"GETEX", "k", "PERSIST"}, {"GETSET", "k", "1"},
           {"INCR", "k"}, {"INCRBYFLOAT", "k", "1"}, {"MSET", "k", "2"}, {"GETDEL", "k"}}) {
    w.dirty = false;
    Run(cmd);
    EXPECT_TRUE(w.dirty) << cmd[0];
  }
  db().Unwatch("k", &w);
}

TEST_F(StringFamilyTest, KeyspaceStats) {
  const uint64_t hits = server().stats().keyspace_hits;
  const uint64_t misses = server().stats().keyspace_misses;
  Run({"SET", "k", "v"});
  Run({"GET", "k"});
  Run({"GET", "nokey"});
  Run({"MGET", "k", "nokey"});
  EXPECT_EQ(server().stats().keyspace_hits - hits, 2u);
  EXPECT_EQ(server().stats().keyspace_misses - misses, 2u);
}

TEST_F(StringFamilyTest, EffectsReplayToTheSameState) {
  RecordingLog log;
  server().set_effect_log(&log);
  Run({"SET", "k", "v", "EX", "100"});
  Run({"SET", "k", "v", "NX"});  // no change: not logged
  Run({"INCRBYFLOAT", "f", "1.5"});
  Run({"GETEX", "k", "PERSIST"});
  Run({"SET", "a", "b"});
  server().set_effect_log(nullptr);
  ASSERT_EQ(log.lines.size(), 4u);
  EXPECT_TRUE(log.lines[0].starts_with("SET k v PXAT ")) << log.lines[0];
  EXPECT_EQ(log.lines[1], "SET f 1.5 KEEPTTL");
  EXPECT_EQ(log.lines[2], "PERSIST k");  // as Redis 7.0 propagates it
  EXPECT_EQ(log.lines[3], "SET a b");
}

}  // namespace
}  // namespace rankd
