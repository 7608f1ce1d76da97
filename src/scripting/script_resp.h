// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Conversions between RESP replies and Lua values, with Redis 7.0's rules.
//
// RESP -> Lua (what redis.call returns to the script):
//   :n -> number      $s -> string      $-1 / *-1 -> false
//   +s -> {ok=s}      -e -> {err=e}     *n -> array table
//   RESP3 (only when the script chose redis.setresp(3)):
//   %  -> {map={k=v}}  ~ -> {set={m=true}}  _ -> nil  #t/#f -> true/false
//   ,d -> {double=d}   (n -> {big_number=s}  =txt:s -> {verbatim_string=
//   {format=..., string=...}}; attributes are skipped.
//
// Lua -> RESP (what the script returns to its caller):
//   string -> bulk; number -> integer (truncated toward zero, as C's cast);
//   true -> :1 (RESP3 scripts: #t); false -> null (RESP3 scripts: #f);
//   table -> {err=..} error, {ok=..} status, {double=..}, {big_number=..},
//   {map=..}, {set=..}, else an array of t[1], t[2], ... up to the first nil;
//   anything else (nil, functions, userdata) -> null.

#pragma once

#include <cstddef>
#include <string_view>

#include "net/reply.h"

struct lua_State;

namespace rankd {

// The field Redis sets (true) in the error table of a command's error reply
// (its name is visible to scripts): the error was counted in INFO
// errorstats when the command answered, so the script returning or raising
// it does not count it again.
inline constexpr const char* kErrorCounted = "ignore_error_stats_update";
// Whether the table at `idx` has kErrorCounted set (read raw).
bool ErrorWasCounted(lua_State* L, int idx);

// Parses the RESP reply that starts at buf[*pos] and pushes it onto the Lua
// stack as one value; advances *pos past it. Returns false (pushing nothing)
// if the bytes are not one complete, well-formed reply.
bool PushReplyAsLua(lua_State* L, std::string_view buf, size_t* pos);

// Writes the Lua value at the top of the stack to `out` (leaves the stack as
// it was). `script_resp` is the version the script selected with
// redis.setresp (2 or 3); `out` encodes for the caller's own version.
void WriteLuaAsReply(lua_State* L, int script_resp, ReplyBuilder& out);

}  // namespace rankd
