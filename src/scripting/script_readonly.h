// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Read-only tables for stock Lua 5.1, the way Redis 7.0 protects what every
// script shares: the global table and every table reachable from it
// (redis, cjson, bit, string, math, table, coroutine, the string
// metatable, ...). Redis patches its Lua VM with a "readonly" flag on
// tables; Debian's liblua5.1 has no such flag, so rankd uses proxies:
//
//   proxy P (always empty)  --metatable-->  { __index = T, __newindex = error }
//
// Scripts only ever see P. Reads fall through to the real table T (whose
// nested tables have themselves been replaced by their proxies, so every
// path a script can follow leads to a proxy); assignments land in P's
// __newindex and raise "Attempt to modify a readonly table". The base
// functions that bypass metamethods (rawset, rawget, next, pairs, ipairs,
// setmetatable, getmetatable, unpack, table.insert) are replaced by
// versions that see through proxies for reads and refuse them for writes,
// with Redis's texts. What differs from Redis: `#` of a protected table is
// 0, and so are the lengths table.concat/maxn/remove/sort see (see
// docs/scripting.md).
//
// Not thread-safe; one lua_State per owner thread.

#pragma once

extern "C" {
#include <lua.h>
}

namespace rankd {

// The error a write to a protected table raises (Redis's text).
inline constexpr char kReadonlyTableError[] = "Attempt to modify a readonly table";

// Replaces rawset, rawget, next, pairs, ipairs, setmetatable, getmetatable,
// unpack and table.insert with proxy-aware versions.
// REQUIRES: the base and table libraries are open; called before
// ProtectGlobalsTable.
void InstallReadonlyOverrides(lua_State* L);

// Pushes the read-only proxy of the table at `idx` (creating it, and the
// proxies of every table reachable from it, on first use). The table
// itself must never be handed to scripts afterwards.
void PushReadonly(lua_State* L, int idx);

// Makes the thread's global table read-only: LUA_GLOBALSINDEX becomes the
// proxy of the current globals (and `_G` inside it names the proxy). The
// real table stays reachable through PushRealGlobals for the host, which
// sets KEYS and ARGV there.
void ProtectGlobalsTable(lua_State* L);

// Pushes the real (writable) global table behind the proxy.
// REQUIRES: ProtectGlobalsTable has run on L's state.
void PushRealGlobals(lua_State* L);

// True if the value at `idx` is a read-only proxy.
bool IsReadonly(lua_State* L, int idx);

// If the value at `idx` is a read-only proxy, pushes the real table behind
// it (for readers such as cmsgpack.pack) and returns true; else pushes
// nothing.
bool PushRealTable(lua_State* L, int idx);

}  // namespace rankd
