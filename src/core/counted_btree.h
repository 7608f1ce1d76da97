// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CountedBTree: an order-statistic B+tree over small trivially copyable
// values (32-bit record handles in rankd), ordered by a caller-supplied,
// possibly stateful comparator. Not thread-safe: one owner thread.
//
// Why a B+tree and not a skiplist: a skiplist node costs ~3 pointers plus a
// span per level and one cache miss per hop; a B+tree leaf packs ~60 4-byte
// handles into 256 bytes, so the structure costs ~6 bytes per element and a
// descent touches ~log_20(n) nodes. Why counts: every inner node stores the
// element count of each child, so rank, select-by-rank, and "start a range at
// offset k" are all O(log n), which makes ZRANGE ... LIMIT 100000 10 cheap.
// Why no parent pointers: every mutation descends from the root and keeps
// its path, so parents are never needed and nodes stay smaller.
//
// Layout (sizes for Value = uint32_t, 256-byte leaves, 512-byte inner nodes):
//
//   InnerNode (512 B, kInnerCap = 18 with 8-byte hints)
//   +--------------+--------------+--------------+-------------+---+----+
//   | children[18] | counts[18]   | hints[18]    | keys[18]    | n |leaf|
//   |   8 B each   |   8 B each   |  8 B each    |  4 B each   |   |    |
//   +--------------+--------------+--------------+-------------+---+----+
//      keys[i] = smallest value in subtree i; counts[i] = its size;
//      hints[i] = Less::HintOf(keys[i]) (the score, in rankd)
//
//   LeafNode (256 B, kLeafCap = 59)
//   +------+------+---+----+-----------------------------------------+
//   | prev | next | n |leaf| vals[59] (ascending)                    |
//   +------+------+---+----+-----------------------------------------+
//      leaves form a doubly linked list in order, for range iteration
//
// Invariants (checked by CheckInvariants()):
//   1. values ascend strictly under Less across the whole leaf chain;
//   2. counts[i] == number of values in subtree i; the root total == size();
//   3. keys[i] == the first value of subtree i, hints[i] == HintOf(keys[i]);
//   4. all leaves are at depth height();
//   5. non-root leaves hold >= kLeafMin values and non-root inner nodes
//      >= kInnerMin children; a root inner node has >= 2 children; an empty
//      tree has no nodes at all;
//   6. the leaf chain visits exactly the leaves in tree order.
//
// Structure changes are positional: InsertAt/EraseAt descend by counts and
// never call Less, so a comparator that dereferences handles (a cache miss
// each) is only paid by the read-only searches (PartitionPoint). Insertion
// splits full nodes on the way down (a full leaf first tries to hand half of
// its free space to a sibling, which keeps leaves ~80% full instead of the
// ~69% of plain splitting); erasure refills minimum-size nodes on the way
// down by borrowing from or merging with a sibling.
//
// Hints: if Less has `H HintOf(Value)`, inner nodes cache that for every
// separator (a copy of the data the comparator would fetch first, e.g. the
// score a handle points to). A search predicate with `int Decide(H)`
// (1 true, 0 false, -1 cannot tell) then settles most inner-node steps
// without dereferencing the value: only leaf-level comparisons pay a cache
// miss. Without HintOf, a 1-byte placeholder is stored and never read.
// REQUIRES: callers that change a value's hint in place call RefreshHint.
//
// Extension point (issue 7, dense ranks): counts are one per-child summary.
// A second summary, e.g. the number of distinct scores per subtree, would be
// a template policy stored beside counts[] and recomputed for the nodes on
// the modified path and in MoveToLeft/MoveToRight/Split/Merge, which are
// the only places that rewrite counts.

#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace rankd {
namespace detail {

// The hint type and accessor of a comparator, or a placeholder.
template <typename L, typename V, bool = requires(const L& l, V v) { l.HintOf(v); }>
struct BTreeHint {
  using Type = uint8_t;
  static Type Of(const L&, V) { return 0; }
};
template <typename L, typename V>
struct BTreeHint<L, V, true> {
  using Type = decltype(std::declval<const L&>().HintOf(std::declval<V>()));
  static Type Of(const L& l, V v) { return l.HintOf(v); }
};

}  // namespace detail

