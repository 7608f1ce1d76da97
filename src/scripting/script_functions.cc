// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "scripting/script_functions.h"

extern "C" {
#include <lauxlib.h>
#include <lua.h>
}

#include <cctype>
#include <cstring>

#include "base/split.h"
#include "server/command.h"

namespace rankd {
namespace {

// The library being loaded (register_function appends to it). Single-threaded.
std::vector<FunctionLibraries::Function>* g_pending = nullptr;

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

// Validates a register_function call and appends it; returns an error text
// or nullptr. Leaves the stack as it found it.
const char* Register(lua_State* L) {
  if (!g_pending) return "redis.register_function can only be called on FUNCTION LOAD command";
  int argc = lua_gettop(L);
  FunctionLibraries::Function f;
  int name_idx = 0, cb_idx = 0, flags_idx = 0, desc_idx = 0;
  if (argc == 1) {
    if (!lua_istable(L, 1)) return "calling redis.register_function with a single argument is only applicable to Lua table (representing named arguments).";
    lua_pushnil(L);
    while (lua_next(L, 1)) {
      if (lua_type(L, -2) != LUA_TSTRING) return lua_settop(L, argc), "named argument key given to redis.register_function is not a string";
      const char* k = lua_tostring(L, -2);
      int idx = lua_gettop(L);
      if (!strcmp(k, "function_name")) name_idx = idx;
      else if (!strcmp(k, "callback")) cb_idx = idx;
      else if (!strcmp(k, "flags")) flags_idx = idx;
      else if (!strcmp(k, "description")) desc_idx = idx;
      else return lua_settop(L, argc), "unknown argument given to redis.register_function";
      lua_pushvalue(L, -2);  // keep the value in place, continue with the key copy
    }
    if (!name_idx) return lua_settop(L, argc), "redis.register_function must get a function name argument";
    if (!cb_idx) return lua_settop(L, argc), "redis.register_function must get a callback argument";
  } else if (argc == 2) {
    name_idx = 1, cb_idx = 2;
  } else {
    return "wrong number of arguments to redis.register_function";
  }
  const char* err = nullptr;
  if (lua_type(L, name_idx) != LUA_TSTRING) err = "function name argument given to redis.register_function must be a string";
  else if (lua_type(L, cb_idx) != LUA_TFUNCTION) err = "callback argument given to redis.register_function must be a function";
  else if (desc_idx && lua_type(L, desc_idx) != LUA_TSTRING) err = "description argument given to redis.register_function must be a string";
  else if (flags_idx && !lua_istable(L, flags_idx)) err = "flags argument to redis.register_function must be a table representing function flags";
  if (err) return lua_settop(L, argc), err;
  f.name = lua_tostring(L, name_idx);
  if (!ValidName(f.name)) return lua_settop(L, argc), "Function names can only contain letters, numbers, or underscores(_) and must be at least one character long";
  for (const auto& p : *g_pending) {
    if (p.name == f.name) return lua_settop(L, argc), "Function already exists in the library";
  }
  if (desc_idx) f.description = lua_tostring(L, desc_idx), f.has_description = true;
  for (int j = 1; flags_idx; j++) {
    lua_rawgeti(L, flags_idx, j);
    if (lua_isnil(L, -1)) break;
    const char* flag = lua_tostring(L, -1);
    if (!flag || (strcmp(flag, "no-writes") && strcmp(flag, "allow-oom") &&
                  strcmp(flag, "allow-stale") && strcmp(flag, "no-cluster") &&
                  strcmp(flag, "allow-cross-slot-keys"))) {
      return lua_settop(L, argc), "unknown flag given";
    }
    f.flags.emplace_back(flag);
    if (!strcmp(flag, "no-writes")) f.no_writes = true;
    lua_pop(L, 1);
  }
  lua_pushvalue(L, cb_idx);
  f.ref = luaL_ref(L, LUA_REGISTRYINDEX);
  g_pending->push_back(std::move(f));
  lua_settop(L, argc);
  return nullptr;
}

int RegisterFunction(lua_State* L) {
  const char* err = Register(L);
  return err ? Fail(L, err) : 0;
}

// Reads an RDB length; returns false at the end of input or on "encoded".
bool ReadRdbLen(std::string_view in, size_t* pos, uint64_t* len, bool* encoded) {
  if (*pos >= in.size()) return false;
  auto b = static_cast<unsigned char>(in[(*pos)++]);
  *encoded = false;
  switch (b >> 6) {
    case 0: *len = b & 0x3f; return true;
    case 1:
      if (*pos >= in.size()) return false;
      *len = ((b & 0x3f) << 8) | static_cast<unsigned char>(in[(*pos)++]);
      return true;
    case 3: *encoded = true; *len = b & 0x3f; return true;
    default: {
      int n = b == 0x80 ? 4 : b == 0x81 ? 8 : 0;
      if (!n || *pos + n > in.size()) return false;
      *len = 0;
      for (int i = 0; i < n; i++) *len = (*len << 8) | static_cast<unsigned char>(in[(*pos)++]);
      return true;
    }
  }
}

void AppendRdbLen(std::string* out, uint64_t len) {
  if (len < 64) {
    out->push_back(static_cast<char>(len));
  } else if (len < 16384) {
    out->push_back(static_cast<char>(0x40 | (len >> 8)));
    out->push_back(static_cast<char>(len & 0xff));
  } else {
    out->push_back(static_cast<char>(0x80));
    for (int i = 3; i >= 0; i--) out->push_back(static_cast<char>((len >> (8 * i)) & 0xff));
  }
}

// LZF decompression (the RDB "compressed string" encoding Redis writes).
bool LzfDecompress(std::string_view in, size_t out_len, std::string* out) {
  out->clear();
  size_t ip = 0;
  while (ip < in.size()) {
    unsigned ctrl = static_cast<unsigned char>(in[ip++]);
    if (ctrl < 32) {
      if (ip + ctrl + 1 > in.size()) return false;
      out->append(in.substr(ip, ctrl + 1));
      ip += ctrl + 1;
      continue;
    }
    size_t len = ctrl >> 5;
    if (len == 7) {
      if (ip >= in.size()) return false;
      len += static_cast<unsigned char>(in[ip++]);
    }
    if (ip >= in.size()) return false;
    size_t back = ((ctrl & 0x1f) << 8) + static_cast<unsigned char>(in[ip++]) + 1;
    if (back > out->size()) return false;
    for (size_t i = 0; i < len + 2; i++) out->push_back((*out)[out->size() - back]);
  }
  return out->size() == out_len;
}

bool ReadRdbString(std::string_view in, size_t* pos, std::string* s) {
  uint64_t len;
  bool encoded;
  if (!ReadRdbLen(in, pos, &len, &encoded)) return false;
  if (!encoded) {
    if (*pos + len > in.size()) return false;
    *s = std::string(in.substr(*pos, len));
    *pos += len;
    return true;
  }
  uint64_t clen, ulen;
  if (len != 3 || !ReadRdbLen(in, pos, &clen, &encoded) || encoded ||
      !ReadRdbLen(in, pos, &ulen, &encoded) || encoded || *pos + clen > in.size()) {
    return false;
  }
  bool ok = LzfDecompress(in.substr(*pos, clen), ulen, s);
  *pos += clen;
  return ok;
}

}  // namespace

uint64_t Crc64Jones(uint64_t crc, std::string_view data) {
  for (unsigned char c : data) {
    crc ^= c;
    for (int k = 0; k < 8; k++) crc = (crc & 1) ? (crc >> 1) ^ 0x95AC9329AC4BC9B5ULL : crc >> 1;
  }
  return crc;
}

FunctionLibraries::FunctionLibraries(ScriptHost* host)
    : sandbox_(host, LuaSandbox::Kind::kFunction) {
  lua_State* L = sandbox_.state();
  // The load API: a restricted `redis` plus the runtime globals (rawget'd),
  // behind the same nonexistent-global / read-only rules.
  lua_newtable(L);  // api
  lua_pushnil(L);
  while (lua_next(L, LUA_GLOBALSINDEX)) {
    const char* k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
    if (strcmp(k, "redis") && strcmp(k, "KEYS") && strcmp(k, "ARGV")) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, -4);
    } else {
      lua_pop(L, 1);
    }
  }
  lua_pushstring(L, "redis");
  lua_newtable(L);
  lua_pushcfunction(L, RegisterFunction);
  lua_setfield(L, -2, "register_function");
  lua_getglobal(L, "redis");
  for (const char* k : {"log", "setresp", "LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING",
                        "REDIS_VERSION", "REDIS_VERSION_NUM"}) {
    lua_getfield(L, -1, k);
    lua_setfield(L, -3, k);
  }
  lua_pop(L, 1);
  lua_getmetatable(L, LUA_GLOBALSINDEX);
  lua_setmetatable(L, -2);
  lua_rawset(L, -3);
  lua_getmetatable(L, LUA_GLOBALSINDEX);
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, "__rankd_load_api");
  // The proxy environment: empty, reads fall through to __index.
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
  if (code.substr(0, 2) != "#!") return "ERR Missing library metadata";
  size_t eol = code.find('\n');
  if (eol == std::string_view::npos) return "ERR Invalid library metadata";
  // parts[0] is "#!<engine>": the line starts with "#!".
  std::vector<std::string_view> parts = SplitSpaces(code.substr(0, eol));
  // Redis 7.0's order: metadata, then engine, then the name's characters.
  name->clear();
  bool named = false;
  for (size_t i = 1; i < parts.size(); i++) {
    if (parts[i].size() < 5 || !EqualsIgnoreCase(parts[i].substr(0, 5), "name=")) {
      return "ERR Invalid metadata value given: " + std::string(parts[i]);
    }
    if (named) return "ERR Invalid metadata value, name argument was given multiple times";
    named = true;
    *name = std::string(parts[i].substr(5));
  }
  if (!named) return "ERR Library name was not given";
  std::string_view engine = parts[0].substr(2);
  if (engine != "lua") return "ERR Engine '" + std::string(engine) + "' not found";
  if (!ValidName(*name)) return "ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long";
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
  int rc = lua_pcall(L, 0, 0, -2);
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
    auto it = by_function_.find(f.name);
    if (it != by_function_.end() && it->second != *name) {
      unref_pending();
      return "ERR Function " + f.name + " already exists";
    }
  }
  Delete(*name);
  Library& lib = libraries_[*name];
  lib.name = *name;
  lib.code = std::string(code);
  for (Function& f : pending) {
    by_function_[f.name] = *name;
    std::string fname = f.name;
    lib.functions.emplace(fname, std::move(f));
  }
  return "";
}

