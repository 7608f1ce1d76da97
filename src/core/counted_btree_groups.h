// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CountedBTree's distinct-value groups (kGroups trees: leaderboards' DENSE
// ranks): which values head a group of equal ones, the per-node head counts
// kept beside the element counts, and the O(log n) group rank and select.
//
// Groups (issue 7, dense ranks): if Less has `bool SameGroup(Value, Value)`
// (in rankd: "the two records have equal scores"), the tree also keeps a
// second per-child summary beside counts[]: the number of *group heads* in
// each subtree, where a value is a head if it is the first value of the
// whole tree or its predecessor is not in its group. The number of distinct
// groups among ranks [0, k) is then the number of heads before k, a plain
// sum down one path like a rank, and the k-th distinct group starts at the
// k-th head (SelectGroup). This is the composable distinct count
//   distinct(A+B) = distinct(A) + distinct(B) - [last(A) same as first(B)]
// with the junction term folded into B's first head bit once, at insertion,
// so that queries never read a record at a junction. Leaves keep one bit per
// slot (a 64-bit word, so kLeafCap <= 64); inner nodes one uint64_t per
// child. Mutations read the two neighbours of the value inserted or erased
// (both are in the leaf chain) and may flip the successor's bit, which costs
// one extra positional descent when the successor is in the next leaf.
// Without SameGroup both arrays are empty types and plain sets pay nothing:
// node layouts and capacities are exactly as core/counted_btree.h draws them.
// REQUIRES (groups): SameGroup is an equivalence whose classes are
// contiguous in the order, and a value's group never changes while it is
// in the tree (RefreshHint must not be used to change it).
//
// Included only by core/counted_btree.h; see the design block there.

#pragma once

#include <cassert>
#include <cstdint>

namespace rankd {

#define RANKD_BTREE_TMPL template <typename V, typename L, size_t LB, size_t IB>
#define RANKD_BTREE CountedBTree<V, L, LB, IB>

RANKD_BTREE_TMPL
bool RANKD_BTREE::IsHead(const V* pred, V v) const {
  if constexpr (kGroups) {
    return pred == nullptr || !less_.SameGroup(*pred, v);
  } else {
    return false;
  }
}

RANKD_BTREE_TMPL
uint64_t RANKD_BTREE::HeadsOf(void* p, int h) {
  if constexpr (kGroups) {
    if (h == 0) return static_cast<uint64_t>(__builtin_popcountll(AsLeaf(p)->heads));
    uint64_t total = 0;
    for (uint32_t i = 0; i < AsInner(p)->n; ++i) total += AsInner(p)->heads[i];
    return total;
  } else {
    return 0;
  }
}

RANKD_BTREE_TMPL
void RANKD_BTREE::FlipHead(uint64_t rank) {
  if constexpr (kGroups) {
    assert(rank < size_);
    void* p = root_;
    // Read the current bit first: the sums on the path move the same way.
    Cursor c = Seek(rank);
    const bool head = !((c.leaf_->heads >> c.pos_) & 1);
    for (int h = height_; h > 0; --h) {
      InnerNode* node = AsInner(p);
      uint32_t i = ChildForRank(node, &rank);
      node->heads[i] += head ? 1 : -1;
      p = node->children[i];
    }
    AsLeaf(p)->heads ^= uint64_t{1} << rank;
  }
}

RANKD_BTREE_TMPL
uint64_t RANKD_BTREE::groups() const {
  static_assert(kGroups, "the comparator defines no groups");
  return root_ == nullptr ? 0 : HeadsOf(root_, height_);
}

RANKD_BTREE_TMPL
uint64_t RANKD_BTREE::GroupsBefore(uint64_t rank) const {
  static_assert(kGroups, "the comparator defines no groups");
  assert(rank <= size_);
  if (rank >= size_) return groups();
  uint64_t before = 0;
  void* p = root_;
  for (int h = height_; h > 0; --h) {
    const InnerNode* node = AsInner(p);
    uint32_t i = 0;
    while (rank >= node->counts[i]) rank -= node->counts[i], before += node->heads[i++];
    p = node->children[i];
  }
  return before + static_cast<uint64_t>(__builtin_popcountll(AsLeaf(p)->heads & LowBits(rank)));
}

RANKD_BTREE_TMPL
uint64_t RANKD_BTREE::SelectGroup(uint64_t k) const {
  static_assert(kGroups, "the comparator defines no groups");
  assert(k < groups());
  uint64_t before = 0;
  void* p = root_;
  for (int h = height_; h > 0; --h) {
    const InnerNode* node = AsInner(p);
    uint32_t i = 0;
    while (k >= node->heads[i]) k -= node->heads[i], before += node->counts[i++];
    assert(i < node->n);
    p = node->children[i];
  }
  uint64_t b = AsLeaf(p)->heads;
  for (; k > 0; --k) b &= b - 1;  // drop the k lowest heads
  assert(b != 0);
  return before + static_cast<uint64_t>(__builtin_ctzll(b));
}

#undef RANKD_BTREE
#undef RANKD_BTREE_TMPL

}  // namespace rankd
