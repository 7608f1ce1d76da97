// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// What scripts get beyond the stock Lua libraries (script_lua_api.h). As in
// script_lua.cc, Lua raises errors with longjmp, which skips C++
// destructors: every C function builds its strings in a helper scope that
// has ended before lua_error() is called.

#include "scripting/script_lua_api.h"

extern "C" {
#include <lauxlib.h>
#include <lua.h>
}

#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "scripting/script_debugger.h"
#include "scripting/script_lua.h"
#include "scripting/script_resp.h"
#include "scripting/script_sha1.h"

namespace rankd {
namespace {

// Redis's rand.c: the drand48 48-bit linear congruential generator.
// Never reseeded per script (Redis 7.0): the default drand48 state at start.
uint64_t rand48_state = 0x1234ABCD330EULL;
void Srand48(int32_t seed) {
  rand48_state = (uint64_t{static_cast<uint32_t>(seed)} << 16) | 0x330E;
}
int32_t Lrand48() {
  rand48_state = (rand48_state * 0x5DEECE66DULL + 0xB) & ((1ULL << 48) - 1);
  return static_cast<int32_t>(rand48_state >> 17);
}

int MathRandom(lua_State* L) {
  constexpr int32_t kMax = INT32_MAX;
  lua_Number r = static_cast<lua_Number>(Lrand48() % kMax) / static_cast<lua_Number>(kMax);
  switch (lua_gettop(L)) {
    case 0:
      lua_pushnumber(L, r);
      break;
    case 1: {
      int u = luaL_checkint(L, 1);
      luaL_argcheck(L, 1 <= u, 1, "interval is empty");
      lua_pushnumber(L, floor(r * u) + 1);
      break;
    }
    case 2: {
      int l = luaL_checkint(L, 1);
      int u = luaL_checkint(L, 2);
      luaL_argcheck(L, l <= u, 2, "interval is empty");
      lua_pushnumber(L, floor(r * (u - l + 1)) + l);
      break;
    }
    default:
      return luaL_error(L, "wrong number of arguments");
  }
  return 1;
}

int MathRandomSeed(lua_State* L) {
  Srand48(luaL_checkint(L, 1));
  return 0;
}

// bit.tohex as LuaBitOp defines it, with Redis's fix for n = INT32_MIN
// (CVE-2024-31449: the stock one negates it and copies 2 GB from an
// 8-byte buffer). Arguments wrap modulo 2^32 as LuaBitOp's do.
uint32_t BitArg(lua_State* L, int idx) {
  double m = std::fmod(std::nearbyint(luaL_checknumber(L, idx)), 4294967296.0);
  if (m < 0) m += 4294967296.0;
  return static_cast<uint32_t>(m);
}

int BitToHex(lua_State* L) {
  uint32_t b = BitArg(L, 1);
  int32_t n = lua_isnone(L, 2) ? 8 : static_cast<int32_t>(BitArg(L, 2));
  const char* digits = "0123456789abcdef";
  if (n == INT32_MIN) n = INT32_MIN + 1;
  if (n < 0) n = -n, digits = "0123456789ABCDEF";
  if (n > 8) n = 8;
  char buf[8];
  for (int i = n; --i >= 0;) {
    buf[i] = digits[b & 15];
    b >>= 4;
  }
  lua_pushlstring(L, buf, static_cast<size_t>(n));
  return 1;
}

// string.rep refuses results over 1 GiB at once, before allocating
// anything (Redis 7.0 has no limit and builds strings until memory runs
// out); the text is Lua 5.2's. Then the stock rep (upvalue 1) runs.
constexpr size_t kMaxRepBytes = size_t{1} << 30;

int StringRep(lua_State* L) {
  size_t len = 0;
  luaL_checklstring(L, 1, &len);
  int n = luaL_checkint(L, 2);
  if (n > 0 && len > 0 && len > kMaxRepBytes / static_cast<size_t>(n)) {
    return luaL_error(L, "resulting string too large");
  }
  lua_settop(L, 2);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, 2, 1);
  return 1;
}

// pcall as Redis 7.0 replaces it: an error table {err=...} caught by the
// script becomes its err string.
int PCall(lua_State* L) {
  int argc = lua_gettop(L);
  luaL_checkany(L, 1);
  lua_pushboolean(L, 1);
  lua_insert(L, 1);
  if (lua_pcall(L, argc - 1, LUA_MULTRET, 0)) {
    lua_remove(L, 1);
    if (lua_istable(L, -1)) {
      lua_getfield(L, -1, "err");
      if (lua_isstring(L, -1)) {
        lua_replace(L, -2);
      } else {
        lua_pop(L, 1);
      }
    }
    lua_pushboolean(L, 0);
    lua_insert(L, 1);
  }
  return lua_gettop(L);
}

// Collects redis.call arguments; on bad ones pushes the error (to raise)
// and returns false.
bool CollectArgs(lua_State* L, std::vector<std::string>* out) {
  int argc = lua_gettop(L);
  if (argc == 0) {
    PushLuaError(L, "Please specify at least one argument for this redis lib call");
    return false;
  }
  for (int i = 1; i <= argc; i++) {
    if (lua_type(L, i) == LUA_TNUMBER) {
      char buf[64];
      snprintf(buf, sizeof(buf), "%.17g", static_cast<double>(lua_tonumber(L, i)));
      out->emplace_back(buf);
    } else if (lua_type(L, i) == LUA_TSTRING) {
      size_t len = 0;
      const char* s = lua_tolstring(L, i, &len);
      out->emplace_back(s, len);
    } else {
      PushLuaError(L, "Lua redis lib command arguments must be strings or integers");
      return false;
    }
  }
  return true;
}

// Runs the command and pushes its reply as a Lua value. Returns true if the
// reply was an error.
bool CallAndPush(lua_State* L, bool* arg_error) {
  std::vector<std::string> args;
  if (!CollectArgs(L, &args)) {
    *arg_error = true;
    return true;
  }
  std::vector<std::string_view> views(args.begin(), args.end());
  LuaSandbox* sb = SandboxOf(L);
  LuaDebugger* debugger = sb->debugger();
  if (debugger && debugger->stepping()) debugger->LogCommand(views);
  ReplyBuilder reply(sb->resp());
  sb->host()->Call(views, reply);
  if (debugger && debugger->stepping()) {
    const std::string& r = reply.buffer();
    if (!r.empty() && r[0] == '-') debugger->Log("<error> " + r.substr(0, r.find("\r\n")));
    debugger->LogReply(r);
  }
  size_t pos = 0;
  if (!PushReplyAsLua(L, reply.buffer(), &pos)) {
    PushLuaError(L, "ERR bad reply from command");
    return true;
  }
  return !reply.buffer().empty() && reply.buffer()[0] == '-';
}

// redis.acl_check_cmd: pushes whether the caller may run the command.
// Returns true when it pushed an error instead (no arguments, a bad
// argument, or no such command), which the caller raises.
bool AclCheckAndPush(lua_State* L) {
  std::vector<std::string> args;
  if (!CollectArgs(L, &args)) return true;
  std::vector<std::string_view> views(args.begin(), args.end());
  std::optional<bool> allowed = SandboxOf(L)->host()->AclAllows(views);
  if (!allowed) {
    PushLuaError(L, "Invalid command passed to redis.acl_check_cmd()");
    return true;
  }
  lua_pushboolean(L, *allowed);
  return false;
}

int RedisAclCheckCmd(lua_State* L) {
  if (AclCheckAndPush(L)) return lua_error(L);
  return 1;
}

int RedisCall(lua_State* L) {
  bool arg_error = false;
  if (CallAndPush(L, &arg_error)) return lua_error(L);
  return 1;
}

int RedisPCall(lua_State* L) {
  bool arg_error = false;
  CallAndPush(L, &arg_error);
  return 1;
}

// redis.breakpoint(): under the debugger, stop at the next line (true);
// otherwise nothing (false).
int RedisBreakpoint(lua_State* L) {
  LuaDebugger* d = SandboxOf(L)->debugger();
  if (d) d->RequestBreak();
  lua_pushboolean(L, d != nullptr);
  return 1;
}

// redis.debug(v...): under the debugger, logs "<debug> line N: v1, v2".
int RedisDebug(lua_State* L) {
  LuaDebugger* d = SandboxOf(L)->debugger();
  if (!d) return 0;
  std::string line = "<debug> line " + std::to_string(d->current_line()) + ": ";
  int argc = lua_gettop(L);
  for (int i = 1; i <= argc; i++) {
    if (i > 1) line += ", ";
    line += DebugValueText(L, i);
  }
  d->Log(std::move(line));
  return 0;
}

int RaiseMsg(lua_State* L, const char* msg) {
  PushLuaError(L, msg);
  return lua_error(L);
}

int RedisSha1Hex(lua_State* L) {
  if (lua_gettop(L) != 1) return RaiseMsg(L, "wrong number of arguments");
  size_t len = 0;
  const char* s = lua_tolstring(L, 1, &len);
  char hex[41];
  {
    std::string h = Sha1Hex(std::string_view(s ? s : "", s ? len : 0));
    memcpy(hex, h.data(), 41);
  }
  lua_pushstring(L, hex);
  return 1;
}

int ReturnSingleFieldTable(lua_State* L, const char* field) {
  if (lua_gettop(L) != 1 || lua_type(L, -1) != LUA_TSTRING) {
    PushLuaError(L, "wrong number or type of arguments");
    return 1;
  }
  lua_newtable(L);
  lua_pushstring(L, field);
  lua_pushvalue(L, -3);
  lua_settable(L, -3);
  return 1;
}

int RedisStatusReply(lua_State* L) { return ReturnSingleFieldTable(L, "ok"); }

int RedisErrorReply(lua_State* L) {
  if (lua_gettop(L) != 1 || lua_type(L, -1) != LUA_TSTRING) {
    PushLuaError(L, "wrong number or type of arguments");
    return 1;
  }
  const char* e = lua_tostring(L, 1);
  if (e[0] != '-') {
    lua_pushfstring(L, "-%s", e);
    e = lua_tostring(L, -1);
  }
  PushLuaError(L, e);
  return 1;
}

int RedisLog(lua_State* L) {
  int argc = lua_gettop(L);
  if (argc < 2) return RaiseMsg(L, "redis.log() requires two arguments or more.");
  if (!lua_isnumber(L, 1)) return RaiseMsg(L, "First argument must be a number (log level).");
  int level = static_cast<int>(lua_tonumber(L, 1));
  if (level < 0 || level > 3) return RaiseMsg(L, "Invalid debug level.");
  // The message: the remaining arguments separated by spaces.
  for (int i = 2; i <= argc; i++) {
    if (i > 2) lua_pushstring(L, " ");
    lua_pushvalue(L, i);
  }
  lua_concat(L, 2 * (argc - 1) - 1);
  size_t len = 0;
  const char* msg = lua_tolstring(L, -1, &len);
  SandboxOf(L)->host()->Log(level, std::string_view(msg ? msg : "", msg ? len : 0));
  return 0;
}

int RedisSetResp(lua_State* L) {
  if (lua_gettop(L) != 1) return RaiseMsg(L, "redis.setresp() requires one argument.");
  int v = static_cast<int>(lua_tonumber(L, 1));
  if (v != 2 && v != 3) return RaiseMsg(L, "RESP version must be 2 or 3.");
  SandboxOf(L)->set_resp(v);
  return 0;
}

int RedisSetRepl(lua_State* L) {
  if (lua_gettop(L) != 1) return RaiseMsg(L, "redis.set_repl() requires one argument.");
  int flags = static_cast<int>(lua_tonumber(L, 1));
  if (flags < 0 || flags > 3) return RaiseMsg(L, "Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.");
  return 0;  // Effects always go to the log; see docs/scripting.md.
}

int RedisTrue(lua_State* L) {
  lua_pushboolean(L, 1);
  return 1;
}

}  // namespace

