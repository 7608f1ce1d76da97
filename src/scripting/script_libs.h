// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The two Lua libraries Redis 7.0 ships that Debian does not package for
// Lua 5.1, written here from their documented behaviour and checked byte
// for byte against redis-server 7.0 (tests/test_script_libs.py):
//
//   struct    pack(fmt, ...) -> string, unpack(fmt, s [, pos]) -> values...,
//             next pos, size(fmt) -> bytes. Format: < > endianness,
//             !n max alignment, x pad, b/B h/H l/L T i[n]/I[n] integers,
//             f d floats, c[n] fixed string (c0: length from the previous
//             value when unpacking, the whole string when packing),
//             s zero-terminated string, spaces ignored. Integers keep the
//             low 64 bits of the number; sizes up to 32 bytes.
//   cmsgpack  pack(...) -> string (MessagePack, each argument after the
//             other; tables are arrays when their keys are exactly 1..n,
//             maps otherwise; nesting past 16 levels packs nil; integral
//             numbers as the smallest int, others as float32 when exact,
//             else float64), unpack(s) -> values..., unpack_one(s [, off])
//             -> next offset (-1 at the end), value, unpack_limit(s, n
//             [, off]) -> next offset, up to n values.
//
// Errors use Redis's texts. Both open as globals of the sandbox before it
// is made read-only.

#pragma once

extern "C" {
#include <lua.h>
}

namespace rankd {

// Sets the global `struct` table.
void OpenStructLibrary(lua_State* L);

// Sets the global `cmsgpack` table.
void OpenCmsgpackLibrary(lua_State* L);

}  // namespace rankd
