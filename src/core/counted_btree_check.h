// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CountedBTree::CheckInvariants: the walker tests call after each mutation
// batch (abseil's verify()): order, counts, group heads, keys, hints, leaf
// links, fill and node accounting.
// Included only by core/counted_btree.h; see the design block there.

#pragma once

#include <cstdint>
#include <string>

namespace rankd {

#define RANKD_BTREE_TMPL template <typename V, typename L, size_t LB, size_t IB>
#define RANKD_BTREE CountedBTree<V, L, LB, IB>

RANKD_BTREE_TMPL
std::string RANKD_BTREE::CheckInvariants() const {
  if (root_ == nullptr) {
    if (size_ != 0 || height_ != 0) return "empty root but size/height set";
    if (leaves_ != 0 || inners_ != 0) return "node accounting leaks";
    return "";
  }
  uint64_t count = 0, heads = 0;
  const LeafNode* last = nullptr;
  std::string err = CheckNode(root_, height_, true, &count, &heads, &last);
  if (!err.empty()) return err;
  if (count != size_) return "root count != size()";
  if (last->next != nullptr) return "last leaf has a next link";
  return "";
}

RANKD_BTREE_TMPL
std::string RANKD_BTREE::CheckNode(void* p, int h, bool is_root, uint64_t* count,
                                   uint64_t* heads, const LeafNode** last) const {
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
    if constexpr (kCodes) {
      for (uint32_t j = 0; j < leaf->n; ++j) {
        if (leaf->codes[j] != CodeOf(leaf, HintFor(leaf->vals[j]))) return "stale slot code" + at;
      }
    }
    if constexpr (kGroups) {
      if (leaf->heads & ~LowBits(leaf->n)) return "group bits past the leaf's end" + at;
      for (uint32_t j = 0; j < leaf->n; ++j) {
        const V* pred = j > 0 ? &leaf->vals[j - 1]
                              : (*last ? &(*last)->vals[(*last)->n - 1] : nullptr);
        if (IsHead(pred, leaf->vals[j]) != ((leaf->heads >> j) & 1)) {
          return "stale group-head bit" + at;
        }
      }
    }
    if (*last != nullptr) {
      if ((*last)->next != leaf) return "leaf next link wrong";
      if (!less_((*last)->vals[(*last)->n - 1], leaf->vals[0])) return "leaves not ascending";
    }
    *last = leaf;
    *count = leaf->n;
    *heads = HeadsOf(p, 0);
    return "";
  }
  const InnerNode* node = AsInner(p);
  if (node->is_leaf != 0) return "inner node expected" + at;
  if (node->n > kInnerCap || node->n < (is_root ? 2 : kInnerMin)) {
    return "inner fill " + std::to_string(node->n) + " out of bounds" + at;
  }
  uint64_t total = 0, total_heads = 0;
  for (uint32_t i = 0; i < node->n; ++i) {
    uint64_t c = 0, hc = 0;
    std::string err = CheckNode(node->children[i], h - 1, false, &c, &hc, last);
    if (!err.empty()) return err;
    if (c != node->counts[i]) return "child count mismatch" + at;
    if constexpr (kGroups) {
      if (hc != node->heads[i]) return "child group-head count mismatch" + at;
    }
    total_heads += hc;
    if (!(node->keys[i] == MinOf(node->children[i], h - 1))) return "separator != child min" + at;
    if (!(node->hints[i] == HintFor(node->keys[i]))) return "stale separator hint" + at;
    total += c;
  }
  *count = total;
  *heads = total_heads;
  return "";
}

#undef RANKD_BTREE
#undef RANKD_BTREE_TMPL

}  // namespace rankd
