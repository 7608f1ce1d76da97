// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/lcs.h"

#include <algorithm>
#include <cassert>

namespace rankd {

LcsResult Lcs(std::string_view a, std::string_view b, bool want_subsequence, bool want_ranges,
              uint64_t min_range_len) {
  const size_t alen = a.size(), blen = b.size(), width = blen + 1;
  // table[i * width + j]: LCS length of a[0..i) and b[0..j).
  std::vector<uint32_t> table((alen + 1) * width, 0);
  for (size_t i = 1; i <= alen; i++) {
    uint32_t* row = &table[i * width];
    const uint32_t* up = row - width;
    for (size_t j = 1; j <= blen; j++) {
      row[j] = a[i - 1] == b[j - 1] ? up[j - 1] + 1 : std::max(up[j], row[j - 1]);
    }
  }
  LcsResult r;
  r.length = table[alen * width + blen];
  if (!want_subsequence && !want_ranges) return r;
  if (want_subsequence) r.subsequence.assign(r.length, '\0');

  // Walk back from (alen, blen). `open` tracks the run being extended
  // backwards; it is emitted when the walk leaves it or reaches the start
  // of either string.
  uint32_t k = r.length;
  bool open = false;
  LcsRange run{};
  auto emit = [&] {
    if (want_ranges && (min_range_len == 0 || run.length() >= min_range_len)) {
      r.ranges.push_back(run);
    }
    open = false;
  };
  size_t i = alen, j = blen;
  while (i > 0 && j > 0) {
    if (a[i - 1] == b[j - 1]) {
      if (want_subsequence) r.subsequence[k - 1] = a[i - 1];
      const auto ai = static_cast<uint32_t>(i - 1), bj = static_cast<uint32_t>(j - 1);
      if (!open) {
        run = LcsRange{ai, ai, bj, bj};
        open = true;
      } else {
        // Invariant: a match right after a match continues the run.
        assert(run.a_first == ai + 1 && run.b_first == bj + 1);
        run.a_first = ai;
        run.b_first = bj;
      }
      k--;
      i--;
      j--;
      if (run.a_first == 0 || run.b_first == 0) emit();
    } else {
      if (table[(i - 1) * width + j] > table[i * width + j - 1]) {
        i--;
      } else {
        j--;
      }
      if (open) emit();
    }
  }
  return r;
}

}  // namespace rankd
