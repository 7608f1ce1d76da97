// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Decimal text of unsigned integers for the reply path: the digit count is
// known before anything is written, so a caller can put a length header
// ("$10\r\n") in front of the digits and write both in place, two digits per
// step from a table. Same text as std::to_chars; roughly a third of its
// instructions on ten-digit scores, which every range reply prints.

#pragma once

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

// True when d prints under "%.17g" as a plain integer (integral, |d| < 1e17,
// not -0), whose value it stores in *i: such values print exactly.
inline bool DoubleAsInteger(double d, int64_t* i) {
  if (!(d > -1e17 && d < 1e17)) return false;
  *i = static_cast<int64_t>(d);
  return static_cast<double>(*i) == d && (*i != 0 || !std::signbit(d));
}

}  // namespace rankd
