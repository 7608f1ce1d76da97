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

#include "scripting/script_debugger.h"
#include "scripting/script_libs.h"
#include "scripting/script_lua_api.h"
#include "scripting/script_readonly.h"
#include "scripting/script_resp.h"

namespace rankd {
namespace {

constexpr char kSandboxKey[] = "__rankd_sandbox";
constexpr int kHookInstructions = 100000;

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
  lua_pushstring(L, kReadonlyTableError);
  lua_concat(L, 2);
  return lua_error(L);
}

// Compiling never accepts precompiled chunks (string.dump output), as in
// Redis, whose Lua has no bytecode loader: the reader yields a space
// first, so lua_load always picks the text parser, which rejects the
// signature byte with Redis's "unexpected symbol near 'char(27)'".
struct TextReader {
  const char* text;
  size_t len;
  int stage;
};

const char* ReadText(lua_State*, void* ud, size_t* size) {
  auto* r = static_cast<TextReader*>(ud);
  switch (r->stage++) {
    case 0: *size = 1; return " ";
    case 1: *size = r->len; return r->text;
    default: *size = 0; return nullptr;
  }
}

// The chunk name is anchored on the stack while the parser runs: the stock
// parser does not anchor it, so a collection during parsing could free it
// (Redis's CVE-2025-49844).
int AnchoredLoad(lua_State* L, lua_Reader reader, void* ud, const char* chunk) {
  lua_pushstring(L, chunk);
  int status = lua_load(L, reader, ud, lua_tostring(L, -1));
  lua_remove(L, -2);
  return status;
}

int LoadText(lua_State* L, const char* text, size_t len, const char* chunk) {
  TextReader r{text, len, 0};
  return AnchoredLoad(L, ReadText, &r, chunk);
}

int LoadResult(lua_State* L, int status) {
  if (status == 0) return 1;
  lua_pushnil(L);
  lua_insert(L, -2);
  return 2;
}

int LoadString(lua_State* L) {
  size_t len = 0;
  const char* s = luaL_checklstring(L, 1, &len);
  const char* chunk = luaL_optstring(L, 2, s);
  return LoadResult(L, LoadText(L, s, len, chunk));
}

// load(fn [, chunkname]): the pieces come from fn, as in the stock load.
const char* ReadFromFunction(lua_State* L, void* ud, size_t* size) {
  if ((*static_cast<int*>(ud))++ == 0) {
    *size = 1;
    return " ";
  }
  luaL_checkstack(L, 2, "too many nested functions");
  lua_pushvalue(L, 1);
  lua_call(L, 0, 1);
  if (lua_isnil(L, -1)) {
    *size = 0;
    return nullptr;
  }
  if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
  lua_replace(L, 3);
  return lua_tolstring(L, 3, size);
}

int Load(lua_State* L) {
  const char* chunk = luaL_optstring(L, 2, "=(load)");
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 3);
  int stage = 0;
  return LoadResult(L, AnchoredLoad(L, ReadFromFunction, &stage, chunk));
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
  // While the debugger steps, each error a script function raises is logged.
  if (LuaDebugger* d = SandboxOf(L)->debugger(); d && d->stepping()) {
    d->Log("<error> " + std::string(msg));
  }
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
  InstallRedisTable(L_, kind_ == Kind::kEval);
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
  OpenStructLibrary(L_);
  OpenCmsgpackLibrary(L_);
  InstallLibraryOverrides(L_);
  InstallReadonlyOverrides(L_);
  lua_pushcfunction(L_, LoadString);
  lua_setglobal(L_, "loadstring");
  lua_pushcfunction(L_, Load);
  lua_setglobal(L_, "load");
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
  lua_setmetatable(L_, LUA_GLOBALSINDEX);
  // From here on scripts see only read-only proxies of what they share.
  ProtectGlobalsTable(L_);
}

bool LuaSandbox::Compile(std::string_view code, std::string* error) {
  const char* chunk = kind_ == Kind::kEval ? "@user_script" : "@user_function";
  if (LoadText(L_, code.data(), code.size(), chunk) == 0) return true;
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
    PushRealGlobals(L_);
    lua_pushstring(L_, "KEYS");
    PushStringArray(L_, keys);
    lua_rawset(L_, -3);
    lua_pushstring(L_, "ARGV");
    PushStringArray(L_, args);
    lua_rawset(L_, -3);
    lua_pop(L_, 1);
  } else {
    PushStringArray(L_, keys);
    PushStringArray(L_, args);
    nargs = 2;
  }
  resp_ = 2;
  running_ = true;
  if (debugger_) {
    lua_sethook(L_, LuaDebugger::Hook, LUA_MASKLINE | LUA_MASKCOUNT, kHookInstructions);
  } else {
    lua_sethook(L_, KillHook, LUA_MASKCOUNT, kHookInstructions);
  }
  int rc = lua_pcall(L_, nargs, 1, handler);
  lua_sethook(L_, nullptr, 0, 0);
  running_ = false;
  if (rc == 0) {
    WriteLuaAsReply(L_, resp_, out);
    lua_pop(L_, 1);
  } else if (lua_istable(L_, -1) && ErrorWasCounted(L_, -1)) {
    out.UncountedError(PopErrorText(name));
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
    lua_pushstring(L_, "err");
    lua_rawget(L_, -2);
    const char* err = lua_tostring(L_, -1);
    text = err ? err : "ERR unknown error";
    lua_pop(L_, 1);
    lua_pushstring(L_, "source");
    lua_rawget(L_, -2);
    lua_pushstring(L_, "line");
    lua_rawget(L_, -3);
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