// __redis__err__handler: turns any error into {err=, source=, line=} with
// the position of the Lua code that raised it (the caller when a C function
// such as redis.call raised it).
int ErrorHandler(lua_State* L) {
  lua_Debug ar;
  bool have = lua_getstack(L, 1, &ar) && lua_getinfo(L, "nSl", &ar);
  if (have && strcmp(ar.what, "C") == 0) have = lua_getstack(L, 2, &ar) && lua_getinfo(L, "nSl", &ar);
  if (lua_istable(L, 1)) {
    // A fresh table: the script's own (maybe a read-only proxy) is never
    // written to. Its `err` is read as Redis reads it (metamethods apply;
    // one that fails ends in "error in error handling", not a crash).
    lua_newtable(L);
    lua_getfield(L, 1, "err");
    lua_setfield(L, -2, "err");
    lua_getfield(L, 1, kErrorCounted);
    lua_setfield(L, -2, kErrorCounted);
    lua_replace(L, 1);
  } else {
    const char* s = lua_tostring(L, 1);
    if (!s) s = lua_isnil(L, 1) ? "nil" : lua_isboolean(L, 1) ? (lua_toboolean(L, 1) ? "true" : "false") : lua_typename(L, lua_type(L, 1));
    lua_newtable(L);
    lua_pushstring(L, "err");
    lua_pushfstring(L, "ERR %s", s);
    lua_rawset(L, -3);
    lua_replace(L, 1);
  }
  if (have) {
    lua_pushstring(L, "source");
    lua_pushstring(L, ar.source);
    lua_rawset(L, 1);
    lua_pushstring(L, "line");
    lua_pushinteger(L, ar.currentline);
    lua_rawset(L, 1);
  }
  lua_settop(L, 1);
  return 1;
}