template <typename Value, typename Less, size_t kLeafBytes = 256, size_t kInnerBytes = 512>
class CountedBTree {
  static_assert(std::is_trivially_copyable_v<Value>, "values are memmoved");

  using Hint = typename detail::BTreeHint<Less, Value>::Type;
  static_assert(std::is_trivially_copyable_v<Hint>, "hints are memmoved");
  static constexpr size_t RoundUp(size_t x, size_t a) { return (x + a - 1) / a * a; }
  static constexpr size_t kLeafHeader = RoundUp(2 * sizeof(void*) + 3, alignof(Value));

 public:
  static constexpr size_t kLeafCap = (kLeafBytes - kLeafHeader) / sizeof(Value);
  static constexpr size_t kInnerCap = (kInnerBytes - sizeof(void*)) /
                                      (sizeof(void*) + sizeof(uint64_t) + sizeof(Hint) + sizeof(Value));
  static constexpr size_t kLeafMin = kLeafCap / 2;
  static constexpr size_t kInnerMin = kInnerCap / 2;
  static_assert(kLeafCap >= 3 && kInnerCap >= 4, "nodes too small");

  struct LeafNode {
    LeafNode* prev;
    LeafNode* next;
    uint16_t n;
    uint8_t is_leaf;  // always 1; lets CheckInvariants detect type confusion
    Value vals[kLeafCap];
  };
  struct InnerNode {
    void* children[kInnerCap];
    uint64_t counts[kInnerCap];
    Hint hints[kInnerCap];
    Value keys[kInnerCap];
    uint16_t n;
    uint8_t is_leaf;  // always 0
  };
  static_assert(sizeof(LeafNode) <= kLeafBytes, "leaf must fit its byte budget");
  static_assert(sizeof(InnerNode) <= kInnerBytes, "inner node must fit its byte budget");

  // A position in the leaf chain; valid until the next mutation.
  class Cursor {
   public:
    Cursor() = default;
    bool Valid() const { return leaf_ != nullptr; }
    Value value() const { return leaf_->vals[pos_]; }
    void Next() {
      if (++pos_ == leaf_->n) leaf_ = leaf_->next, pos_ = 0;
    }
    void Prev() {
      if (pos_ > 0) return void(--pos_);
      leaf_ = leaf_->prev;
      pos_ = leaf_ ? leaf_->n - 1u : 0;
    }

   private:
    friend class CountedBTree;
    Cursor(const LeafNode* leaf, uint32_t pos) : leaf_(leaf), pos_(pos) {}
    const LeafNode* leaf_ = nullptr;
    uint32_t pos_ = 0;
  };

  explicit CountedBTree(Less less = Less()) : less_(less) {}
  ~CountedBTree() { Clear(); }
  CountedBTree(const CountedBTree&) = delete;
  CountedBTree& operator=(const CountedBTree&) = delete;

  uint64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int height() const { return height_; }
  // Bytes held in nodes (each node is one allocation of its struct size).
  size_t MemoryUsage() const {
    return leaves_ * sizeof(LeafNode) + inners_ * sizeof(InnerNode);
  }

  // Returns how many leading values satisfy `pred`, i.e. the rank of the
  // first value for which it is false (size() if none).
  // REQUIRES: pred is monotone in tree order: true on a prefix, then false.
  // O(log n) calls of pred.
  template <typename Pred>
  uint64_t PartitionPoint(Pred pred) const;

  // The value at 0-based rank. REQUIRES: rank < size(). O(log n), no Less.
  Value At(uint64_t rank) const { return Seek(rank).value(); }
  // A cursor at `rank`; !Valid() if rank >= size(). O(log n), no Less.
  Cursor Seek(uint64_t rank) const;

  // Inserts `v` so that it gets rank `rank`.
  // REQUIRES: rank <= size(), and the order stays strictly ascending.
  void InsertAt(uint64_t rank, Value v);
  // Removes and returns the value at `rank`. REQUIRES: rank < size().
  Value EraseAt(uint64_t rank);

