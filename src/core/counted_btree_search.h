// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Out-of-line template definitions of CountedBTree's searches by a
// predicate: the descent through the inner nodes (the child picked from
// the hints, guessed from the node's bounds first; the counts before it
// summed from the nearer end), the prefetch of what the next level will
// read, and the search inside a leaf (by slot codes where the tree has
// them, core/counted_btree_codes.h).
// Included only by core/counted_btree.h; see the design block there.

#pragma once

#include <algorithm>
#include <cstdint>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace rankd {

#define RANKD_BTREE_TMPL template <typename V, typename L, size_t LB, size_t IB>
#define RANKD_BTREE CountedBTree<V, L, LB, IB>

// Adds the counts of node's children before i to *before, summing the
// shorter side: those before i, or (from the node's size *total) those
// from i on, so that a descent reads about half the lines of counts it
// would from the left. Sets *total to child i's count.
RANKD_BTREE_TMPL
void RANKD_BTREE::AddBefore(const InnerNode* node, uint32_t i, uint64_t* before,
                            uint64_t* total) {
  uint64_t s = 0;
  if (2 * i <= node->n) {
    for (uint32_t j = 0; j < i; ++j) s += node->counts[j];
    *before += s;
  } else {
    for (uint32_t j = i; j < node->n; ++j) s += node->counts[j];
    *before += *total - s;
  }
  *total = node->counts[i];
}

RANKD_BTREE_TMPL
int RANKD_BTREE::SlotGuess(double t, double lo, double hi, uint32_t n) {
  if (n == 0 || !(lo < hi)) return -1;
  const double f = (t - lo) / (hi - lo);
  if (!(f >= 0 && f <= 1)) return -1;  // also NaN from infinities
  return std::min(static_cast<int>(f * n + 0.5), static_cast<int>(n) - 1);
}

RANKD_BTREE_TMPL
template <typename Pred>
uint32_t RANKD_BTREE::DescendStep(const InnerNode* node, int h, Pred& pred, uint64_t* before,
                                  uint64_t* total, LeafBounds* bounds) {
  const uint32_t child = ChildByPred(node, h, pred, bounds);
  EnterChild(node, child, h, pred, before, total);
  return child;
}

RANKD_BTREE_TMPL
template <typename Pred>
void RANKD_BTREE::EnterChild(const InnerNode* node, uint32_t i, int h, const Pred& pred,
                             uint64_t* before, uint64_t* total) {
  // Overlaps the child's misses with the sum below.
  if (h == 1) {
    PrefetchLeafFor(node, i, pred);
  } else {
    PrefetchNode(node->children[i], h - 1);
  }
  AddBefore(node, i, before, total);
}

// Starts loading what a search by `pred` reads of leaf child i of `node`
// (at height 1): with slot codes and a pred with Target(), only the lines
// of the header and the codes and the line of vals where the target's
// slot is guessed (SlotGuess from the node's hints and count, as the
// search will guess it), 3 of a 512-byte leaf's 8; else every line.
RANKD_BTREE_TMPL
template <typename Pred>
void RANKD_BTREE::PrefetchLeafFor(const InnerNode* node, uint32_t i, const Pred& pred) {
  const LeafNode* leaf = AsLeaf(node->children[i]);
  if constexpr (kCodes && requires { double(pred.Target()); }) {
    const uint32_t n = static_cast<uint32_t>(node->counts[i]);
    const int g = i + 1 < node->n ? SlotGuess(static_cast<double>(pred.Target()), node->hints[i],
                                              node->hints[i + 1], n)
                                  : -1;
    if (g >= 0) {
      const char* c = reinterpret_cast<const char*>(leaf);
      const char* codes_end = reinterpret_cast<const char*>(&leaf->codes[n - 1]);
      for (; c < codes_end; c += 64) __builtin_prefetch(c);  // header and codes
      __builtin_prefetch(codes_end);
      __builtin_prefetch(&leaf->vals[g]);
      return;
    }
  }
  (void)pred;
  PrefetchNode(leaf, 0);
}

