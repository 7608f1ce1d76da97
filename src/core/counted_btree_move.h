// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Key changes (a score update) do not erase and re-insert: LocateAndPartition
// descends to the old and the new place together and keeps both paths, and
// Move shifts the value inside its leaf or carries it from leaf A to leaf B,
// fixing counts below the node where the paths part and separators where a
// first value changes. Only when A would drop below kLeafMin or B is full
// does the caller fall back to EraseAt + InsertAt (below).
//
// CountedBTree updates by search (issue 16). InsertWhere searches and
// inserts in one descent. A changed key (a score update) is handled by
// LocateAndPartition + Move:
//
//   LocateAndPartition  two descents, interleaved level by level: A by the
//                       old key to the value's leaf (found there by
//                       equality), B by the new key to its leaf and slot
//                       (one LeafPartition); while they share a node and
//                       child, B loads and sums nothing of its own. Both
//                       paths are kept in the Relocation (node + child
//                       index per level).
//   Move                same leaf: memmove inside it. Different leaves,
//                       when A keeps >= kLeafMin and B has room: out of A,
//                       into B at the slot B's search found; counts change
//                       only below the node where the paths part (-1 on
//                       A's side, +1 on B's), separators only where A's or
//                       B's first value changes. No second search, no
//                       split/borrow/merge, no Less.
//
// Otherwise (A at its minimum, B full) callers fall back to EraseAt +
// InsertAt, which rebalance. Move needs no groups: the group bits of a
// value's neighbours at both ends would change (leaderboards use erase +
// insert).
// Included only by core/counted_btree.h; see the design block there.

#pragma once

#include <cassert>
#include <cstring>

namespace rankd {

#define RANKD_BTREE_TMPL template <typename V, typename L, size_t LB, size_t IB>
#define RANKD_BTREE CountedBTree<V, L, LB, IB>

RANKD_BTREE_TMPL
template <typename PredA, typename PredB>
void RANKD_BTREE::LocateAndPartition(PredA at_or_before, V v, PredB pred, Relocation* r) const {
  assert(root_ != nullptr);
  LeafBounds bounds_a{}, bounds_b{};
  uint64_t before_a = 0, before_b = 0, total_a = size_, total_b = size_;
  void* a = root_;
  void* b = root_;
  PrefetchNode(root_, height_);
  int d = 0;
  for (int h = height_; h > 0; --h, ++d) {
    InnerNode* na = AsInner(a);
    InnerNode* nb = AsInner(b);
    const uint32_t ia = DescendStep(na, h, at_or_before, &before_a, &total_a, &bounds_a);
    const uint32_t ib = ChildByPred(nb, h, pred, &bounds_b);
    if (na == nb && ib == ia) {
      before_b = before_a;  // one path still: its child is loading, its sum is done
      total_b = total_a;
    } else {
      EnterChild(nb, ib, h, pred, &before_b, &total_b);
    }
    r->from_path_[d] = {na, ia};
    r->to_path_[d] = {nb, ib};
    a = na->children[ia];
    b = nb->children[ib];
  }
  r->depth_ = d;
  r->from_leaf_ = AsLeaf(a);
  const uint32_t n_a = static_cast<uint32_t>(total_a);  // the leaf's n, from its parent
  assert(n_a == r->from_leaf_->n);
  r->from_pos_ = IndexByCode(r->from_leaf_, n_a, v, at_or_before, Guess(at_or_before, bounds_a, n_a));
  assert(r->from_pos_ < r->from_leaf_->n);
  r->from = before_a + r->from_pos_;
  LeafNode* leaf_b = AsLeaf(b);
  r->to_leaf_ = leaf_b;
  r->to_pos_ = LeafPartition(leaf_b, leaf_b->n, pred, Guess(pred, bounds_b, leaf_b->n));
  r->to = before_b + r->to_pos_;
}

RANKD_BTREE_TMPL
template <typename Pred>
uint64_t RANKD_BTREE::InsertWhere(Pred pred, V v) {
  GrowIfRootFull();
  PathStep path[kMaxHeight];
  int depth = 0;
  uint64_t before = 0;
  uint64_t total = size_;  // of the subtree at p, before this insertion
  LeafBounds bounds{};
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
    if (h == 1) {
      PrefetchLeafFor(node, i, pred);
    } else {
      PrefetchNode(p, h - 1);
    }
    AddBefore(node, i, &before, &total);  // node's counts, MakeRoom's split included
    node->counts[i]++;
    path[depth++] = {node, i};
  }
  LeafNode* leaf = AsLeaf(p);
  const uint32_t pos = LeafPartition(leaf, leaf->n, pred, Guess(pred, bounds, leaf->n));
  InsertInLeaf(leaf, pos, before + pos, v, path, depth);
  return before + pos;
}

RANKD_BTREE_TMPL
void RANKD_BTREE::Move(const Relocation& r) {
  static_assert(!kGroups, "group bits would need to move too");
  assert(r.direct() && r.depth_ == height_);
  LeafNode* from = r.from_leaf_;
  LeafNode* to = r.to_leaf_;
  const uint32_t a = r.from_pos_;
  const V v = from->vals[a];
  if (from == to) {
    // to_pos_ counts v at its old place: one less past it.
    const uint32_t b = r.to_pos_ > a ? r.to_pos_ - 1 : r.to_pos_;
    if (b > a) {
      MoveSlots(from, a, from, a + 1, b - a);
    } else if (b < a) {
      MoveSlots(from, b + 1, from, b, a - b);
    }
    from->vals[b] = v;
    SetCode(from, b);  // the new hint's code
    // A new first value, or the same one with a new hint.
    if (a == 0 || b == 0) SetFirstKey(r.from_path_, r.depth_, from->vals[0]);
    return;
  }
  // Invariant: different leaves, so height() > 0 and `from` is not the root.
  assert(from->n > kLeafMin && to->n < kLeafCap);
  MoveSlots(from, a, from, a + 1, from->n - a - 1);
  from->n--;
  const uint32_t b = r.to_pos_;
  MoveSlots(to, b + 1, to, b, to->n - b);
  to->vals[b] = v;
  SetCode(to, b);  // in the target leaf's range
  to->n++;
  // The paths share the nodes above the first level whose child differs;
  // there and below, A's side loses v and B's side gains it.
  int d = 0;
  while (r.from_path_[d].index == r.to_path_[d].index) ++d;
  assert(d < r.depth_);  // Invariant: the leaves differ, so the paths part
  for (; d < r.depth_; ++d) {
    r.from_path_[d].node->counts[r.from_path_[d].index]--;
    r.to_path_[d].node->counts[r.to_path_[d].index]++;
  }
  // At most one of these reaches above the parting node: the leaf whose
  // first value changed is then the first of the shared subtree there.
  if (a == 0) SetFirstKey(r.from_path_, r.depth_, from->vals[0]);
  if (b == 0) SetFirstKey(r.to_path_, r.depth_, v);
}

#undef RANKD_BTREE
#undef RANKD_BTREE_TMPL

}  // namespace rankd
