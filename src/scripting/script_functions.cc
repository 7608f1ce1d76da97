// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "scripting/script_functions.h"

extern "C" {
#include <lauxlib.h>
#include <lua.h>
}

#include <strings.h>

#include <cctype>
#include <cstring>
#include <iterator>
#include <optional>

#include "base/clock.h"
#include "base/split.h"
#include "net/split_args.h"
#include "persist/rdb_writer.h"
#include "scripting/script_readonly.h"
#include "server/command.h"

namespace rankd {
namespace {

// The library being loaded (register_function appends to it). Single-threaded.
std::vector<FunctionLibraries::Function>* g_pending = nullptr;

// The whole Lua string at `index`, NUL bytes included (a name with one is
// invalid, not cut short).
std::string LuaString(lua_State* L, int index) {
  size_t len = 0;
  const char* p = lua_tolstring(L, index, &len);
  return p ? std::string(p, len) : std::string();
}

bool ValidName(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

int Fail(lua_State* L, const char* msg) {
  PushLuaError(L, msg);
  return lua_error(L);
}

std::string LowerCase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  return out;
}

constexpr char kBadName[] =
    "Library names can only contain letters, numbers, or underscores(_) and must be at least "
    "one character long";  // Redis 7.0 says "Library" for function names too

// Redis's script flags, in the order FUNCTION LIST shows them.
constexpr const char* kFlagNames[] = {"no-writes", "allow-oom", "allow-stale", "no-cluster",
                                      "allow-cross-slot-keys"};

// Reads flags = {...} (the table at the top, which it pops on success):
// names in any case, kept in kFlagNames order without duplicates. Returns
// false on an unknown flag.
bool ReadFlags(lua_State* L, std::vector<std::string>* out) {
  bool seen[std::size(kFlagNames)] = {};
  for (int j = 1;; j++) {
    lua_pushnumber(L, j);
    lua_gettable(L, -2);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 2);  // the nil and the table
      break;
    }
    const char* flag = lua_isstring(L, -1) ? lua_tostring(L, -1) : nullptr;
    size_t k = 0;
    while (flag && k < std::size(kFlagNames) && strcasecmp(flag, kFlagNames[k])) k++;
    lua_pop(L, 1);
    if (!flag || k == std::size(kFlagNames)) return false;
    seen[k] = true;
  }
  for (size_t k = 0; k < std::size(kFlagNames); k++) {
    if (seen[k]) out->emplace_back(kFlagNames[k]);
  }
  return true;
}

// Reads register_function{function_name=, callback=, flags=, description=}
// as Redis does: keys in any case, each value checked as it comes.
// Leaves the callback at the top of the stack on success.
const char* ReadNamedArgs(lua_State* L, FunctionLibraries::Function* f) {
  if (!lua_istable(L, 1)) {
    return "calling redis.register_function with a single argument is only applicable to Lua "
           "table (representing named arguments).";
  }
  bool has_name = false, has_callback = false;
  lua_pushnil(L);  // stack: table, [callback], key
  while (lua_next(L, 1)) {
    if (!lua_isstring(L, -2)) return "named argument key given to redis.register_function is not a string";
    lua_pushvalue(L, -2);  // a copy, so tostring never converts the iteration key
    const char* key = lua_tostring(L, -1);
    lua_pop(L, 1);
    if (!strcasecmp(key, "function_name")) {
      if (!lua_isstring(L, -1)) return "function_name argument given to redis.register_function must be a string";
      f->name = LuaString(L, -1), has_name = true;
    } else if (!strcasecmp(key, "description")) {
      if (!lua_isstring(L, -1)) return "description argument given to redis.register_function must be a string";
      f->description = LuaString(L, -1), f->has_description = true;
    } else if (!strcasecmp(key, "callback")) {
      if (!lua_isfunction(L, -1)) return "callback argument given to redis.register_function must be a function";
      lua_pushvalue(L, -1);
      lua_setfield(L, LUA_REGISTRYINDEX, "__rankd_pending_callback");
      has_callback = true;
    } else if (!strcasecmp(key, "flags")) {
      if (!lua_istable(L, -1)) return "flags argument to redis.register_function must be a table representing function flags";
      lua_pushvalue(L, -1);
      if (!ReadFlags(L, &f->flags)) return "unknown flag given";
    } else {
      return "unknown argument given to redis.register_function";
    }
    lua_pop(L, 1);
  }
  if (!has_name) return "redis.register_function must get a function name argument";
  if (!has_callback) return "redis.register_function must get a callback argument";
  lua_getfield(L, LUA_REGISTRYINDEX, "__rankd_pending_callback");
  return nullptr;
}

