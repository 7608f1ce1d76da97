// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// String commands, part two: counters and in-place edits. Registered in
// string_family.cc's table.
//
// Counters (INCR, DECR, INCRBY, DECRBY, INCRBYFLOAT) keep the key's deadline,
// as Redis does, and store the result as a fresh value (OBJECT ENCODING
// "int" for integers). APPEND and SETRANGE grow the value in place and mark
// it raw; both refuse results longer than proto-max-bulk-len with
// "ERR string exceeds maximum allowed size (proto-max-bulk-len)".

#pragma once

#include "server/command.h"

namespace rankd {

void Incr(CommandContext& ctx);         // INCR key
void Decr(CommandContext& ctx);         // DECR key
void IncrBy(CommandContext& ctx);       // INCRBY key increment
void DecrBy(CommandContext& ctx);       // DECRBY key decrement
void IncrByFloat(CommandContext& ctx);  // INCRBYFLOAT key increment
void Append(CommandContext& ctx);       // APPEND key value
void StrLen(CommandContext& ctx);       // STRLEN key
void GetRange(CommandContext& ctx);     // GETRANGE / SUBSTR key start end
void SetRange(CommandContext& ctx);     // SETRANGE key offset value

// string_lcs.cc.
void LcsCmd(CommandContext& ctx);  // LCS key1 key2 [LEN] [IDX] [MINMATCHLEN n] [WITHMATCHLEN]

}  // namespace rankd
