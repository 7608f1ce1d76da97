// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Lua raises errors with longjmp, which skips C++ destructors: nothing here
// holds a C++ object with a destructor across a call that can raise.

#include "scripting/script_readonly.h"

#include <climits>
#include <cstdint>

extern "C" {
#include <lauxlib.h>
}

namespace rankd {
namespace {

constexpr char kProxyToReal[] = "__rankd_ro_real";   // proxy -> table
constexpr char kRealToProxy[] = "__rankd_ro_proxy";  // table -> proxy
constexpr char kRealGlobals[] = "__rankd_ro_globals";

// Pushes the registry map `name`, creating it on first use.
void PushMap(lua_State* L, const char* name) {
  lua_getfield(L, LUA_REGISTRYINDEX, name);
  if (!lua_isnil(L, -1)) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, name);
}

// Looks `idx` up in the registry map `name`; pushes the value (nil if none).
void Lookup(lua_State* L, const char* name, int idx) {
  idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
  PushMap(L, name);
  lua_pushvalue(L, idx);
  lua_rawget(L, -2);
  lua_remove(L, -2);
}

// If the value at `idx` is a proxy, replaces it by its real table.
void Unwrap(lua_State* L, int idx) {
  Lookup(L, kProxyToReal, idx);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
  } else {
    lua_replace(L, idx);
  }
}

// __newindex of every proxy: the position of the script line, then the text.
int NewIndexError(lua_State* L) {
  luaL_where(L, 1);
  lua_pushstring(L, kReadonlyTableError);
  lua_concat(L, 2);
  return lua_error(L);
}

// Raised by the C functions a script calls directly (rawset, setmetatable,
// table.insert...): Redis's VM raises it without a position.
int PlainReadonlyError(lua_State* L) {
  lua_pushstring(L, kReadonlyTableError);
  return lua_error(L);
}

int RawSet(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  luaL_checkany(L, 3);
  if (IsReadonly(L, 1)) return PlainReadonlyError(L);
  lua_settop(L, 3);
  lua_rawset(L, 1);
  return 1;
}

int RawGet(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  lua_settop(L, 2);
  Unwrap(L, 1);
  lua_rawget(L, 1);
  return 1;
}

int Next(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 2);
  Unwrap(L, 1);
  if (lua_next(L, 1)) return 2;
  lua_pushnil(L);
  return 1;
}