  // Re-reads the hint of the value at `rank` wherever it is a separator.
  // Call after changing what HintOf returns for that value without changing
  // its order. REQUIRES: rank < size(). O(log n), no Less.
  void RefreshHint(uint64_t rank);

  // Comparator conveniences. Insert: REQUIRES no equivalent value present;
  // returns the new rank. Find: the rank of the value equal (==) to `v`.
  uint64_t Insert(Value v) {
    uint64_t rank = PartitionPoint([&](Value x) { return less_(x, v); });
    InsertAt(rank, v);
    return rank;
  }
  std::optional<uint64_t> Find(Value v) const {
    uint64_t rank = PartitionPoint([&](Value x) { return less_(x, v); });
    if (rank < size_ && At(rank) == v) return rank;
    return std::nullopt;
  }

  // Replaces every value x by fn(x), in order. REQUIRES: fn preserves order
  // (rankd uses it to relocate records). Refreshes all separator keys. O(n).
  template <typename Fn>
  void MapValues(Fn fn);

  // Removes everything. O(n).
  void Clear();

  // Returns "" if invariants 1-6 hold, else a description of the first
  // violation. O(n) calls of Less.
  std::string CheckInvariants() const;

 private:
  struct PathStep {
    InnerNode* node;
    uint32_t index;
  };
  static constexpr int kMaxHeight = 32;

  static LeafNode* AsLeaf(void* p) { return static_cast<LeafNode*>(p); }
  static InnerNode* AsInner(void* p) { return static_cast<InnerNode*>(p); }
  static size_t NodeSize(void* p, int h) { return h == 0 ? AsLeaf(p)->n : AsInner(p)->n; }
  static Value MinOf(void* p, int h) { return h == 0 ? AsLeaf(p)->vals[0] : AsInner(p)->keys[0]; }

  LeafNode* NewLeaf();
  InnerNode* NewInner();
  void FreeLeaf(LeafNode* leaf);
  void FreeInner(InnerNode* node);
  void FreeSubtree(void* p, int h);

  // Child selection by rank; `rank` becomes the rank inside the child.
  static uint32_t ChildForInsert(const InnerNode* p, uint64_t* rank);
  static uint32_t ChildForRank(const InnerNode* p, uint64_t* rank);

  // Restructuring helpers used on the way down (see the .h design block).
  void MakeRoom(InnerNode* p, uint32_t i, int child_h);
  void Refill(InnerNode* p, uint32_t i, int child_h);
  void MoveToLeft(InnerNode* p, uint32_t i, size_t k, int child_h);
  void MoveToRight(InnerNode* p, uint32_t i, size_t k, int child_h);
  void Split(InnerNode* p, uint32_t i, int child_h);
  void Merge(InnerNode* p, uint32_t i, int child_h);
  void InsertChild(InnerNode* p, uint32_t pos, void* child, uint64_t count, Value key);
  static void RemoveChild(InnerNode* p, uint32_t pos);
  // Moves n child entries (child, count, hint, key) from src[si] to dst[di];
  // the ranges may overlap.
  static void MoveEntries(InnerNode* dst, size_t di, const InnerNode* src, size_t si, size_t n);
  Hint HintFor(Value v) const { return detail::BTreeHint<Less, Value>::Of(less_, v); }
  // Writes separator i and its hint.
  void SetKey(InnerNode* p, uint32_t i, Value key) const {
    p->keys[i] = key;
    p->hints[i] = HintFor(key);
  }

  void RefreshKeys(void* p, int h);
  std::string CheckNode(void* p, int h, bool is_root, uint64_t* count,
                        const LeafNode** expect_leaf) const;

  Less less_;
  void* root_ = nullptr;  // LeafNode* if height_ == 0, else InnerNode*
  int height_ = 0;
  uint64_t size_ = 0;
  size_t leaves_ = 0, inners_ = 0;
};

}  // namespace rankd

#include "core/counted_btree_impl.h"       // IWYU pragma: export
#include "core/counted_btree_rebalance.h"  // IWYU pragma: export
