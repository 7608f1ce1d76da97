// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Out-of-line template definitions of CountedBTree: node allocation,
// search, positional insert/erase, hints and MapValues. Restructuring
// helpers are in core/counted_btree_rebalance.h, the distinct-value groups
// in core/counted_btree_groups.h, the invariant checker in
// core/counted_btree_check.h.
// Included only by core/counted_btree.h; see the design block there.

#pragma once

#include <string>
#include <type_traits>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace rankd {

#define RANKD_BTREE_TMPL template <typename V, typename L, size_t LB, size_t IB>
#define RANKD_BTREE CountedBTree<V, L, LB, IB>

RANKD_BTREE_TMPL
typename RANKD_BTREE::LeafNode* RANKD_BTREE::NewLeaf() {
  LeafNode* leaf = new LeafNode;
  leaf->prev = leaf->next = nullptr;
  if constexpr (kGroups) leaf->heads = 0;
  if constexpr (kCodes) leaf->qlo = 0, leaf->qscale = 0;  // all codes 0 until a Recode
  leaf->n = 0;
  leaf->is_leaf = 1;
  ++leaves_;
  return leaf;
}

RANKD_BTREE_TMPL
typename RANKD_BTREE::InnerNode* RANKD_BTREE::NewInner() {
  InnerNode* node = new InnerNode;
  node->n = 0;
  node->is_leaf = 0;
  ++inners_;
  return node;
}

RANKD_BTREE_TMPL
void RANKD_BTREE::FreeLeaf(LeafNode* leaf) {
  delete leaf;
  --leaves_;
}

RANKD_BTREE_TMPL
void RANKD_BTREE::FreeInner(InnerNode* node) {
  delete node;
  --inners_;
}

RANKD_BTREE_TMPL
void RANKD_BTREE::FreeSubtree(void* p, int h) {
  if (h == 0) return FreeLeaf(AsLeaf(p));
  InnerNode* node = AsInner(p);
  for (uint32_t i = 0; i < node->n; ++i) FreeSubtree(node->children[i], h - 1);
  FreeInner(node);
}