void FunctionLibraries::Unref(Library& lib) {
  for (auto& [fname, f] : lib.functions) {
    luaL_unref(sandbox_.state(), LUA_REGISTRYINDEX, f.ref);
    by_function_.erase(fname);
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
  auto it = by_function_.find(std::string(name));
  if (it == by_function_.end()) return nullptr;
  const Library& lib = libraries_.at(it->second);
  return &lib.functions.at(it->first);
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
    AppendRdbLen(&out, lib.code.size());
    out += lib.code;
  }
  out.push_back(10);  // RDB version, little-endian
  out.push_back(0);
  uint64_t crc = Crc64Jones(0, out);
  for (int i = 0; i < 8; i++) out.push_back(static_cast<char>((crc >> (8 * i)) & 0xff));
  return out;
}

std::string FunctionLibraries::Restore(std::string_view payload, std::string_view policy) {
  bool flush = EqualsIgnoreCase(policy, "flush"), replace = EqualsIgnoreCase(policy, "replace");
  if (!flush && !replace && !EqualsIgnoreCase(policy, "append")) {
    return "ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.";
  }
  const char* kBadPayload = "ERR DUMP payload version or checksum are wrong";
  if (payload.size() < 10) return kBadPayload;
  size_t n = payload.size();
  uint64_t crc = 0;
  for (int i = 7; i >= 0; i--) crc = (crc << 8) | static_cast<unsigned char>(payload[n - 8 + i]);
  int version = static_cast<unsigned char>(payload[n - 10]) | (static_cast<unsigned char>(payload[n - 9]) << 8);
  if (version > 10 || Crc64Jones(0, payload.substr(0, n - 8)) != crc) return kBadPayload;
  std::vector<std::string> codes;
  std::string_view body = payload.substr(0, n - 10);
  for (size_t pos = 0; pos < body.size();) {
    if (static_cast<unsigned char>(body[pos++]) != 0xF5) return "ERR given type is not a function";
    std::string code;
    if (!ReadRdbString(body, &pos, &code)) return "ERR payload is not a valid function dump";
    codes.push_back(std::move(code));
  }
  if (flush) Flush();
  for (const std::string& code : codes) {
    std::string name;
    std::string err = Load(code, replace, &name);
    // RESTORE words the collision without quotes (Redis functionsLibCtxFunctionsAppend).
    if (err == "ERR Library '" + name + "' already exists") err = "ERR Library " + name + " already exists";
    if (!err.empty()) return err;
  }
  return "";
}

}  // namespace rankd
