// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CountedBTree slot codes (issue 34, scores in the leaves): if Less declares
// `static constexpr bool kSlotCodes = true` and its hint is a double, each
// leaf also keeps one byte per slot, the slot's hint quantized over the
// leaf's own range (qlo, qscale in the leaf header, chosen by Recode from
// the leaf's values when it is built by a split, a merge or a borrow):
//   code(x) = clamp(floor((HintOf(x) - qlo) * qscale), 0, 255)
// Codes are monotone in the hint for finite qlo and qscale >= 0, so they
// ascend with the values; a predicate with `double Target()` is true on
// every value whose code is below code(Target()) and false on every value
// whose code is above it, and a leaf search reads no value (no record, in
// rankd) unless some codes equal code(Target()): with ~80 values spread
// over 256 codes, about two searches in three read none, the rest one or
// two. The leaf then holds 96 values in 512 bytes instead of 123; to keep
// the price near 1 B per element, trees with codes keep nodes fuller (two
// full leaves split into three, inner nodes share with a sibling before
// they split: core/counted_btree_rebalance.h). Values placed without a
// Recode (inserts, moves) get their code in the leaf's current range,
// clamped at its ends: correct, just coarser until the next Recode.
// REQUIRES (codes): a pred with Target() is true when HintOf(x) <
// Target() and false when HintOf(x) > Target().
//
// When to Recode: a leaf that receives values from another (split, borrow,
// merge) is recoded whole, since the giver's codes use the giver's range;
// a single value placed by an insert or a move gets its code in the
// receiving leaf's range. Without slot codes every function here is a
// no-op (or a plain memmove of values).
// Included only by core/counted_btree.h; see the design block there.

#pragma once

#include <cmath>
#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace rankd {

#define RANKD_BTREE_TMPL template <typename V, typename L, size_t LB, size_t IB>
#define RANKD_BTREE CountedBTree<V, L, LB, IB>

RANKD_BTREE_TMPL
uint8_t RANKD_BTREE::CodeOf(const LeafNode* leaf, double s) {
  if constexpr (kCodes) {
    // Monotone non-decreasing in s: with qlo finite and qscale finite > 0
    // (Recode), subtraction and scaling round monotonically and give no
    // NaN; with qscale 0 (a new leaf) every code is 0 (NaN for s = +-inf).
    const double f = (s - leaf->qlo) * static_cast<double>(leaf->qscale);
    if (!(f > 0)) return 0;
    if (f >= 255) return 255;
    return static_cast<uint8_t>(f);
  } else {
    (void)leaf, (void)s;
    return 0;
  }
}

RANKD_BTREE_TMPL
void RANKD_BTREE::CodeRun(const LeafNode* leaf, uint32_t n, double target, uint32_t* lo,
                          uint32_t* hi) {
  *lo = 0, *hi = n;
  if constexpr (kCodes) {
    const uint8_t t = CodeOf(leaf, target);
    uint32_t below = 0, at_or_below = 0, j = 0;
#ifdef __SSE2__
    // Codes ascend, so counting the codes < t and <= t gives the run. The
    // bytes are compared as signed after flipping their top bit.
    // Each lane counts its matches (a true compare is -1, subtracted), and
    // one sum of absolute differences per counter adds the lanes up at the
    // end: no popcount, which without -mpopcnt is a libgcc call.
    const __m128i flip = _mm_set1_epi8(static_cast<char>(0x80));
    const __m128i tv = _mm_set1_epi8(static_cast<char>(t ^ 0x80));
    __m128i lt = _mm_setzero_si128(), gt = _mm_setzero_si128();
    static_assert(kLeafCap / 16 < 128, "a lane counts at most one match per 16 codes");
    for (; j + 16 <= n; j += 16) {
      const __m128i c = _mm_xor_si128(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(&leaf->codes[j])), flip);
      lt = _mm_sub_epi8(lt, _mm_cmplt_epi8(c, tv));
      gt = _mm_sub_epi8(gt, _mm_cmpgt_epi8(c, tv));
    }
    const __m128i zero = _mm_setzero_si128();
    const __m128i lts = _mm_sad_epu8(lt, zero), gts = _mm_sad_epu8(gt, zero);
    below = static_cast<uint32_t>(_mm_cvtsi128_si32(lts) + _mm_extract_epi16(lts, 4));
    // So far the codes > t were counted.
    at_or_below = j - static_cast<uint32_t>(_mm_cvtsi128_si32(gts) + _mm_extract_epi16(gts, 4));
#endif
    for (; j < n; ++j) {
      below += leaf->codes[j] < t;
      at_or_below += leaf->codes[j] <= t;
    }
    *lo = below, *hi = at_or_below;
  } else {
    (void)leaf, (void)target;
  }
}

RANKD_BTREE_TMPL
void RANKD_BTREE::SetCode(LeafNode* leaf, uint32_t j) const {
  if constexpr (kCodes) leaf->codes[j] = CodeOf(leaf, HintFor(leaf->vals[j]));
  (void)leaf, (void)j;
}

RANKD_BTREE_TMPL
void RANKD_BTREE::Recode(LeafNode* leaf) const {
  if constexpr (kCodes) {
    const uint32_t n = leaf->n;
    if constexpr (requires(V x) { less_.Prefetch(x); }) {
      for (uint32_t j = 0; j < n; ++j) less_.Prefetch(leaf->vals[j]);
    }
    leaf->qlo = 0, leaf->qscale = 0;  // every code 0: a leaf of < 2 values
    if (n >= 2) {
      // The values' range plus one average gap on each side, so that a
      // value arriving just outside it still gets a code of its own.
      const double first = HintFor(leaf->vals[0]), last = HintFor(leaf->vals[n - 1]);
      const double gap = (last - first) / (n - 1);
      const double lo = first - gap, scale = 256.0 / ((last - first) + 2 * gap);
      if (std::isfinite(lo) && std::isfinite(scale) && scale > 0 &&
          std::isfinite(static_cast<float>(scale))) {
        leaf->qlo = lo, leaf->qscale = static_cast<float>(scale);
      }
    }
    for (uint32_t j = 0; j < n; ++j) SetCode(leaf, j);
  } else {
    (void)leaf;
  }
}

RANKD_BTREE_TMPL
void RANKD_BTREE::MoveSlots(LeafNode* dst, size_t di, const LeafNode* src, size_t si, size_t n) {
  std::memmove(&dst->vals[di], &src->vals[si], n * sizeof(V));
  if constexpr (kCodes) std::memmove(&dst->codes[di], &src->codes[si], n);
}

#undef RANKD_BTREE
#undef RANKD_BTREE_TMPL

}  // namespace rankd