int Pairs(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_pushvalue(L, lua_upvalueindex(1));  // next
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

int IPairsAux(lua_State* L) {
  int i = luaL_checkint(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  Unwrap(L, 1);
  i++;
  lua_pushinteger(L, i);
  lua_rawgeti(L, 1, i);
  return lua_isnil(L, -1) ? 0 : 2;
}

int IPairs(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_pushvalue(L, lua_upvalueindex(1));  // IPairsAux
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

int SetMetatable(lua_State* L) {
  int t = lua_type(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_argcheck(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table expected");
  if (IsReadonly(L, 1)) return PlainReadonlyError(L);
  if (luaL_getmetafield(L, 1, "__metatable")) return luaL_error(L, "cannot change a protected metatable");
  lua_settop(L, 2);
  lua_setmetatable(L, 1);
  return 1;
}

// The metatable of a protected table is the proxy of its real table's.
int GetMetatable(lua_State* L) {
  luaL_checkany(L, 1);
  lua_settop(L, 1);
  bool protected_table = IsReadonly(L, 1);
  Unwrap(L, 1);
  if (!lua_getmetatable(L, 1)) {
    lua_pushnil(L);
    return 1;
  }
  luaL_getmetafield(L, 1, "__metatable");
  if (!lua_istable(L, -1)) return 1;
  if (protected_table) {
    PushReadonly(L, -1);
    return 1;
  }
  Lookup(L, kRealToProxy, -1);
  if (lua_isnil(L, -1)) lua_pop(L, 1);
  return 1;
}

// unpack: reads through proxies, and counts in 64 bits (the stock one
// overflows on unpack({}, 0, 2^31 - 1), Redis's CVE-2025-46817).
int Unpack(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  Unwrap(L, 1);
  int64_t i = luaL_optint(L, 2, 1);
  int64_t e = lua_isnoneornil(L, 3) ? static_cast<int64_t>(lua_objlen(L, 1)) : luaL_checkint(L, 3);
  if (i > e) return 0;
  int64_t n = e - i + 1;
  if (n >= INT_MAX || !lua_checkstack(L, static_cast<int>(n))) {
    return luaL_error(L, "too many results to unpack");
  }
  for (int64_t k = i; k <= e; k++) lua_rawgeti(L, 1, static_cast<int>(k));
  return static_cast<int>(n);
}

// table.insert: checked here first, so an error about the arguments names
// the script's line as the stock function would, then the stock function
// runs (upvalue 1). table.remove and table.sort need no wrapper: a proxy's
// length is 0, so they never write to one.
int CallStock(lua_State* L) {
  int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, n, LUA_MULTRET);
  return lua_gettop(L);
}

int TableInsert(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  int n = lua_gettop(L);
  if (n == 3) luaL_checkint(L, 2);
  if (n != 2 && n != 3) return luaL_error(L, "wrong number of arguments to 'insert'");
  if (IsReadonly(L, 1)) return PlainReadonlyError(L);
  return CallStock(L);
}

void WrapTableFunction(lua_State* L, const char* name, lua_CFunction fn) {
  lua_getfield(L, -1, name);
  lua_pushcclosure(L, fn, 1);
  lua_setfield(L, -2, name);
}

}  // namespace

bool IsReadonly(lua_State* L, int idx) {
  if (!lua_istable(L, idx)) return false;
  Lookup(L, kProxyToReal, idx);
  bool found = !lua_isnil(L, -1);
  lua_pop(L, 1);
  return found;
}

bool PushRealTable(lua_State* L, int idx) {
  Lookup(L, kProxyToReal, idx);
  if (!lua_isnil(L, -1)) return true;
  lua_pop(L, 1);
  return false;
}

void PushReadonly(lua_State* L, int idx) {
  idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
  luaL_checkstack(L, 8, "readonly tables nested too deeply");
  if (IsReadonly(L, idx)) return lua_pushvalue(L, idx);
  Lookup(L, kRealToProxy, idx);
  if (!lua_isnil(L, -1)) return;
  lua_pop(L, 1);
  lua_newtable(L);  // the proxy
  int proxy = lua_gettop(L);
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, idx);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, NewIndexError);
  lua_setfield(L, -2, "__newindex");
  lua_setmetatable(L, proxy);
  PushMap(L, kProxyToReal);
  lua_pushvalue(L, proxy);
  lua_pushvalue(L, idx);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  PushMap(L, kRealToProxy);
  lua_pushvalue(L, idx);
  lua_pushvalue(L, proxy);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  // Every table reachable from this one is replaced by its proxy (assigning
  // to an existing field is allowed during lua_next).
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_istable(L, -1) && !IsReadonly(L, -1)) {
      PushReadonly(L, -1);  // key, value, proxy
      lua_pushvalue(L, -3);
      lua_insert(L, -2);    // key, value, key, proxy
      lua_rawset(L, idx);
    }
    lua_pop(L, 1);
  }
}

void InstallReadonlyOverrides(lua_State* L) {
  lua_pushcfunction(L, RawSet);
  lua_setglobal(L, "rawset");
  lua_pushcfunction(L, RawGet);
  lua_setglobal(L, "rawget");
  lua_pushcfunction(L, Next);
  lua_pushvalue(L, -1);
  lua_setglobal(L, "next");
  lua_pushcclosure(L, Pairs, 1);
  lua_setglobal(L, "pairs");
  lua_pushcfunction(L, IPairsAux);
  lua_pushcclosure(L, IPairs, 1);
  lua_setglobal(L, "ipairs");
  lua_pushcfunction(L, SetMetatable);
  lua_setglobal(L, "setmetatable");
  lua_pushcfunction(L, GetMetatable);
  lua_setglobal(L, "getmetatable");
  lua_pushcfunction(L, Unpack);
  lua_setglobal(L, "unpack");
  lua_getglobal(L, "table");
  WrapTableFunction(L, "insert", TableInsert);
  lua_pop(L, 1);
}

void ProtectGlobalsTable(lua_State* L) {
  lua_pushvalue(L, LUA_GLOBALSINDEX);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, kRealGlobals);
  PushReadonly(L, -1);
  lua_replace(L, LUA_GLOBALSINDEX);
  lua_pop(L, 1);
  // The string metatable (getmetatable('')) is shared by every string.
  lua_pushliteral(L, "");
  if (lua_getmetatable(L, -1)) {
    PushReadonly(L, -1);
    lua_pop(L, 2);
  }
  lua_pop(L, 1);
}

void PushRealGlobals(lua_State* L) { lua_getfield(L, LUA_REGISTRYINDEX, kRealGlobals); }

}  // namespace rankd
