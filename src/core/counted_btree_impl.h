// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Out-of-line template definitions of CountedBTree: node allocation,
// search, positional insert/erase, hints, MapValues and the invariant
// checker. Restructuring helpers are in core/counted_btree_rebalance.h.
// Included only by core/counted_btree.h; see the design block there.

#pragma once

#include <string>

namespace rankd {

#define RANKD_BTREE_TMPL template <typename V, typename L, size_t LB, size_t IB>
#define RANKD_BTREE CountedBTree<V, L, LB, IB>

RANKD_BTREE_TMPL
typename RANKD_BTREE::LeafNode* RANKD_BTREE::NewLeaf() {
  LeafNode* leaf = new LeafNode;
  leaf->prev = leaf->next = nullptr;
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
uint64_t RANKD_BTREE::PartitionPoint(Pred pred) const {
  if (root_ == nullptr) return 0;
  uint64_t before = 0;
  void* p = root_;
  for (int h = height_; h > 0; --h) {
    const InnerNode* node = AsInner(p);
    // keys[0] is never tested: everything before child 0 is nothing.
    uint32_t lo = 1, hi = node->n;
    while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      int decided = -1;
      if constexpr (requires { pred.Decide(node->hints[mid]); }) {
        decided = pred.Decide(node->hints[mid]);
      }
      if (decided < 0) decided = pred(node->keys[mid]) ? 1 : 0;
      if (decided) lo = mid + 1; else hi = mid;
    }
    uint32_t child = lo - 1;
    for (uint32_t j = 0; j < child; ++j) before += node->counts[j];
    p = node->children[child];
  }
  const LeafNode* leaf = AsLeaf(p);
  uint32_t lo = 0, hi = leaf->n;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (pred(leaf->vals[mid])) lo = mid + 1; else hi = mid;
  }
  return before + lo;
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
  for (int h = height_; h > 0; --h) {
    const InnerNode* node = AsInner(p);
    p = node->children[ChildForRank(node, &rank)];
  }
  return Cursor(AsLeaf(p), static_cast<uint32_t>(rank));
}

RANKD_BTREE_TMPL
void RANKD_BTREE::InsertAt(uint64_t rank, V v) {
  assert(rank <= size_);
  if (root_ == nullptr) root_ = NewLeaf(), height_ = 0;
  if (NodeSize(root_, height_) == (height_ == 0 ? kLeafCap : kInnerCap)) {
    assert(height_ + 1 < kMaxHeight);
    InnerNode* r = NewInner();
    r->n = 1;
    r->children[0] = root_;
    r->counts[0] = size_;
    SetKey(r, 0, MinOf(root_, height_));
    root_ = r;
    ++height_;
  }
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
  LeafNode* leaf = AsLeaf(p);
  assert(leaf->n < kLeafCap);
  std::memmove(&leaf->vals[rank + 1], &leaf->vals[rank], (leaf->n - rank) * sizeof(V));
  leaf->vals[rank] = v;
  leaf->n++;
  size_++;
  if (rank == 0) {  // The leaf's minimum changed: fix separators upward.
    for (int d = depth - 1; d >= 0; --d) {
      SetKey(path[d].node, path[d].index, v);
      if (path[d].index != 0) break;
    }
  }
}

RANKD_BTREE_TMPL
V RANKD_BTREE::EraseAt(uint64_t rank) {
  assert(rank < size_);
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
  std::memmove(&leaf->vals[rank], &leaf->vals[rank + 1], (leaf->n - rank - 1) * sizeof(V));
  leaf->n--;
  size_--;
  if (size_ == 0) {  // Only a root leaf can hold the last value.
    FreeLeaf(leaf);
    root_ = nullptr;
    height_ = 0;
    return v;
  }
  if (rank == 0) {
    for (int d = depth - 1; d >= 0; --d) {
      SetKey(path[d].node, path[d].index, leaf->vals[0]);
      if (path[d].index != 0) break;
    }
  }
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
}

RANKD_BTREE_TMPL
template <typename Fn>
void RANKD_BTREE::MapValues(Fn fn) {
  if (root_ == nullptr) return;
  void* p = root_;
  for (int h = height_; h > 0; --h) p = AsInner(p)->children[0];
  for (LeafNode* leaf = AsLeaf(p); leaf != nullptr; leaf = leaf->next) {
    for (uint32_t j = 0; j < leaf->n; ++j) leaf->vals[j] = fn(leaf->vals[j]);
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

RANKD_BTREE_TMPL
std::string RANKD_BTREE::CheckInvariants() const {
  if (root_ == nullptr) {
    if (size_ != 0 || height_ != 0) return "empty root but size/height set";
    if (leaves_ != 0 || inners_ != 0) return "node accounting leaks";
    return "";
  }
  uint64_t count = 0;
  const LeafNode* last = nullptr;
  std::string err = CheckNode(root_, height_, true, &count, &last);
  if (!err.empty()) return err;
  if (count != size_) return "root count != size()";
  if (last->next != nullptr) return "last leaf has a next link";
  return "";
}

RANKD_BTREE_TMPL
std::string RANKD_BTREE::CheckNode(void* p, int h, bool is_root, uint64_t* count,
                                   const LeafNode** last) const {
  const std::string at = " (height " + std::to_string(h) + ")";
  if (h == 0) {
    const LeafNode* leaf = AsLeaf(p);
    if (leaf->is_leaf != 1) return "leaf expected" + at;
    if (leaf->n > kLeafCap || leaf->n < (is_root ? 1 : kLeafMin)) {
      return "leaf fill " + std::to_string(leaf->n) + " out of bounds" + at;
    }
    for (uint32_t j = 0; j + 1 < leaf->n; ++j) {
      if (!less_(leaf->vals[j], leaf->vals[j + 1])) return "leaf values not ascending" + at;
    }
    if (leaf->prev != *last) return "leaf prev link wrong";
    if (*last != nullptr) {
      if ((*last)->next != leaf) return "leaf next link wrong";
      if (!less_((*last)->vals[(*last)->n - 1], leaf->vals[0])) return "leaves not ascending";
    }
    *last = leaf;
    *count = leaf->n;
    return "";
  }
  const InnerNode* node = AsInner(p);
  if (node->is_leaf != 0) return "inner node expected" + at;
  if (node->n > kInnerCap || node->n < (is_root ? 2 : kInnerMin)) {
    return "inner fill " + std::to_string(node->n) + " out of bounds" + at;
  }
  uint64_t total = 0;
  for (uint32_t i = 0; i < node->n; ++i) {
    uint64_t c = 0;
    std::string err = CheckNode(node->children[i], h - 1, false, &c, last);
    if (!err.empty()) return err;
    if (c != node->counts[i]) return "child count mismatch" + at;
    if (!(node->keys[i] == MinOf(node->children[i], h - 1))) return "separator != child min" + at;
    if (!(node->hints[i] == HintFor(node->keys[i]))) return "stale separator hint" + at;
    total += c;
  }
  *count = total;
  return "";
}

#undef RANKD_BTREE
#undef RANKD_BTREE_TMPL

}  // namespace rankd