// The child of `node` (at height h) that DescendByPred goes down to;
// with `bounds`, narrows them. With bounds for the node (not the root)
// and a pred with Target() on floating-point hints, the search starts at
// the child interpolated from them (SlotGuess) and steps to its
// neighbours, so it reads one or two lines of hints instead of a binary
// search's three to five; a binary search finishes when that is not
// enough.
RANKD_BTREE_TMPL
template <typename Pred>
uint32_t RANKD_BTREE::ChildByPred(const InnerNode* node, int h, Pred& pred,
                                  LeafBounds* bounds) {
  // Whether every value of subtree j sorts before the answer's.
  auto before = [&](uint32_t j) {
    int decided = -1;
    if constexpr (requires { pred.Decide(node->hints[j]); }) decided = pred.Decide(node->hints[j]);
    if (decided < 0) decided = pred(node->keys[j]) ? 1 : 0;
    return decided != 0;
  };
  // keys[0] is never tested: everything before child 0 is nothing. The
  // answer (the first j >= 1 with !before(j), else n) stays in [lo, hi].
  uint32_t lo = 1, hi = node->n;
  if constexpr (std::is_floating_point_v<Hint> && requires { double(pred.Target()); }) {
    if (bounds != nullptr && bounds->has_lo && bounds->has_hi) {
      const int g = SlotGuess(static_cast<double>(pred.Target()), bounds->lo, bounds->hi, hi);
      if (g >= 1) {
        const uint32_t u = static_cast<uint32_t>(g);
        constexpr int kSteps = 3;  // neighbours, mostly in the same line
        if (before(u)) {
          lo = u + 1;
          for (int k = 0; k < kSteps && lo < hi; ++k) {
            if (!before(lo)) { hi = lo; break; }
            ++lo;
          }
        } else {
          hi = u;
          for (int k = 0; k < kSteps && lo < hi; ++k) {
            if (before(hi - 1)) { lo = hi; break; }
            --hi;
          }
        }
      }
    }
  }
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (before(mid)) lo = mid + 1; else hi = mid;
  }
  const uint32_t child = lo - 1;
  if (bounds != nullptr) {  // deeper levels give tighter bounds
    if (child + 1 < node->n) bounds->has_hi = true, bounds->hi = node->hints[child + 1];
    bounds->lo = node->hints[child], bounds->has_lo = true;
  }
  (void)h;
  return child;
}

RANKD_BTREE_TMPL
template <typename Pred>
const typename RANKD_BTREE::LeafNode* RANKD_BTREE::DescendByPred(Pred& pred, uint64_t* before,
                                                               LeafBounds* bounds,
                                                               uint64_t* leaf_size) const {
  void* p = root_;
  PrefetchNode(p, height_);
  uint64_t total = size_;
  for (int h = height_; h > 0; --h) {
    const InnerNode* node = AsInner(p);
    p = node->children[DescendStep(node, h, pred, before, &total, bounds)];
  }
  if (leaf_size != nullptr) *leaf_size = total;
  return AsLeaf(p);
}

RANKD_BTREE_TMPL
template <typename Pred>
uint64_t RANKD_BTREE::PartitionPoint(Pred pred) const {
  if (root_ == nullptr) return 0;
  uint64_t before = 0;
  LeafBounds bounds{};
  const LeafNode* leaf = DescendByPred(pred, &before, &bounds);
  return before + LeafPartition(leaf, leaf->n, pred, Guess(pred, bounds, leaf->n));
}

RANKD_BTREE_TMPL
template <typename Pred>
int RANKD_BTREE::Guess(const Pred& pred, const LeafBounds& bounds, uint32_t n) const {
  if constexpr (std::is_floating_point_v<Hint> && requires { Hint(pred.Target()); }) {
    // lo is the leaf's first hint (set at height 1), hi the next leaf's.
    if (height_ == 0 || !bounds.has_hi) return -1;
    return SlotGuess(static_cast<double>(pred.Target()), bounds.lo, bounds.hi, n);
  } else {
    (void)pred, (void)bounds, (void)n;
    return -1;
  }
}

RANKD_BTREE_TMPL
template <typename Pred>
uint32_t RANKD_BTREE::LeafPartition(const LeafNode* leaf, uint32_t n, Pred& pred, int guess) {
  uint32_t lo = 0, hi = n;
  if constexpr (kCodes && requires { double(pred.Target()); }) {
    // Only the slots whose code ties with the target's need pred.
    CodeRun(leaf, n, static_cast<double>(pred.Target()), &lo, &hi);
    if (lo == hi) return lo;
    guess = -1;
  }
  if constexpr (requires(V x) { pred.Prefetch(x); }) {
    // A guessed position (from the leaf's hint bounds): load the window of
    // kWindow values around it, plus one on each side, in parallel. If the
    // answer is inside, that was the only round of misses; else the window
    // still says on which side it lies.
    constexpr uint32_t kWindow = 20;
    bool loaded = false;
    if (kLeafCap > kWindow && guess >= 0 && n > kWindow) {
      // Invariant: no codes narrowed [lo, hi) (guess is -1 then).
      assert(lo == 0 && hi == n);  // constant: no window in tiny leaves
      const uint32_t g = std::min<uint32_t>(static_cast<uint32_t>(guess), n);
      const uint32_t a = g > kWindow / 2 ? std::min(g - kWindow / 2, n - kWindow) : 0;
      const uint32_t b = a + kWindow;  // the answer is in [a, b] iff both ends agree
      for (uint32_t j = a > 0 ? a - 1 : 0; j < std::min(b + 1, n); ++j) pred.Prefetch(leaf->vals[j]);
      if (a > 0 && !pred(leaf->vals[a - 1])) {
        hi = a - 1;
      } else if (b < n && pred(leaf->vals[b])) {
        lo = b + 1;
      } else {
        lo = a, hi = b;
        loaded = true;
      }
    }
    // Each pred call is a cache miss: sample 7 (or 15) pivots, load them in
    // parallel, narrow to a run of <= 8; then load that run in parallel.
    // Two rounds of misses instead of log2(n) dependent ones.
    while (!loaded && hi - lo > 8) {
      const uint32_t k = hi - lo > 64 ? 15 : 7;  // pivots: runs of <= 8 after one round
      uint32_t piv[15];
      for (uint32_t j = 0; j < k; ++j) {
        piv[j] = lo + (j + 1) * (hi - lo) / (k + 1);
        pred.Prefetch(leaf->vals[piv[j]]);
      }
      uint32_t a = 0, b = k;  // first pivot where pred is false, in [a, b]
      while (a < b) {
        uint32_t m = (a + b) / 2;
        if (pred(leaf->vals[piv[m]])) a = m + 1; else b = m;
      }
      if (a > 0) lo = piv[a - 1] + 1;
      if (a < k) hi = piv[a];
    }
    if (!loaded) {
      for (uint32_t j = lo; j < hi; ++j) pred.Prefetch(leaf->vals[j]);
    }
  }
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (pred(leaf->vals[mid])) lo = mid + 1; else hi = mid;
  }
  return lo;
}

