// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Decimal text of unsigned integers for the reply path: the digit count is
// known before anything is written, so a caller can put a length header
// ("$10\r\n") in front of the digits and write both in place, two digits per
// step from a table. Same text as std::to_chars; roughly a third of its
// instructions on ten-digit scores, which every range reply prints.

#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace rankd {

// Number of decimal digits of v (1 for 0). Compares first, four digits per
// divide after: headers ("$16", "*20") cost one or two compares. (A bit-width
// estimate with a power-of-ten table measured more instructions per reply.)
inline int DecimalDigits(uint64_t v) {
  int n = 1;
  for (;;) {
    if (v < 10) return n;
    if (v < 100) return n + 1;
    if (v < 1000) return n + 2;
    if (v < 10000) return n + 3;
    v /= 10000;
    n += 4;
  }
}

// Writes v's decimal digits so that they end just before `end` (room for
// 20 bytes before it); returns where they start. No digit count needed.
inline char* WriteDecimalBackward(char* end, uint64_t v) {
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  char* p = end;
  while (v >= 100) {
    const unsigned pair = static_cast<unsigned>(v % 100) * 2;
    v /= 100;
    p -= 2;
    std::memcpy(p, kPairs + pair, 2);
  }
  if (v >= 10) {
    p -= 2;
    std::memcpy(p, kPairs + v * 2, 2);
  } else {
    *--p = static_cast<char>('0' + v);
  }
  return p;
}

// Writes the `digits` (== DecimalDigits(v)) decimal digits of v at `out`;
// returns out + digits.
inline char* WriteDecimal(char* out, uint64_t v, int digits) {
  WriteDecimalBackward(out + digits, v);
  return out + digits;
}

// Writes v's decimal text at `out` (room for 20 bytes); returns the end.
inline char* WriteDecimal(char* out, uint64_t v) { return WriteDecimal(out, v, DecimalDigits(v)); }

// The eight decimal digits of v (REQUIRES: v < 10^8), zero-padded, as byte
// values 0-9 with the most significant digit in the lowest byte: all eight
// at once in one register (SWAR), a handful of multiplies and no loop.
// Splits v into two 4-digit lanes of 32 bits (v / 10^4 low), each lane into
// two 2-digit lanes of 16 bits (/ 100, as * 10486 >> 20, exact below 10^4),
// each of those into two digits (/ 10, as * 103 >> 10, exact below 100); no
// lane's product reaches the next lane.
inline uint64_t EightDigits(uint64_t v) {
  const uint32_t v32 = static_cast<uint32_t>(v);
  const uint32_t hi = v32 / 10000;
  uint64_t x = hi | (uint64_t{v32 - hi * 10000} << 32);
  uint64_t q = ((x * 10486) >> 20) & 0x0000007F0000007Full;
  x = q | ((x - q * 100) << 16);
  q = ((x * 103) >> 10) & 0x000F000F000F000Full;
  return q | ((x - q * 10) << 8);
}

// The decimal text of v < 10^16, made in registers before it is stored, so
// that its length is known first (a "$<len>" header can go in front of it
// without a copy): `head` holds the first `head_len` characters (1-8), and
// numbers of more than eight digits continue with the eight of `tail`.
struct SmallDecimal {
  static constexpr uint64_t kLimit = 10'000'000'000'000'000ull;  // 10^16
  static_assert(std::endian::native == std::endian::little);
  uint64_t head, tail = 0;
  int head_len, len;

  [[gnu::always_inline]] explicit SmallDecimal(uint64_t v) {  // REQUIRES: v < kLimit
    constexpr uint64_t kZeros = 0x3030303030303030ull;  // '0' in every byte
    if (v < 100'000'000) {
      head = EightDigits(v);
    } else {
      head = EightDigits(v / 100'000'000);  // not 0: its leading zeros are counted
      tail = EightDigits(v % 100'000'000) | kZeros;
    }
    // Zero digits in front (of 0: seven, its last digit stays).
    const int lead = std::countr_zero(head | (uint64_t{1} << 56)) / 8;
    head = (head | kZeros) >> (8 * lead);
    head_len = 8 - lead;
    len = head_len + (v < 100'000'000 ? 0 : 8);
  }
  // Writes the text at `out` (REQUIRES: 16 bytes of room); returns its end.
  char* Store(char* out) const {
    std::memcpy(out, &head, 8);
    std::memcpy(out + head_len, &tail, 8);
    return out + len;
  }
};

// True when d prints under "%.17g" as a plain integer (integral, |d| < 1e17,
// not -0), whose value it stores in *i: such values print exactly.
inline bool DoubleAsInteger(double d, int64_t* i) {
  if (!(d > -1e17 && d < 1e17)) return false;
  *i = static_cast<int64_t>(d);
  return static_cast<double>(*i) == d && (*i != 0 || !std::signbit(d));
}

}  // namespace rankd
