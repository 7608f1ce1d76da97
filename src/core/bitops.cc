// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/bitops.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>

namespace rankd {
namespace {

inline uint8_t ByteAt(std::string_view s, uint64_t i) {
  return i < s.size() ? static_cast<uint8_t>(s[i]) : 0;
}

// The bits of one byte that lie in the inclusive in-byte range [lo, hi]
// (0 = most significant).
inline uint8_t ByteMask(unsigned lo, unsigned hi) {
  return static_cast<uint8_t>((0xFFu >> lo) & (0xFFu << (7 - hi)));
}

}  // namespace

bool GetBit(std::string_view s, uint64_t offset) {
  return (ByteAt(s, offset >> 3) >> (7 - (offset & 7))) & 1;
}

void SetBit(std::string* s, uint64_t offset, bool on) {
  assert((offset >> 3) < s->size());
  char& byte = (*s)[offset >> 3];
  const uint8_t bit = static_cast<uint8_t>(1u << (7 - (offset & 7)));
  byte = static_cast<char>(on ? (byte | bit) : (byte & ~bit));
}

uint64_t CountBits(std::string_view s, uint64_t first, uint64_t last) {
  assert(first <= last && (last >> 3) < s.size());
  const uint64_t fb = first >> 3, lb = last >> 3;
  if (fb == lb) return __builtin_popcount(ByteAt(s, fb) & ByteMask(first & 7, last & 7));
  uint64_t n = __builtin_popcount(ByteAt(s, fb) & ByteMask(first & 7, 7)) +
               __builtin_popcount(ByteAt(s, lb) & ByteMask(0, last & 7));
  uint64_t i = fb + 1;
  for (; i + 8 <= lb; i += 8) {
    uint64_t w;
    memcpy(&w, s.data() + i, 8);
    n += __builtin_popcountll(w);
  }
  for (; i < lb; i++) n += __builtin_popcount(ByteAt(s, i));
  return n;
}

int64_t FindBit(std::string_view s, bool bit, uint64_t first, uint64_t last) {
  assert(first <= last && (last >> 3) < s.size());
  const uint64_t fb = first >> 3, lb = last >> 3;
  for (uint64_t i = fb; i <= lb; i++) {
    uint8_t b = ByteAt(s, i);
    if (!bit) b = static_cast<uint8_t>(~b);  // look for a 1 in the complement
    b &= ByteMask(i == fb ? first & 7 : 0, i == lb ? last & 7 : 7);
    if (b) return static_cast<int64_t>(i * 8 + (__builtin_clz(b) - 24));
  }
  return -1;
}

std::string BitOp(BitOpKind op, std::span<const std::string_view> srcs) {
  size_t max_len = 0;
  for (std::string_view s : srcs) max_len = std::max(max_len, s.size());
  std::string out(max_len, '\0');
  if (op == BitOpKind::kNot) {
    assert(srcs.size() == 1);
    for (size_t i = 0; i < max_len; i++) out[i] = static_cast<char>(~srcs[0][i]);
    return out;
  }
  for (size_t i = 0; i < max_len; i++) {
    uint8_t acc = ByteAt(srcs[0], i);
    for (size_t j = 1; j < srcs.size(); j++) {
      const uint8_t b = ByteAt(srcs[j], i);
      acc = op == BitOpKind::kAnd ? (acc & b) : op == BitOpKind::kOr ? (acc | b) : (acc ^ b);
    }
    out[i] = static_cast<char>(acc);
  }
  return out;
}

int64_t GetBitField(std::string_view s, uint64_t offset, BitFieldType t) {
  uint64_t v = 0;
  for (unsigned i = 0; i < t.bits; i++) v = (v << 1) | GetBit(s, offset + i);
  if (t.is_signed && t.bits < 64 && (v >> (t.bits - 1)) & 1) v |= ~uint64_t{0} << t.bits;
  return static_cast<int64_t>(v);
}

void SetBitField(std::string* s, uint64_t offset, BitFieldType t, uint64_t value) {
  for (unsigned i = 0; i < t.bits; i++) {
    SetBit(s, offset + i, (value >> (t.bits - 1 - i)) & 1);
  }
}

bool BitFieldAdd(BitFieldType t, int64_t value, int64_t incr, BitFieldOverflow ow,
                 int64_t* out) {
  // +1: above the type's maximum, -1: below its minimum, 0: fits.
  int direction = 0;
  int64_t max, min;
  if (t.is_signed) {
    max = t.bits == 64 ? INT64_MAX : (int64_t{1} << (t.bits - 1)) - 1;
    min = -max - 1;
    // Redis compares the increment with max - value and min - value computed
    // with wrap-around, which for values far outside a narrow type (SET
    // i8 ... -9223372036854775808) saturates to the maximum; so do we.
    const auto maxincr = static_cast<int64_t>(static_cast<uint64_t>(max) - value);
    const auto minincr = static_cast<int64_t>(static_cast<uint64_t>(min) - value);
    const bool narrow = t.bits != 64;
    if (value > max || (narrow && incr > maxincr) || (value >= 0 && incr > 0 && incr > maxincr)) {
      direction = 1;
    } else if (value < min || (narrow && incr < minincr) ||
               (value < 0 && incr < 0 && incr < minincr)) {
      direction = -1;
    }
  } else {
    max = static_cast<int64_t>((uint64_t{1} << t.bits) - 1);
    min = 0;
    const auto uvalue = static_cast<uint64_t>(value);
    if (uvalue > static_cast<uint64_t>(max) ||
        (incr > 0 && static_cast<uint64_t>(incr) > static_cast<uint64_t>(max) - uvalue)) {
      direction = 1;
    } else if (incr < 0 && static_cast<uint64_t>(-(incr + 1)) + 1 > uvalue) {
      direction = -1;
    }
  }
  if (direction == 0) {
    *out = static_cast<int64_t>(static_cast<uint64_t>(value) + static_cast<uint64_t>(incr));
    return true;
  }
  if (ow == BitFieldOverflow::kSat) {
    *out = direction > 0 ? max : min;
    return true;
  }
  if (ow == BitFieldOverflow::kFail) return false;
  uint64_t low = static_cast<uint64_t>(value) + static_cast<uint64_t>(incr);
  if (t.bits < 64) {
    const uint64_t high = ~uint64_t{0} << t.bits;
    const bool negative = t.is_signed && ((low >> (t.bits - 1)) & 1);
    low = negative ? (low | high) : (low & ~high);
  }
  *out = static_cast<int64_t>(low);
  return true;
}

}  // namespace rankd
