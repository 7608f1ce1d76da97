// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Lua raises errors with longjmp, which skips C++ destructors: every C
// function below builds its strings in a helper scope that has ended before
// lua_error() is called.

#include "scripting/script_lua.h"

extern "C" {
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
}

#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "scripting/script_resp.h"
#include "scripting/script_sha1.h"

namespace rankd {
namespace {

constexpr char kSandboxKey[] = "__rankd_sandbox";
constexpr int kHookInstructions = 100000;

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

// Globals protection (metamethods of _G).
int GlobalIndex(lua_State* L) {
  luaL_where(L, 1);
  lua_pushfstring(L, "Script attempted to access nonexistent global variable '%s'",
                  lua_tostring(L, 2) ? lua_tostring(L, 2) : "?");
  lua_concat(L, 2);
  return lua_error(L);
}

int ReadonlyNewIndex(lua_State* L) {
  luaL_where(L, 1);
  lua_pushstring(L, "Attempt to modify a readonly table");
  lua_concat(L, 2);
  return lua_error(L);
}

// rawset: refuses the global table, which Redis makes read-only.
int RawSet(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  luaL_checkany(L, 3);
  if (lua_topointer(L, 1) == lua_topointer(L, LUA_GLOBALSINDEX)) {
    lua_pushstring(L, "Attempt to modify a readonly table");
    return lua_error(L);
  }
  lua_settop(L, 3);
  lua_rawset(L, 1);
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

// __redis__err__handler: turns any error into {err=, source=, line=} with
// the position of the Lua code that raised it (the caller when a C function
// such as redis.call raised it).
int ErrorHandler(lua_State* L) {
  lua_Debug ar;
  bool have = lua_getstack(L, 1, &ar) && lua_getinfo(L, "nSl", &ar);
  if (have && strcmp(ar.what, "C") == 0) have = lua_getstack(L, 2, &ar) && lua_getinfo(L, "nSl", &ar);
  if (!lua_istable(L, 1)) {
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

// Collects redis.call arguments; returns an error text or "" on success.
const char* CollectArgs(lua_State* L, std::vector<std::string>* out) {
  int argc = lua_gettop(L);
  if (argc == 0) return "Please specify at least one argument for this redis lib call";
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
      return "Lua redis lib command arguments must be strings or integers";
    }
  }
  return "";
}

// Runs the command and pushes its reply as a Lua value. Returns true if the
// reply was an error.
bool CallAndPush(lua_State* L, bool* arg_error) {
  std::vector<std::string> args;
  const char* err = CollectArgs(L, &args);
  if (*err) {
    *arg_error = true;
    PushLuaError(L, err);
    return true;
  }
  std::vector<std::string_view> views(args.begin(), args.end());
  LuaSandbox* sb = SandboxOf(L);
  ReplyBuilder reply(sb->resp());
  sb->host()->Call(views, reply);
  size_t pos = 0;
  if (!PushReplyAsLua(L, reply.buffer(), &pos)) {
    PushLuaError(L, "ERR bad reply from command");
    return true;
  }
  return !reply.buffer().empty() && reply.buffer()[0] == '-';
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

int RedisFalse(lua_State* L) {
  lua_pushboolean(L, 0);
  return 1;
}

int RedisNoop(lua_State* L) { return 0; }

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

// Loads a Debian Lua C module (cjson, bit) at run time and sets the global.
void LoadModule(lua_State* L, const char* global, const char* const* paths, const char* symbol) {
  for (const char* const* p = paths; *p; p++) {
    void* handle = dlopen(*p, RTLD_NOW | RTLD_GLOBAL);
    if (!handle) continue;
    auto fn = reinterpret_cast<lua_CFunction>(dlsym(handle, symbol));
    if (!fn) continue;
    lua_pushcfunction(L, fn);
    lua_pushstring(L, global);
    lua_call(L, 1, 1);
    lua_setglobal(L, global);
    return;
  }
}

constexpr const char* kAllowedGlobals[] = {
    "_G", "_VERSION", "__redis__err__handler", "assert", "bit", "cjson", "cmsgpack",
    "collectgarbage", "coroutine", "error", "gcinfo", "getmetatable", "ipairs", "load",
    "loadstring", "math", "next", "pairs", "pcall", "rawequal", "rawget", "rawset", "redis",
    "select", "setmetatable", "string", "struct", "table", "tonumber", "tostring", "type",
    "unpack", "xpcall", nullptr};

}  // namespace

void PushLuaError(lua_State* L, std::string_view msg) {
  std::string code = "ERR";
  std::string text(msg);
  if (!text.empty() && text[0] == '-') {
    size_t sp = text.find(' ');
    if (sp == std::string::npos) {
      text = text.substr(1);
    } else {
      code = text.substr(1, sp - 1);
      text = text.substr(sp + 1);
    }
  }
  while (!text.empty() && (text.back() == '\r' || text.back() == '\n')) text.pop_back();
  std::string full = code + " " + text;
  lua_newtable(L);
  lua_pushstring(L, "err");
  lua_pushlstring(L, full.data(), full.size());
  lua_rawset(L, -3);
}

void RaiseLuaError(lua_State* L) {
  lua_error(L);
  __builtin_unreachable();
}

LuaSandbox* SandboxOf(lua_State* L) {
  lua_getfield(L, LUA_REGISTRYINDEX, kSandboxKey);
  auto* sb = static_cast<LuaSandbox*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  return sb;
}

LuaSandbox::LuaSandbox(ScriptHost* host, Kind kind) : host_(host), kind_(kind) {
  L_ = luaL_newstate();
  lua_pushlightuserdata(L_, this);
  lua_setfield(L_, LUA_REGISTRYINDEX, kSandboxKey);
  OpenLibraries();
  InstallRedisTable();
  ProtectGlobals();
}

LuaSandbox::~LuaSandbox() { lua_close(L_); }

void LuaSandbox::OpenLibraries() {
  const lua_CFunction libs[] = {luaopen_base, luaopen_table, luaopen_string, luaopen_math};
  for (lua_CFunction lib : libs) {
    lua_pushcfunction(L_, lib);
    lua_call(L_, 0, 0);
  }
  static const char* const kCjson[] = {"liblua5.1-cjson.so.0",
                                       "/usr/lib/x86_64-linux-gnu/lua/5.1/cjson.so", nullptr};
  static const char* const kBit[] = {"liblua5.1-bitop.so.0",
                                     "/usr/lib/x86_64-linux-gnu/lua/5.1/bit.so", nullptr};
  LoadModule(L_, "cjson", kCjson, "luaopen_cjson");
  LoadModule(L_, "bit", kBit, "luaopen_bit");
  lua_getglobal(L_, "math");
  SetFunction(L_, "random", MathRandom);
  SetFunction(L_, "randomseed", MathRandomSeed);
  lua_pop(L_, 1);
  lua_pushcfunction(L_, ErrorHandler);
  lua_setglobal(L_, "__redis__err__handler");
  lua_pushcfunction(L_, PCall);
  lua_setglobal(L_, "pcall");
  lua_pushcfunction(L_, RawSet);
  lua_setglobal(L_, "rawset");
}

void LuaSandbox::InstallRedisTable() {
  lua_newtable(L_);
  SetFunction(L_, "call", RedisCall);
  SetFunction(L_, "pcall", RedisPCall);
  SetFunction(L_, "log", RedisLog);
  SetFunction(L_, "setresp", RedisSetResp);
  SetFunction(L_, "sha1hex", RedisSha1Hex);
  SetFunction(L_, "error_reply", RedisErrorReply);
  SetFunction(L_, "status_reply", RedisStatusReply);
  SetFunction(L_, "set_repl", RedisSetRepl);
  SetFunction(L_, "replicate_commands", RedisTrue);
  SetFunction(L_, "acl_check_cmd", RedisTrue);
  SetFunction(L_, "breakpoint", RedisFalse);
  SetFunction(L_, "debug", RedisNoop);
  SetNumber(L_, "LOG_DEBUG", 0);
  SetNumber(L_, "LOG_VERBOSE", 1);
  SetNumber(L_, "LOG_NOTICE", 2);
  SetNumber(L_, "LOG_WARNING", 3);
  SetNumber(L_, "REPL_NONE", 0);
  SetNumber(L_, "REPL_AOF", 1);
  SetNumber(L_, "REPL_SLAVE", 2);
  SetNumber(L_, "REPL_REPLICA", 2);
  SetNumber(L_, "REPL_ALL", 3);
  SetNumber(L_, "REDIS_VERSION_NUM", 0x07000f);
  lua_pushstring(L_, "REDIS_VERSION");
  lua_pushstring(L_, "7.0.15");
  lua_rawset(L_, -3);
  lua_setglobal(L_, "redis");
}

void LuaSandbox::ProtectGlobals() {
  // Drop every global Redis does not expose (print, os, io, require, ...).
  std::vector<std::string> drop;
  lua_pushnil(L_);
  while (lua_next(L_, LUA_GLOBALSINDEX)) {
    lua_pop(L_, 1);
    if (lua_type(L_, -1) != LUA_TSTRING) continue;
    const char* k = lua_tostring(L_, -1);
    bool keep = false;
    for (const char* const* a = kAllowedGlobals; *a && !keep; a++) keep = strcmp(*a, k) == 0;
    if (!keep) drop.emplace_back(k);
  }
  for (const std::string& k : drop) {
    lua_pushnil(L_);
    lua_setfield(L_, LUA_GLOBALSINDEX, k.c_str());
  }
  lua_newtable(L_);
  SetFunction(L_, "__index", GlobalIndex);
  SetFunction(L_, "__newindex", ReadonlyNewIndex);
  lua_pushstring(L_, "__metatable");
  lua_pushboolean(L_, 0);
  lua_rawset(L_, -3);
  lua_setmetatable(L_, LUA_GLOBALSINDEX);
}

bool LuaSandbox::Compile(std::string_view code, std::string* error) {
  const char* chunk = kind_ == Kind::kEval ? "@user_script" : "@user_function";
  if (luaL_loadbuffer(L_, code.data(), code.size(), chunk) == 0) return true;
  *error = lua_tostring(L_, -1) ? lua_tostring(L_, -1) : "unknown error";
  lua_pop(L_, 1);
  return false;
}

namespace {

void PushStringArray(lua_State* L, std::span<const std::string_view> items) {
  lua_createtable(L, static_cast<int>(items.size()), 0);
  for (size_t i = 0; i < items.size(); i++) {
    lua_pushlstring(L, items[i].data(), items[i].size());
    lua_rawseti(L, -2, static_cast<int>(i + 1));
  }
}

void KillHook(lua_State* L, lua_Debug* ar) {
  LuaSandbox* sb = SandboxOf(L);
  if (!sb->host()->Interrupt()) return;
  // Fire on every line from now on, so a pcall in the script cannot keep it
  // alive after catching the error.
  lua_sethook(L, KillHook, LUA_MASKLINE, 0);
  PushLuaError(L, "Script killed by user with SCRIPT KILL...");
  lua_error(L);
}

}  // namespace

void LuaSandbox::Run(std::string_view name, std::span<const std::string_view> keys,
                     std::span<const std::string_view> args, ReplyBuilder& out) {
  // Stack: function -> handler, function, [keys, args].
  lua_pushcfunction(L_, ErrorHandler);
  lua_insert(L_, -2);
  int handler = lua_gettop(L_) - 1;
  int nargs = 0;
  if (kind_ == Kind::kEval) {
    lua_pushstring(L_, "KEYS");
    PushStringArray(L_, keys);
    lua_rawset(L_, LUA_GLOBALSINDEX);
    lua_pushstring(L_, "ARGV");
    PushStringArray(L_, args);
    lua_rawset(L_, LUA_GLOBALSINDEX);
  } else {
    PushStringArray(L_, keys);
    PushStringArray(L_, args);
    nargs = 2;
  }
  resp_ = 2;
  running_ = true;
  lua_sethook(L_, KillHook, LUA_MASKCOUNT, kHookInstructions);
  int rc = lua_pcall(L_, nargs, 1, handler);
  lua_sethook(L_, nullptr, 0, 0);
  running_ = false;
  if (rc == 0) {
    WriteLuaAsReply(L_, resp_, out);
    lua_pop(L_, 1);
  } else {
    out.Error(PopErrorText(name));
  }
  lua_settop(L_, handler - 1);
  lua_gc(L_, LUA_GCSTEP, 1);
}

std::string LuaSandbox::PopErrorText(std::string_view name) {
  std::string text;
  if (!lua_istable(L_, -1)) {
    const char* s = lua_tostring(L_, -1);
    text = "ERR Error running script " + std::string(name) + ", " +
           std::string(s ? s : "execution failure").substr(0, 100);
  } else {
    lua_getfield(L_, -1, "err");
    const char* err = lua_tostring(L_, -1);
    text = err ? err : "ERR unknown error";
    lua_pop(L_, 1);
    lua_getfield(L_, -1, "source");
    lua_getfield(L_, -2, "line");
    if (lua_isstring(L_, -2) && lua_isstring(L_, -1)) {
      text += " script: " + std::string(name) + ", on " + lua_tostring(L_, -2) + ":" +
              lua_tostring(L_, -1) + ".";
    }
    lua_pop(L_, 2);
  }
  lua_pop(L_, 1);
  return text;
}

}  // namespace rankd
