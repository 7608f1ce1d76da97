// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Bit operations on byte strings, as Redis's bitmap commands see them (SETBIT,
// BITCOUNT, BITPOS, BITOP, BITFIELD). A string is a bit array with bit 0 the
// most significant bit of byte 0; bits past the end read as 0. Pure
// functions: no I/O, no RESP, no keyspace. The commands resolve Redis's
// start/end arguments (negative indexes, BYTE|BIT units) into the inclusive
// bit ranges taken here.

#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace rankd {

// The bit at `offset` of `s` (0 past the end).
bool GetBit(std::string_view s, uint64_t offset);

// Sets the bit at `offset` to `on`. REQUIRES: offset / 8 < s->size().
void SetBit(std::string* s, uint64_t offset, bool on);

// Number of bits set in the inclusive bit range [first, last] of `s`.
// REQUIRES: first <= last < 8 * s.size(). O(n/8) with word popcounts.
uint64_t CountBits(std::string_view s, uint64_t first, uint64_t last);

// Position of the first bit equal to `bit` in the inclusive range
// [first, last] of `s`, or -1 when there is none.
// REQUIRES: first <= last < 8 * s.size().
int64_t FindBit(std::string_view s, bool bit, uint64_t first, uint64_t last);

enum class BitOpKind { kAnd, kOr, kXor, kNot };

// BITOP: combines `srcs` byte by byte into a string as long as the longest
// source; shorter sources read as zero-padded. kNot takes exactly one source.
std::string BitOp(BitOpKind op, std::span<const std::string_view> srcs);

// ---- BITFIELD integers ----
// A field is `bits` wide (1..64 signed, 1..63 unsigned), stored most
// significant bit first from a bit offset, which need not be byte aligned.
struct BitFieldType {
  bool is_signed = false;
  unsigned bits = 0;
};

enum class BitFieldOverflow { kWrap, kSat, kFail };

// The field at `offset` of `s`, bits past the end reading as 0. A signed
// field is sign-extended; an unsigned one is returned as its value.
int64_t GetBitField(std::string_view s, uint64_t offset, BitFieldType t);

// Writes the low `t.bits` bits of `value` at `offset`.
// REQUIRES: (offset + t.bits - 1) / 8 < s->size().
void SetBitField(std::string* s, uint64_t offset, BitFieldType t, uint64_t value);

// The value a field of type `t` takes when `incr` is added to `value` (for
// SET: the new value with incr 0; `value` is then any int64, read as
// unsigned for an unsigned field). Returns false when the exact result does
// not fit the type and `ow` is kFail (nothing to write); otherwise stores
// in *out the exact result, its low bits (kWrap, sign-extended when signed)
// or the nearest limit (kSat).
[[nodiscard]] bool BitFieldAdd(BitFieldType t, int64_t value, int64_t incr,
                               BitFieldOverflow ow, int64_t* out);

}  // namespace rankd