RANKD_BTREE_TMPL
void RANKD_BTREE::Clear() {
  if (root_ != nullptr) FreeSubtree(root_, height_);
  root_ = nullptr;
  height_ = 0;
  size_ = 0;
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

RANKD_BTREE_TMPL
uint32_t RANKD_BTREE::ChildForInsert(const InnerNode* p, uint64_t* rank) {
  uint32_t i = 0;
  while (i + 1 < p->n && *rank > p->counts[i]) *rank -= p->counts[i++];
  return i;
}

RANKD_BTREE_TMPL
uint32_t RANKD_BTREE::ChildForRank(const InnerNode* p, uint64_t* rank) {
  uint32_t i = 0;
  while (*rank >= p->counts[i]) *rank -= p->counts[i++];
  assert(i < p->n);
  return i;
}

RANKD_BTREE_TMPL
typename RANKD_BTREE::Cursor RANKD_BTREE::Seek(uint64_t rank) const {
  if (rank >= size_) return Cursor();
  void* p = root_;
  uint64_t total = size_;  // of the subtree at p
  for (int h = height_; h > 0; --h) {
    const InnerNode* node = AsInner(p);
    uint32_t i;
    if (rank < total / 2) {
      i = ChildForRank(node, &rank);
    } else {
      // In the upper half (the top of a leaderboard read in reverse), from
      // the right: `after` values of this subtree follow the one sought.
      uint64_t after = total - 1 - rank;
      i = node->n - 1u;
      while (after >= node->counts[i]) after -= node->counts[i--];
      rank = node->counts[i] - 1 - after;
    }
    total = node->counts[i];
    p = node->children[i];
  }
  return Cursor(AsLeaf(p), static_cast<uint32_t>(rank));
}

RANKD_BTREE_TMPL
void RANKD_BTREE::GrowIfRootFull() {
  if (root_ == nullptr) root_ = NewLeaf(), height_ = 0;
  if (NodeSize(root_, height_) < (height_ == 0 ? kLeafCap : kInnerCap)) return;
  assert(height_ + 1 < kMaxHeight);
  InnerNode* r = NewInner();
  r->n = 1;
  r->children[0] = root_;
  r->counts[0] = size_;
  if constexpr (kGroups) r->heads[0] = HeadsOf(root_, height_);
  SetKey(r, 0, MinOf(root_, height_));
  root_ = r;
  ++height_;
}

RANKD_BTREE_TMPL
void RANKD_BTREE::InsertAt(uint64_t rank, V v) {
  assert(rank <= size_);
  const uint64_t global_rank = rank;
  GrowIfRootFull();
  PathStep path[kMaxHeight];
  int depth = 0;
  void* p = root_;
  for (int h = height_; h > 0; --h) {
    InnerNode* node = AsInner(p);
    uint64_t local = rank;
    uint32_t i = ChildForInsert(node, &local);
    if (NodeSize(node->children[i], h - 1) == (h == 1 ? kLeafCap : kInnerCap)) {
      MakeRoom(node, i, h - 1);  // Invariant: node is not full, so it can take a split.
      local = rank;
      i = ChildForInsert(node, &local);
    }
    node->counts[i]++;
    path[depth++] = {node, i};
    p = node->children[i];
    rank = local;
  }
  InsertInLeaf(AsLeaf(p), static_cast<uint32_t>(rank), global_rank, v, path, depth);
}

RANKD_BTREE_TMPL
void RANKD_BTREE::InsertInLeaf(LeafNode* leaf, uint32_t rank, uint64_t global_rank, V v,
                               const PathStep* path, int depth) {
  assert(leaf->n < kLeafCap);
  MoveSlots(leaf, rank + 1, leaf, rank, leaf->n - rank);
  leaf->vals[rank] = v;
  SetCode(leaf, rank);
  leaf->n++;
  size_++;
  if constexpr (kGroups) {
    // v's own bit, from its predecessor (in this leaf or the previous one).
    const LeafNode* pl = rank > 0 ? leaf : leaf->prev;
    const V* pred = pl ? &pl->vals[rank > 0 ? rank - 1 : pl->n - 1] : nullptr;
    const bool head = IsHead(pred, v);
    const uint64_t b = leaf->heads, low = LowBits(rank);
    leaf->heads = (b & low) | ((b & ~low) << 1) | (uint64_t{head} << rank);
    for (int d = 0; d < depth && head; ++d) path[d].node->heads[path[d].index]++;
    // The successor's predecessor is now v.
    if (rank + 1 < leaf->n) {
      const bool now = IsHead(&v, leaf->vals[rank + 1]);
      if (now != ((leaf->heads >> (rank + 1)) & 1)) {
        leaf->heads ^= uint64_t{1} << (rank + 1);
        for (int d = 0; d < depth; ++d) path[d].node->heads[path[d].index] += now ? 1 : -1;
      }
    } else if (leaf->next != nullptr) {
      if (IsHead(&v, leaf->next->vals[0]) != (leaf->next->heads & 1)) FlipHead(global_rank + 1);
    }
  }
  if (rank == 0) SetFirstKey(path, depth, v);  // the leaf's minimum changed
}

RANKD_BTREE_TMPL
V RANKD_BTREE::EraseAt(uint64_t rank) {
  assert(rank < size_);
  const uint64_t global_rank = rank;
  PathStep path[kMaxHeight];
  int depth = 0;
  void* p = root_;
  for (int h = height_; h > 0; --h) {
    InnerNode* node = AsInner(p);
    uint64_t local = rank;
    uint32_t i = ChildForRank(node, &local);
    if (NodeSize(node->children[i], h - 1) <= (h == 1 ? kLeafMin : kInnerMin)) {
      Refill(node, i, h - 1);  // Invariant: node has > min children unless root.
      local = rank;
      i = ChildForRank(node, &local);
    }
    node->counts[i]--;
    path[depth++] = {node, i};
    p = node->children[i];
    rank = local;
  }
  LeafNode* leaf = AsLeaf(p);
  V v = leaf->vals[rank];
  if constexpr (kGroups) {
    const uint64_t b = leaf->heads, low = LowBits(rank);
    const bool was_head = (b >> rank) & 1;
    leaf->heads = (b & low) | ((b >> 1) & ~low);
    for (int d = 0; d < depth && was_head; ++d) path[d].node->heads[path[d].index]--;
  }
  MoveSlots(leaf, rank, leaf, rank + 1, leaf->n - rank - 1);
  leaf->n--;
  size_--;
  if (size_ == 0) {  // Only a root leaf can hold the last value.
    FreeLeaf(leaf);
    root_ = nullptr;
    height_ = 0;
    return v;
  }
  if constexpr (kGroups) {
    // The successor's predecessor is now v's predecessor.
    const LeafNode* pl = rank > 0 ? leaf : leaf->prev;
    const V* pred = pl ? &pl->vals[rank > 0 ? rank - 1 : pl->n - 1] : nullptr;
    if (rank < leaf->n) {
      const bool now = IsHead(pred, leaf->vals[rank]);
      if (now != ((leaf->heads >> rank) & 1)) {
        leaf->heads ^= uint64_t{1} << rank;
        for (int d = 0; d < depth; ++d) path[d].node->heads[path[d].index] += now ? 1 : -1;
      }
    } else if (leaf->next != nullptr) {
      if (IsHead(pred, leaf->next->vals[0]) != (leaf->next->heads & 1)) FlipHead(global_rank);
    }
  }
  if (rank == 0) SetFirstKey(path, depth, leaf->vals[0]);
  while (height_ > 0 && AsInner(root_)->n == 1) {
    InnerNode* old = AsInner(root_);
    root_ = old->children[0];
    --height_;
    FreeInner(old);
  }
  return v;
}

RANKD_BTREE_TMPL
void RANKD_BTREE::RefreshHint(uint64_t rank) {
  assert(rank < size_);
  void* p = root_;
  for (int h = height_; h > 0; --h) {
    InnerNode* node = AsInner(p);
    uint32_t i = ChildForRank(node, &rank);
    if (rank == 0) node->hints[i] = HintFor(node->keys[i]);  // the value is this separator
    p = node->children[i];
  }
  // The new hint keeps the value's place among its neighbours', and so does
  // its new code.
  SetCode(AsLeaf(p), static_cast<uint32_t>(rank));
}

RANKD_BTREE_TMPL
template <typename Fn>
void RANKD_BTREE::MapValues(Fn fn) {
  if (root_ == nullptr) return;
  void* p = root_;
  for (int h = height_; h > 0; --h) p = AsInner(p)->children[0];
  for (LeafNode* leaf = AsLeaf(p); leaf != nullptr; leaf = leaf->next) {
    for (uint32_t j = 0; j < leaf->n; ++j) leaf->vals[j] = fn(leaf->vals[j]);
    if constexpr (kCodes) Recode(leaf);  // fn may change hints (keeping the order)
  }
  RefreshKeys(root_, height_);
}

RANKD_BTREE_TMPL
void RANKD_BTREE::RefreshKeys(void* p, int h) {
  if (h == 0) return;
  InnerNode* node = AsInner(p);
  for (uint32_t i = 0; i < node->n; ++i) {
    RefreshKeys(node->children[i], h - 1);
    SetKey(node, i, MinOf(node->children[i], h - 1));
  }
}

#undef RANKD_BTREE
#undef RANKD_BTREE_TMPL

}  // namespace rankd