// Validates a register_function call and appends it; returns an error text
// or nullptr.
const char* Register(lua_State* L) {
  if (!g_pending) return "redis.register_function can only be called on FUNCTION LOAD command";
  int argc = lua_gettop(L);
  if (argc < 1 || argc > 2) return "wrong number of arguments to redis.register_function";
  FunctionLibraries::Function f;
  if (argc == 1) {
    const char* err = ReadNamedArgs(L, &f);
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "__rankd_pending_callback");
    if (err) return err;
  } else {
    if (!lua_isstring(L, 1)) return "first argument to redis.register_function must be a string";
    if (!lua_isfunction(L, 2)) return "second argument to redis.register_function must be a function";
    f.name = LuaString(L, 1);
    lua_pushvalue(L, 2);
  }
  // The callback is at the top.
  if (!ValidName(f.name)) return kBadName;
  for (const auto& p : *g_pending) {
    if (p.name == f.name) return "Function already exists in the library";
  }
  for (const std::string& flag : f.flags) {
    if (flag == "no-writes") f.no_writes = true;
    if (flag == "allow-oom") f.allow_oom = true;
    if (flag == "allow-stale") f.allow_stale = true;
    if (flag == "no-cluster") f.no_cluster = true;
    if (flag == "allow-cross-slot-keys") f.allow_cross_slot = true;
  }
  f.ref = luaL_ref(L, LUA_REGISTRYINDEX);
  g_pending->push_back(std::move(f));
  return nullptr;
}

int RegisterFunction(lua_State* L) {
  const char* err = Register(L);
  return err ? Fail(L, err) : 0;
}

// FUNCTION LOAD's time limit (Redis 7.0's LOAD_TIMEOUT_MS): library code
// that runs longer fails the load; the server serves nobody meanwhile.
constexpr int64_t kLoadTimeoutMs = 500;
int64_t g_load_start_ms = 0;

void LoadHook(lua_State* L, lua_Debug*) {
  if (MonoMs() - g_load_start_ms <= kLoadTimeoutMs) return;
  // Every line from now on, so a pcall cannot catch it for good.
  lua_sethook(L, LoadHook, LUA_MASKLINE, 0);
  PushLuaError(L, "FUNCTION LOAD timeout");
  lua_error(L);
}

}  // namespace