RANKD_BTREE_TMPL
template <typename Pred>
uint64_t RANKD_BTREE::RankOfPresent(Pred pred, V v) const {
  assert(root_ != nullptr);
  uint64_t before = 0;
  LeafBounds bounds{};
  uint64_t n64 = 0;
  const LeafNode* leaf = DescendByPred(pred, &before, &bounds, &n64);
  const uint32_t n = static_cast<uint32_t>(n64);
  assert(n == leaf->n);
  const uint32_t i = IndexByCode(leaf, n, v, pred, Guess(pred, bounds, n));
  if (i < n) return before + i;
  // v separates this leaf from the next one: the descent stopped before it.
  assert(leaf->next != nullptr && leaf->next->vals[0] == v);
  return before + leaf->n;
}

// IndexIn for a value whose hint is `pred.Target()` (with slot codes and
// such a pred): only the slots whose code equals the target's are
// compared (the value's own code is among them), so the scan reads the
// codes' lines and usually one line of vals instead of every line up to
// the value. Else (or if v is not there: it is not in this leaf) IndexIn.
// `guess` (or -1): the slot Guess expects v at; its line of vals is
// searched first (the line PrefetchLeafFor loaded). `n`: leaf->n, as the
// parent knows it (so that a hit there reads no other line of the leaf).
RANKD_BTREE_TMPL
template <typename Pred>
uint32_t RANKD_BTREE::IndexByCode(const LeafNode* leaf, uint32_t n, V v, const Pred& pred,
                                  int guess) {
  if constexpr (kCodes && requires { double(pred.Target()); }) {
    if (guess >= 0) {
      // The guessed slot's line of vals first: no read of the codes' lines
      // when v is there.
      const uint32_t g = static_cast<uint32_t>(guess);
      const uint32_t skip = (reinterpret_cast<uintptr_t>(&leaf->vals[g]) & 63) / sizeof(V);
      const uint32_t from = g - std::min(g, skip);
      const uint32_t to = std::min<uint32_t>(n, g - skip + 64 / sizeof(V));
      const uint32_t i = IndexIn(leaf, v, from, to);
      if (i < to) return i;
    }
    uint32_t lo, hi;
    CodeRun(leaf, n, static_cast<double>(pred.Target()), &lo, &hi);
    const uint32_t i = IndexIn(leaf, v, lo, hi);
    if (i < hi) return i;
  }
  return IndexIn(leaf, v, 0, n);
}

RANKD_BTREE_TMPL
uint32_t RANKD_BTREE::IndexIn(const LeafNode* leaf, V v, uint32_t from, uint32_t to) {
  const uint32_t n = to;
  uint32_t i = from;
#ifdef __SSE2__
  if constexpr (std::is_integral_v<V> && sizeof(V) == 4) {
    // 8 handles per step: two 4-lane compares, one mask (a leaf of ~100
    // handles in ~13 steps instead of ~50 compare-and-branch on average).
    const __m128i key = _mm_set1_epi32(static_cast<int>(v));
    for (; i + 8 <= n; i += 8) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&leaf->vals[i]));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&leaf->vals[i + 4]));
      const int hits = _mm_movemask_epi8(
          _mm_packs_epi32(_mm_cmpeq_epi32(a, key), _mm_cmpeq_epi32(b, key)));
      if (hits != 0) return i + static_cast<uint32_t>(__builtin_ctz(hits)) / 2;
    }
  }
#endif
  while (i < n && !(leaf->vals[i] == v)) ++i;
  return i;
}

#undef RANKD_BTREE
#undef RANKD_BTREE_TMPL

}  // namespace rankd