void SetNumber(lua_State* L, const char* name, lua_Number v) {
  lua_pushstring(L, name);
  lua_pushnumber(L, v);
  lua_rawset(L, -3);
}

void SetFunction(lua_State* L, const char* name, lua_CFunction fn) {
  lua_pushstring(L, name);
  lua_pushcfunction(L, fn);
  lua_rawset(L, -3);
}

void InstallLibraryOverrides(lua_State* L) {
  lua_getglobal(L, "math");
  SetFunction(L, "random", MathRandom);
  SetFunction(L, "randomseed", MathRandomSeed);
  lua_pop(L, 1);
  lua_pushcfunction(L, ErrorHandler);
  lua_setglobal(L, "__redis__err__handler");
  lua_pushcfunction(L, PCall);
  lua_setglobal(L, "pcall");
  lua_getglobal(L, "string");
  lua_getfield(L, -1, "rep");
  lua_pushcclosure(L, StringRep, 1);
  lua_setfield(L, -2, "rep");
  lua_pop(L, 1);
  lua_getglobal(L, "bit");
  if (lua_istable(L, -1)) SetFunction(L, "tohex", BitToHex);
  lua_pop(L, 1);
}

void InstallRedisTable(lua_State* L, bool eval_api) {
  lua_newtable(L);
  SetFunction(L, "call", RedisCall);
  SetFunction(L, "pcall", RedisPCall);
  SetFunction(L, "log", RedisLog);
  SetFunction(L, "setresp", RedisSetResp);
  SetFunction(L, "sha1hex", RedisSha1Hex);
  SetFunction(L, "error_reply", RedisErrorReply);
  SetFunction(L, "status_reply", RedisStatusReply);
  SetFunction(L, "set_repl", RedisSetRepl);
  SetFunction(L, "acl_check_cmd", RedisAclCheckCmd);
  if (eval_api) {
    SetFunction(L, "replicate_commands", RedisTrue);
    SetFunction(L, "breakpoint", RedisBreakpoint);
    SetFunction(L, "debug", RedisDebug);
  }
  SetNumber(L, "LOG_DEBUG", 0);
  SetNumber(L, "LOG_VERBOSE", 1);
  SetNumber(L, "LOG_NOTICE", 2);
  SetNumber(L, "LOG_WARNING", 3);
  SetNumber(L, "REPL_NONE", 0);
  SetNumber(L, "REPL_AOF", 1);
  SetNumber(L, "REPL_SLAVE", 2);
  SetNumber(L, "REPL_REPLICA", 2);
  SetNumber(L, "REPL_ALL", 3);
  SetNumber(L, "REDIS_VERSION_NUM", 0x07000f);
  lua_pushstring(L, "REDIS_VERSION");
  lua_pushstring(L, "7.0.15");
  lua_rawset(L, -3);
  lua_setglobal(L, "redis");
}

}  // namespace rankd