FunctionLibraries::FunctionLibraries(ScriptHost* host)
    : sandbox_(host, LuaSandbox::Kind::kFunction) {
  lua_State* L = sandbox_.state();
  // The load API, as in Redis 7.0: only a `redis` table with
  // register_function, log and the version and log-level constants, behind
  // the nonexistent-global rule, itself read-only. No other global (not
  // even error or pcall) is reachable while a library loads.
  PushRealGlobals(L);
  int globals = lua_gettop(L);
  lua_newtable(L);
  int api = globals + 1;
  lua_newtable(L);
  lua_pushcfunction(L, RegisterFunction);
  lua_setfield(L, -2, "register_function");
  lua_getfield(L, globals, "redis");
  for (const char* k : {"log", "LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING",
                        "REDIS_VERSION", "REDIS_VERSION_NUM"}) {
    lua_getfield(L, -1, k);
    lua_setfield(L, -3, k);
  }
  lua_pop(L, 1);
  lua_getmetatable(L, globals);
  lua_setmetatable(L, -2);
  lua_setfield(L, api, "redis");
  lua_getmetatable(L, globals);
  lua_setmetatable(L, api);
  PushReadonly(L, api);
  lua_setfield(L, LUA_REGISTRYINDEX, "__rankd_load_api");
  lua_pop(L, 2);
  // The environment of library code: empty, reads fall through to
  // __index (the load API while loading, the globals after), writes fail.
  lua_newtable(L);
  lua_newtable(L);
  lua_pushvalue(L, LUA_GLOBALSINDEX);
  lua_setfield(L, -2, "__index");
  lua_getmetatable(L, LUA_GLOBALSINDEX);
  lua_getfield(L, -1, "__newindex");
  lua_setfield(L, -3, "__newindex");
  lua_pop(L, 1);
  lua_setmetatable(L, -2);
  env_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
}

std::string FunctionLibraries::Load(std::string_view code, bool replace, std::string* name) {
  // The shebang, as Redis functionExtractLibMetaData reads it.
  if (code.substr(0, 2) != "#!") return "ERR Missing library metadata";
  size_t eol = code.find('\n');
  if (eol == std::string_view::npos) return "ERR Invalid library metadata";
  std::optional<std::vector<std::string>> parts = SplitArgs(code.substr(0, eol));
  if (!parts || parts->empty()) return "ERR Invalid library metadata";
  std::string engine = (*parts)[0].substr(2);
  bool has_name = false;
  name->clear();
  for (size_t i = 1; i < parts->size(); i++) {
    const std::string& part = (*parts)[i];
    if (strncasecmp(part.c_str(), "name=", 5) != 0) return "ERR Invalid metadata value given: " + part;
    if (has_name) return "ERR Invalid metadata value, name argument was given multiple times";
    *name = part.substr(5), has_name = true;
  }
  if (!has_name) return "ERR Library name was not given";
  if (!ValidName(*name)) return std::string("ERR ") + kBadName;
  if (!EqualsIgnoreCase(engine, "lua")) return "ERR Engine '" + engine + "' not found";
  if (!replace && libraries_.count(*name)) return "ERR Library '" + *name + "' already exists";

  lua_State* L = sandbox_.state();
  std::string error;
  std::string_view body = code.substr(eol);
  if (!sandbox_.Compile(body, &error)) return "ERR Error compiling function: " + error;
  // Run the chunk in the proxy environment, with the load API visible.
  lua_rawgeti(L, LUA_REGISTRYINDEX, env_ref_);
  lua_getmetatable(L, -1);
  lua_getfield(L, LUA_REGISTRYINDEX, "__rankd_load_api");
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  lua_setfenv(L, -2);
  lua_getglobal(L, "__redis__err__handler");
  lua_insert(L, -2);
  std::vector<Function> pending;
  g_pending = &pending;
  g_load_start_ms = MonoMs();
  lua_sethook(L, LoadHook, LUA_MASKCOUNT, 100000);
  int rc = lua_pcall(L, 0, 0, -2);
  lua_sethook(L, nullptr, 0, 0);
  g_pending = nullptr;
  lua_rawgeti(L, LUA_REGISTRYINDEX, env_ref_);
  lua_getmetatable(L, -1);
  lua_pushvalue(L, LUA_GLOBALSINDEX);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 2);
  auto unref_pending = [&] {
    for (const Function& f : pending) luaL_unref(L, LUA_REGISTRYINDEX, f.ref);
  };
  if (rc != 0) {
    lua_getfield(L, -1, "err");
    error = lua_tostring(L, -1) ? lua_tostring(L, -1) : "ERR unknown error";
    lua_pop(L, 3);
    unref_pending();
    return "ERR Error registering functions: " + error;
  }
  lua_pop(L, 1);  // the handler
  if (pending.empty()) return "ERR No functions registered";
  for (const Function& f : pending) {
    auto it = by_function_.find(LowerCase(f.name));
    if (it != by_function_.end() && it->second.first != *name) {
      unref_pending();
      return "ERR Function " + f.name + " already exists";
    }
  }
  Delete(*name);
  Library& lib = libraries_[*name];
  lib.name = *name;
  lib.code = std::string(code);
  for (Function& f : pending) {
    by_function_[LowerCase(f.name)] = {*name, f.name};
    std::string fname = f.name;
    lib.functions.emplace(fname, std::move(f));
  }
  return "";
}

