// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CountedBTree updates by search (issue 16): InsertWhere searches and
// inserts in one descent; LocateAndPartition finds a
// present value, the hint bounds of its leaf and the rank of a new key in
// one interleaved descent; MoveInLeaf moves a value whose key changed to
// its new slot inside the same leaf, with no erase-plus-insert: no counts
// change, no node is split or refilled, and separators change only when
// the leaf's first value does.
// Included only by core/counted_btree.h; see the design block there.

#pragma once

#include <cassert>
#include <cstring>

namespace rankd {

#define RANKD_BTREE_TMPL template <typename V, typename L, size_t LB, size_t IB>
#define RANKD_BTREE CountedBTree<V, L, LB, IB>

RANKD_BTREE_TMPL
template <typename PredA, typename PredB>
std::pair<typename RANKD_BTREE::Spot, uint64_t> RANKD_BTREE::LocateAndPartition(
    PredA at_or_before, V v, PredB pred) const {
  assert(root_ != nullptr);
  Spot s{};
  Spot bounds_b{};
  uint64_t before_a = 0, before_b = 0;
  void* a = root_;
  void* b = root_;
  PrefetchNode(root_, height_);
  for (int h = height_; h > 0; --h) {
    a = DescendStep(AsInner(a), h, at_or_before, &before_a, &s);
    b = DescendStep(AsInner(b), h, pred, &before_b, &bounds_b);
  }
  s.leaf = AsLeaf(a);
  s.has_lo = s.leaf->prev != nullptr;
  const uint32_t i = IndexIn(s.leaf, v);
  assert(i < s.leaf->n);
  s.pos = i;
  s.rank = before_a + i;
  const LeafNode* leaf_b = AsLeaf(b);
  return {s, before_b + LeafPartition(leaf_b, leaf_b->n, pred, Guess(pred, bounds_b, leaf_b->n))};
}

RANKD_BTREE_TMPL
template <typename Pred>
uint64_t RANKD_BTREE::InsertWhere(Pred pred, V v) {
  GrowIfRootFull();
  PathStep path[kMaxHeight];
  int depth = 0;
  uint64_t before = 0;
  Spot bounds{};
  void* p = root_;
  PrefetchNode(p, height_);
  for (int h = height_; h > 0; --h) {
    InnerNode* node = AsInner(p);
    uint32_t i = ChildByPred(node, h, pred, &bounds);
    if (NodeSize(node->children[i], h - 1) == (h == 1 ? kLeafCap : kInnerCap)) {
      MakeRoom(node, i, h - 1);  // node is not full, so it can take a split
      i = ChildByPred(node, h, pred, &bounds);
    }
    p = node->children[i];
    PrefetchNode(p, h - 1);
    for (uint32_t j = 0; j < i; ++j) before += node->counts[j];
    node->counts[i]++;
    path[depth++] = {node, i};
  }
  LeafNode* leaf = AsLeaf(p);
  const uint32_t pos = LeafPartition(leaf, leaf->n, pred, Guess(pred, bounds, leaf->n));
  InsertInLeaf(leaf, pos, before + pos, v, path, depth);
  return before + pos;
}

RANKD_BTREE_TMPL
template <typename Pred>
void RANKD_BTREE::MoveInLeaf(const Spot& s, Pred before) {
  static_assert(!kGroups, "group bits would need to move too");
  LeafNode* leaf = const_cast<LeafNode*>(s.leaf);
  const V v = leaf->vals[s.pos];
  const uint32_t n = leaf->n;
  // Take v out, find its new slot among the other n - 1, put it back.
  std::memmove(&leaf->vals[s.pos], &leaf->vals[s.pos + 1], (n - s.pos - 1) * sizeof(V));
  const uint32_t to = LeafPartition(leaf, n - 1, before);
  std::memmove(&leaf->vals[to + 1], &leaf->vals[to], (n - 1 - to) * sizeof(V));
  leaf->vals[to] = v;
  // The leaf's first value (a separator above) changed, or kept its place
  // with a new hint.
  if (s.pos == 0 || to == 0) ResetSeparators(s.rank - s.pos, leaf->vals[0]);
}

RANKD_BTREE_TMPL
void RANKD_BTREE::ResetSeparators(uint64_t rank, V v) {
  void* p = root_;
  for (int h = height_; h > 0; --h) {
    InnerNode* node = AsInner(p);
    uint32_t i = ChildForRank(node, &rank);
    if (rank == 0) SetKey(node, i, v);
    p = node->children[i];
  }
}

#undef RANKD_BTREE
#undef RANKD_BTREE_TMPL

}  // namespace rankd
