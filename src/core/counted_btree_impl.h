// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Out-of-line template definitions of CountedBTree: node allocation,
// positional insert/erase, hints and MapValues. Searches by a predicate
// are in core/counted_btree_search.h. Restructuring
// helpers are in core/counted_btree_rebalance.h, the distinct-value groups
// in core/counted_btree_groups.h, the invariant checker in
// core/counted_btree_check.h.
// Included only by core/counted_btree.h; see the design block there.

#pragma once

#include <string>
#include <type_traits>


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
