// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The functions rankd gives Lua scripts beyond the stock libraries, as Redis
// 7.0 defines them: the `redis` table (call, pcall, log, setresp, sha1hex,
// error_reply, status_reply, set_repl, ...) and Redis's replacements for
// math.random / math.randomseed (its drand48) and pcall, plus the error
// handler every script runs under. Only LuaSandbox (script_lua.cc) calls
// the installers; a C function that needs its sandbox uses SandboxOf.

#pragma once

extern "C" {
#include <lua.h>
}

namespace rankd {

// Sets t[name] = v / t[name] = fn on the table at the top of the stack.
void SetNumber(lua_State* L, const char* name, lua_Number v);
void SetFunction(lua_State* L, const char* name, lua_CFunction fn);

// __redis__err__handler, the message handler every script runs under:
// turns any error into {err=, source=, line=} at the Lua code that raised it.
int ErrorHandler(lua_State* L);

// Replaces math.random, math.randomseed, pcall and bit.tohex (with Redis's
// CVE-2024-31449 fix) with Redis's, caps string.rep at 1 GiB, and sets
// the global __redis__err__handler. REQUIRES: the base and math libraries
// are open.
void InstallLibraryOverrides(lua_State* L);

// Creates the global `redis` table with its functions and constants.
// `eval_api`: also the EVAL-only replicate_commands, breakpoint and debug
// (FUNCTION libraries do not see them in Redis 7.0).
void InstallRedisTable(lua_State* L, bool eval_api);

}  // namespace rankd
