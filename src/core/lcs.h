// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Longest common subsequence of two byte strings (the LCS command), by the
// textbook dynamic programme: a table of (|a| + 1) * (|b| + 1) 32-bit
// lengths, then one walk back from the end that recovers the subsequence
// and the ranges where it matches contiguously in both strings. The walk
// prefers to drop a byte of `b` when both choices keep the same length, as
// Redis 7.0 does, so the subsequence and the ranges are Redis's.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankd {

// One contiguous run of the subsequence: a[a_first..a_last] equals
// b[b_first..b_last] (inclusive), length a_last - a_first + 1.
struct LcsRange {
  uint32_t a_first, a_last, b_first, b_last;
  uint32_t length() const { return a_last - a_first + 1; }
};

struct LcsResult {
  uint32_t length = 0;          // length of the longest common subsequence
  std::string subsequence;      // filled when asked for
  std::vector<LcsRange> ranges;  // from the end of the strings to the start
};

// Bytes of transient memory Lcs needs for strings of these lengths.
inline uint64_t LcsTableBytes(uint64_t a_len, uint64_t b_len) {
  return (a_len + 1) * (b_len + 1) * sizeof(uint32_t);
}

// Computes the LCS of `a` and `b`. With `want_subsequence` fills
// result.subsequence; with `want_ranges` fills result.ranges with the runs
// of at least `min_range_len` bytes (0 keeps all). Time O(|a| * |b|),
// memory LcsTableBytes(|a|, |b|).
// REQUIRES: both lengths < 2^32 - 1; the caller has bounded the memory.
LcsResult Lcs(std::string_view a, std::string_view b, bool want_subsequence, bool want_ranges,
              uint64_t min_range_len);

}  // namespace rankd
