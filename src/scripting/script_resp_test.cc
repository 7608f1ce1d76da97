// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// RESP <-> Lua conversions (script_resp.h), SHA-1 and CRC-64 vectors.

#include "scripting/script_resp.h"

extern "C" {
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
}

#include <gtest/gtest.h>

#include <string>

#include "scripting/script_functions.h"
#include "scripting/script_sha1.h"

namespace rankd {
namespace {

class ScriptRespTest : public ::testing::Test {
 protected:
  void SetUp() override { L = luaL_newstate(); }
  void TearDown() override { lua_close(L); }

  // RESP in -> Lua value -> RESP out (script RESP `script_resp`, caller `out_resp`).
  std::string RoundTrip(const std::string& in, int script_resp = 2, int out_resp = 2) {
    size_t pos = 0;
    EXPECT_TRUE(PushReplyAsLua(L, in, &pos)) << in;
    EXPECT_EQ(pos, in.size()) << in;
    ReplyBuilder out(out_resp);
    WriteLuaAsReply(L, script_resp, out);
    lua_pop(L, 1);
    EXPECT_EQ(lua_gettop(L), 0);
    return out.buffer();
  }

  // Evaluates `expr` in plain Lua and converts the result.
  std::string FromLua(const std::string& expr, int script_resp = 2, int out_resp = 2) {
    std::string code = "return " + expr;
    EXPECT_EQ(luaL_loadstring(L, code.c_str()), 0);
    EXPECT_EQ(lua_pcall(L, 0, 1, 0), 0);
    ReplyBuilder out(out_resp);
    WriteLuaAsReply(L, script_resp, out);
    lua_pop(L, 1);
    return out.buffer();
  }

  lua_State* L = nullptr;
};

TEST_F(ScriptRespTest, Resp2RoundTrips) {
  EXPECT_EQ(RoundTrip(":5\r\n"), ":5\r\n");
  EXPECT_EQ(RoundTrip(":-42\r\n"), ":-42\r\n");
  EXPECT_EQ(RoundTrip("$3\r\nabc\r\n"), "$3\r\nabc\r\n");
  EXPECT_EQ(RoundTrip("$0\r\n\r\n"), "$0\r\n\r\n");
  EXPECT_EQ(RoundTrip("$-1\r\n"), "$-1\r\n");        // nil bulk -> false -> nil
  EXPECT_EQ(RoundTrip("*-1\r\n"), "$-1\r\n");        // nil array -> false -> nil bulk
  EXPECT_EQ(RoundTrip("+OK\r\n"), "+OK\r\n");        // {ok=}
  EXPECT_EQ(RoundTrip("-ERR x y\r\n"), "-ERR x y\r\n");  // {err=}
  EXPECT_EQ(RoundTrip("*3\r\n:1\r\n$1\r\na\r\n*1\r\n+OK\r\n"),
            "*3\r\n:1\r\n$1\r\na\r\n*1\r\n+OK\r\n");
  EXPECT_EQ(RoundTrip("*0\r\n"), "*0\r\n");
}

TEST_F(ScriptRespTest, BinarySafeBulk) {
  std::string bin("$3\r\na\0b\r\n", 9);
  EXPECT_EQ(RoundTrip(bin), bin);
}

TEST_F(ScriptRespTest, Resp3Types) {
  EXPECT_EQ(RoundTrip("_\r\n", 3), "$-1\r\n");                      // null -> nil
  EXPECT_EQ(RoundTrip("#t\r\n", 3), ":1\r\n");                      // RESP2 caller
  EXPECT_EQ(RoundTrip("#f\r\n", 3, 3), "#f\r\n");                   // RESP3 caller
  EXPECT_EQ(RoundTrip("#f\r\n", 2, 2), "$-1\r\n");                  // false -> nil
  EXPECT_EQ(RoundTrip(",1.5\r\n", 3), "$3\r\n1.5\r\n");             // {double=}
  EXPECT_EQ(RoundTrip(",1.5\r\n", 3, 3), ",1.5\r\n");
  EXPECT_EQ(RoundTrip("%1\r\n$1\r\na\r\n:1\r\n", 3), "*2\r\n$1\r\na\r\n:1\r\n");
  EXPECT_EQ(RoundTrip("%1\r\n$1\r\na\r\n:1\r\n", 3, 3), "%1\r\n$1\r\na\r\n:1\r\n");
  EXPECT_EQ(RoundTrip("~1\r\n$1\r\nm\r\n", 3, 3), "~1\r\n$1\r\nm\r\n");
  EXPECT_EQ(RoundTrip("(123\r\n", 3, 3), "(123\r\n");
  EXPECT_EQ(RoundTrip("|1\r\n+k\r\n+v\r\n:7\r\n", 3), ":7\r\n");  // attribute skipped
}

TEST_F(ScriptRespTest, MalformedInputPushesNothing) {
  size_t pos = 0;
  EXPECT_FALSE(PushReplyAsLua(L, "$5\r\nab\r\n", &pos));
  pos = 0;
  EXPECT_FALSE(PushReplyAsLua(L, "*2\r\n:1\r\n", &pos));
  pos = 0;
  EXPECT_FALSE(PushReplyAsLua(L, "?x\r\n", &pos));
  EXPECT_EQ(lua_gettop(L), 0);
}

TEST_F(ScriptRespTest, LuaToResp) {
  EXPECT_EQ(FromLua("3.99"), ":3\r\n");
  EXPECT_EQ(FromLua("-3.99"), ":-3\r\n");
  EXPECT_EQ(FromLua("1e30"), ":-9223372036854775808\r\n");
  EXPECT_EQ(FromLua("true"), ":1\r\n");
  EXPECT_EQ(FromLua("false"), "$-1\r\n");
  EXPECT_EQ(FromLua("nil"), "$-1\r\n");
  EXPECT_EQ(FromLua("'x'"), "$1\r\nx\r\n");
  EXPECT_EQ(FromLua("{1, 2, nil, 4}"), "*2\r\n:1\r\n:2\r\n");
  EXPECT_EQ(FromLua("{ok='fine\\r\\nx'}"), "+fine  x\r\n");
  EXPECT_EQ(FromLua("{err='My err'}"), "-My err\r\n");
  EXPECT_EQ(FromLua("{1, {err='E e'}, {ok='k'}}"), "*3\r\n:1\r\n-E e\r\n+k\r\n");
  EXPECT_EQ(FromLua("{double=2.5}", 2, 3), ",2.5\r\n");
  EXPECT_EQ(FromLua("{map={a=1}}", 3, 3), "%1\r\n$1\r\na\r\n:1\r\n");
  EXPECT_EQ(FromLua("{true, false}", 3, 3), "*2\r\n#t\r\n#f\r\n");
  EXPECT_EQ(FromLua("{true, false}", 3, 2), "*2\r\n:1\r\n:0\r\n");
  EXPECT_EQ(FromLua("{false}", 2, 3), "*1\r\n_\r\n");
  EXPECT_EQ(FromLua("function() end"), "$-1\r\n");
}

TEST(ScriptDigestTest, Sha1Vectors) {
  EXPECT_EQ(Sha1Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Sha1Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Sha1Hex("return 1"), "e0e1f9fabfc9d4800c877a703b823ac0578ff8db");
  EXPECT_EQ(Sha1Hex(std::string(1000, 'a')), "291e9a6c66994949b57ba5e650361e98fc36b1ba");
  for (size_t n = 50; n < 70; n++) EXPECT_EQ(Sha1Hex(std::string(n, 'x')).size(), 40u);
}

}  // namespace
}  // namespace rankd