void FunctionLibraries::Unref(Library& lib) {
  for (auto& [fname, f] : lib.functions) {
    luaL_unref(sandbox_.state(), LUA_REGISTRYINDEX, f.ref);
    by_function_.erase(LowerCase(fname));
  }
}

bool FunctionLibraries::Delete(std::string_view name) {
  auto it = libraries_.find(std::string(name));
  if (it == libraries_.end()) return false;
  Unref(it->second);
  libraries_.erase(it);
  return true;
}

void FunctionLibraries::Flush() {
  for (auto& [n, lib] : libraries_) Unref(lib);
  libraries_.clear();
  lua_gc(sandbox_.state(), LUA_GCCOLLECT, 0);
}

const FunctionLibraries::Function* FunctionLibraries::Find(std::string_view name) const {
  auto it = by_function_.find(LowerCase(name));
  if (it == by_function_.end()) return nullptr;
  const Library& lib = libraries_.at(it->second.first);
  return &lib.functions.at(it->second.second);
}

void FunctionLibraries::Call(const Function& fn, std::span<const std::string_view> keys,
                             std::span<const std::string_view> args, ReplyBuilder& out) {
  std::string name = fn.name;  // `fn` may be deleted while it runs? No: FUNCTION is noscript.
  lua_rawgeti(sandbox_.state(), LUA_REGISTRYINDEX, fn.ref);
  sandbox_.Run(name, keys, args, out);
}

std::string FunctionLibraries::Dump() const {
  std::string out;
  for (const auto& [name, lib] : libraries_) {
    out.push_back(static_cast<char>(0xF5));  // RDB_OPCODE_FUNCTION2
    rdb::PutLength(&out, lib.code.size());
    out += lib.code;
  }
  rdb::AppendDumpFooter(&out);
  return out;
}

std::string FunctionLibraries::Restore(std::string_view payload, std::string_view policy) {
  bool flush = EqualsIgnoreCase(policy, "flush"), replace = EqualsIgnoreCase(policy, "replace");
  if (!flush && !replace && !EqualsIgnoreCase(policy, "append")) {
    return "ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.";
  }
  const char* kBadPayload = "ERR DUMP payload version or checksum are wrong";
  if (!DumpFooterOk(payload, kDumpRdbVersion)) return kBadPayload;
  std::vector<std::string> codes;
  std::string_view body = payload.substr(0, payload.size() - 10);
  for (size_t pos = 0; pos < body.size();) {
    if (static_cast<unsigned char>(body[pos++]) != 0xF5) return "ERR given type is not a function";
    std::string code;
    if (!rdb::ReadString(body, &pos, &code)) return "ERR payload is not a valid function dump";
    codes.push_back(std::move(code));
  }
  // All or nothing, as Redis: on an error the libraries from before return.
  std::vector<std::string> before;
  for (const auto& [name, lib] : libraries_) before.push_back(lib.code);
  if (flush) Flush();
  for (const std::string& code : codes) {
    std::string name;
    std::string err = Load(code, replace, &name);
    if (err.empty()) continue;
    // RESTORE words the collision without quotes (Redis functionsLibCtxFunctionsAppend).
    if (err == "ERR Library '" + name + "' already exists") err = "ERR Library " + name + " already exists";
    Flush();
    for (const std::string& old_code : before) Load(old_code, false, &name);
    return err;
  }
  return "";
}

}  // namespace rankd
