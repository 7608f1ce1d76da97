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
// ~69% of plain splitting; with slot codes, two full neighbours then split
// into three leaves instead of one into two); erasure refills minimum-size
// nodes on the way down by borrowing from or merging with a sibling. Key
// changes (a score update) move a value instead: core/counted_btree_move.h.
//
// Hints: if Less has `H HintOf(Value)`, inner nodes cache that for every
// separator (a copy of the data the comparator would fetch first, e.g. the
// score a handle points to). A search predicate with `int Decide(H)`
// (1 true, 0 false, -1 cannot tell) then settles most inner-node steps
// without dereferencing the value: only leaf-level comparisons pay a cache
// miss. Without HintOf, a 1-byte placeholder is stored and never read.
// REQUIRES: callers that change a value's hint in place call RefreshHint.
//
// Groups (issue 7, dense ranks): if Less has `bool SameGroup(Value, Value)`,
// the tree also counts group heads per subtree; see core/counted_btree_groups.h.
//
// Slot codes (issue 34, scores in the leaves): if Less declares
// `static constexpr bool kSlotCodes = true` and its hint is a double, each
// leaf also keeps one byte per slot, the slot's hint quantized over the
// leaf's range, so that most leaf searches by a hint read no value; see
// core/counted_btree_codes.h for the design and its price.

#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <concepts>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "core/counted_btree_traits.h"

namespace rankd {
template <typename Value, typename Less, size_t kLeafBytes = 256, size_t kInnerBytes = 512>
class CountedBTree {
  static_assert(std::is_trivially_copyable_v<Value>, "values are memmoved");

  using Hint = typename detail::BTreeHint<Less, Value>::Type;
  static_assert(std::is_trivially_copyable_v<Hint>, "hints are memmoved");
  static constexpr size_t RoundUp(size_t x, size_t a) { return (x + a - 1) / a * a; }

 public:
  // True when Less defines groups: the tree then keeps group-head summaries.
  static constexpr bool kGroups = detail::kBTreeGroups<Less, Value>;

 private:
  static constexpr size_t kGroupBytes = kGroups ? sizeof(uint64_t) : 0;

 public:
  // True when leaves keep slot codes (see "Slot codes" in the design block).
  static constexpr bool kCodes = detail::kBTreeSlotCodes<Less, Value>;

 private:
  static constexpr size_t kCodeHeader = kCodes ? sizeof(double) + sizeof(float) : 0;
  static constexpr size_t kLeafHeader =
      RoundUp(2 * sizeof(void*) + kGroupBytes + kCodeHeader + 3, alignof(Value));

 public:
  static constexpr size_t kLeafCap =
      (kLeafBytes - kLeafHeader) / (sizeof(Value) + (kCodes ? 1 : 0));
  static constexpr size_t kInnerCap =
      (kInnerBytes - sizeof(void*)) /
      (sizeof(void*) + sizeof(uint64_t) + kGroupBytes + sizeof(Hint) + sizeof(Value));
  static constexpr size_t kLeafMin = kLeafCap / 2;
  static constexpr size_t kInnerMin = kInnerCap / 2;
  static_assert(kLeafCap >= 3 && kInnerCap >= 4, "nodes too small");
  static_assert(!kGroups || kLeafCap < 64, "group bits of a leaf fit one word");

  using LeafHeads = std::conditional_t<kGroups, uint64_t, detail::NoGroupBits>;
  using InnerHeads = std::conditional_t<kGroups, uint64_t[kInnerCap], detail::NoGroupBits>;

  struct LeafNode {
    LeafNode* prev;
    LeafNode* next;
    // Groups only: bit j set iff vals[j] is a group head; bits >= n are 0.
    [[no_unique_address]] LeafHeads heads;
    // Codes only: the quantization of this leaf's codes (see CodeOf).
    [[no_unique_address]] std::conditional_t<kCodes, double, detail::Absent<1>> qlo;
    [[no_unique_address]] std::conditional_t<kCodes, float, detail::Absent<2>> qscale;
    uint16_t n;
    uint8_t is_leaf;  // always 1; lets CheckInvariants detect type confusion
    // Codes only: codes[j] = CodeOf(this, HintOf(vals[j])) for j < n; next
    // to the header, so a search reads lines 0-1, then one line of vals.
    [[no_unique_address]] std::conditional_t<kCodes, uint8_t[kLeafCap], detail::Absent<3>> codes;
    Value vals[kLeafCap];
  };
  struct InnerNode {
    void* children[kInnerCap];
    uint64_t counts[kInnerCap];
    // Groups only: heads[i] = number of group heads in subtree i.
    [[no_unique_address]] InnerHeads heads;
    Hint hints[kInnerCap];
    Value keys[kInnerCap];
    uint16_t n;
    uint8_t is_leaf;  // always 0
  };
  static_assert(sizeof(LeafNode) <= kLeafBytes, "leaf must fit its byte budget");
  static_assert(sizeof(InnerNode) <= kInnerBytes, "inner node must fit its byte budget");

 private:
  // One level of a root-to-leaf path: the node and the child taken.
  struct PathStep {
    InnerNode* node;
    uint32_t index;
  };
  static constexpr int kMaxHeight = 32;

 public:

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
  // O(log n) calls of pred. If pred has `void Prefetch(Value)` (each call
  // is a cache miss, e.g. a record read), the leaf is searched in two
  // rounds of parallel loads (pivots, then a run of <= 8); see
  // LeafPartition. If pred also has `Hint Target()`, usually in one round:
  // a window around the position interpolated from the leaf's bounds
  // (see Guess).
  template <typename Pred>
  uint64_t PartitionPoint(Pred pred) const;

  // The rank of `v`, which must be present: descends like PartitionPoint
  // with `pred` (pred(x) == "x sorts before v"), then finds v in the leaf
  // by equality, so no pred calls at the leaf level (a comparator that
  // dereferences values pays no cache misses there). REQUIRES: v present
  // and pred monotone as for PartitionPoint. O(log n).
  template <typename Pred>
  uint64_t RankOfPresent(Pred pred, Value v) const;

  // The value at 0-based rank. REQUIRES: rank < size(). O(log n), no Less.
  Value At(uint64_t rank) const { return Seek(rank).value(); }
  // A cursor at `rank`; !Valid() if rank >= size(). O(log n), no Less.
  Cursor Seek(uint64_t rank) const;

  // Inserts `v` so that it gets rank `rank`.
  // REQUIRES: rank <= size(), and the order stays strictly ascending.
  void InsertAt(uint64_t rank, Value v);
  // Removes and returns the value at `rank`. REQUIRES: rank < size().
  Value EraseAt(uint64_t rank);
  // Inserts `v` at PartitionPoint(pred) in one descent (making room on the
  // way down as InsertAt does) and returns its rank: the search's misses
  // and the insertion's path are paid once. REQUIRES: pred monotone as
  // for PartitionPoint, and the order stays strictly ascending (pred(x) ==
  // "x sorts before v"). O(log n).
  template <typename Pred>
  uint64_t InsertWhere(Pred pred, Value v);

  // A present value's place and the place of its new key, found together
  // by LocateAndPartition, with both root-to-leaf paths: Move() relocates
  // the value along them with no further descent. Valid until the next
  // mutation of the tree.
  class Relocation {
   public:
    uint64_t from;  // the value's rank
    uint64_t to;    // PartitionPoint(pred), counting the value at `from`
    // The rank the value gets once moved (for EraseAt + InsertAt).
    uint64_t final_rank() const { return to > from ? to - 1 : to; }
    // Whether Move() applies: both places are in one leaf, or the value's
    // leaf keeps >= kLeafMin values without it and the target leaf has room.
    bool direct() const {
      return from_leaf_ == to_leaf_ || (from_leaf_->n > kLeafMin && to_leaf_->n < kLeafCap);
    }
    bool in_one_leaf() const { return from_leaf_ == to_leaf_; }

   private:
    friend class CountedBTree;
    LeafNode* from_leaf_;
    LeafNode* to_leaf_;
    uint32_t from_pos_, to_pos_;  // indices in the leaves (to_pos_ as `to`)
    int depth_;                   // height() when located
    PathStep from_path_[kMaxHeight], to_path_[kMaxHeight];
  };
  // Finds present `v` and, in the same pass, PartitionPoint(pred): the two
  // descents go down level by level together, so their cache misses
  // overlap (a score update searches its old and its new place at once).
  // v is found by descending with `at_or_before` == "x sorts before or
  // equal to v" (Decide on hints as for PartitionPoint), then scanning the
  // leaf for v by equality, so that leaf costs no pred calls.
  // REQUIRES: v present; both predicates monotone. O(log n).
  template <typename PredA, typename PredB>
  void LocateAndPartition(PredA at_or_before, Value v, PredB pred, Relocation* r) const;
  // Moves the value located by `r` to its new place after its order key
  // changed (HintOf already gives the new key's hint), without
  // erase-plus-insert: inside the leaf, or out of its leaf into the target
  // leaf, adjusting counts only on the two paths below the node where they
  // part, and separators (with hints) only where a leaf's first value
  // changes. Nothing is split, refilled or merged.
  // REQUIRES: r->direct(), from LocateAndPartition with no mutation since;
  // no groups. O(leaf + log n), no Less.
  void Move(const Relocation& r);

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

  // ---- Groups (only when kGroups; see "Groups" in the design block) ----
  // Number of distinct groups in the tree. O(fanout).
  uint64_t groups() const;
  // Number of distinct groups among ranks [0, rank), i.e. the 0-based group
  // index of the value at `rank` if it is a head. REQUIRES: rank <= size().
  // O(log n), no Less.
  uint64_t GroupsBefore(uint64_t rank) const;
  // The rank of the first value of the k-th group (0-based).
  // REQUIRES: k < groups(). O(log n), no Less.
  uint64_t SelectGroup(uint64_t k) const;

  // Returns "" if invariants 1-6 hold, else a description of the first
  // violation. O(n) calls of Less.
  std::string CheckInvariants() const;

 private:

  static LeafNode* AsLeaf(void* p) { return static_cast<LeafNode*>(p); }
  static InnerNode* AsInner(void* p) { return static_cast<InnerNode*>(p); }
  static size_t NodeSize(void* p, int h) { return h == 0 ? AsLeaf(p)->n : AsInner(p)->n; }
  static Value MinOf(void* p, int h) { return h == 0 ? AsLeaf(p)->vals[0] : AsInner(p)->keys[0]; }
  // Starts loading every cache line of node `p` at height `h`: a descent
  // reads n, hints, counts and children spread over the whole node, so one
  // batch of parallel misses replaces several dependent ones.
  static void PrefetchNode(const void* p, int h) {
    const size_t bytes = h == 0 ? sizeof(LeafNode) : sizeof(InnerNode);
    for (size_t off = 0; off < bytes; off += 64) {
      __builtin_prefetch(static_cast<const char*>(p) + off);
    }
  }

  LeafNode* NewLeaf();
  InnerNode* NewInner();
  void FreeLeaf(LeafNode* leaf);
  void FreeInner(InnerNode* node);
  void FreeSubtree(void* p, int h);

  // What the parents' hints say about a leaf reached by a descent: every
  // value of the leaf has a hint >= lo (lo is the leaf's first hint; unset
  // at height 0) and every value after the leaf a hint >= hi (when has_hi;
  // absent for the last leaf).
  // (Also each inner node's on the way down, has_lo once lo is set.)
  struct LeafBounds {
    bool has_hi;
    Hint lo, hi;
    bool has_lo;
  };
  // The descent PartitionPoint and RankOfPresent share: through the inner
  // nodes to the leaf holding the first value for which `pred` is false (or
  // its left neighbour), adding the sizes of the subtrees passed to *before.
  // REQUIRES: a non-empty tree.
  // With `bounds`, also records the leaf's bounds; with `leaf_size`, the
  // leaf's value count as its parent knows it (without reading the leaf).
  template <typename Pred>
  const LeafNode* DescendByPred(Pred& pred, uint64_t* before, LeafBounds* bounds = nullptr,
                                uint64_t* leaf_size = nullptr) const;
  // The child of `node` (at height h) that DescendByPred goes down to;
  // with `bounds`, narrows them (guessed from them first: counted_btree_search.h).
  template <typename Pred>
  static uint32_t ChildByPred(const InnerNode* node, int h, Pred& pred, LeafBounds* bounds);
  // Starts loading child i of `node` (at height h) for a search by `pred`
  // and adds the counts before it to *before (AddBefore).
  template <typename Pred>
  static void EnterChild(const InnerNode* node, uint32_t i, int h, const Pred& pred,
                         uint64_t* before, uint64_t* total);
  // Adds the counts of node's children before i to *before (summed from
  // the nearer end, *total: node's size); sets *total to child i's count.
  static void AddBefore(const InnerNode* node, uint32_t i, uint64_t* before, uint64_t* total);
  // Starts loading what a search by `pred` reads of leaf child i of `node`
  // (at height 1): with slot codes, 3 of a 512-byte leaf's 8 lines.
  template <typename Pred>
  static void PrefetchLeafFor(const InnerNode* node, uint32_t i, const Pred& pred);
  // Where a value with hint `t` probably is among n values whose hints
  // span [lo, hi) (interpolated), or -1. Always < n.
  static int SlotGuess(double t, double lo, double hi, uint32_t n);
  // One level of DescendByPred: picks the child of `node` (at height h),
  // enters it (EnterChild) and returns its index.
  template <typename Pred>
  static uint32_t DescendStep(const InnerNode* node, int h, Pred& pred, uint64_t* before,
                              uint64_t* total, LeafBounds* bounds);
  // PartitionPoint inside one leaf, over vals[0, n).
  // `guess` (or -1): where the answer probably is, from Guess. With slot
  // codes and pred.Target(), the codes narrow the search first (no reads
  // of values when no code equals the target's), and `guess` is ignored.
  template <typename Pred>
  static uint32_t LeafPartition(const LeafNode* leaf, uint32_t n, Pred& pred, int guess = -1);
  // Where in a leaf of n values `pred`'s answer probably is, or -1: if pred
  // has `Hint Target()` (the hint its answer is at, e.g. the score looked
  // for) and hints are floating point, interpolated between the leaf's
  // first hint and the next leaf's (`bounds`, from DescendByPred). Exact
  // for evenly spread scores; a guess only: LeafPartition checks it.
  template <typename Pred>
  int Guess(const Pred& pred, const LeafBounds& bounds, uint32_t n) const;
  // A leaf reached by `path` (depth steps) now starts with `v` (a new
  // value, or one whose hint changed): sets the separator of every
  // ancestor whose subtree starts there. O(depth), no Less.
  void SetFirstKey(const PathStep* path, int depth, Value v) const {
    for (int d = depth - 1; d >= 0; --d) {
      SetKey(path[d].node, path[d].index, v);
      if (path[d].index != 0) break;
    }
  }

  // ---- Slot codes (no-ops without them; core/counted_btree_codes.h) ----
  // The code of hint `s` in `leaf`: monotone non-decreasing in s.
  static uint8_t CodeOf(const LeafNode* leaf, double s);
  // [*lo, *hi): the slots of vals[0, n) whose code equals code(target);
  // slots before *lo have smaller codes, from *hi on larger ones.
  static void CodeRun(const LeafNode* leaf, uint32_t n, double target, uint32_t* lo,
                      uint32_t* hi);
  // Sets the code of slot j from its value's hint (one read of the value).
  void SetCode(LeafNode* leaf, uint32_t j) const;
  // Chooses the leaf's quantization from its first and last hints and
  // rewrites every code: reads every value (loaded in parallel first).
  void Recode(LeafNode* leaf) const;
  // Moves n slots (values and codes) from src[si] to dst[di]; the ranges
  // may overlap. Codes are copied as they are: a caller moving slots
  // between leaves calls Recode on the receiving one.
  static void MoveSlots(LeafNode* dst, size_t di, const LeafNode* src, size_t si, size_t n);

  // The index of `v` in `leaf`, or leaf->n if absent.
  static uint32_t IndexIn(const LeafNode* leaf, Value v) { return IndexIn(leaf, v, 0, leaf->n); }
  // The index of `v` among vals[from, to), or `to` if absent there.
  static uint32_t IndexIn(const LeafNode* leaf, Value v, uint32_t from, uint32_t to);
  // IndexIn for a value whose hint is `pred.Target()`, by the slot codes,
  // the line of vals at `guess` first (or -1); `n`: leaf->n as the parent
  // knows it. Else IndexIn. See counted_btree_search.h.
  template <typename Pred>
  static uint32_t IndexByCode(const LeafNode* leaf, uint32_t n, Value v, const Pred& pred,
                              int guess);
  // Child selection by rank; `rank` becomes the rank inside the child.
  static uint32_t ChildForInsert(const InnerNode* p, uint64_t* rank);
  static uint32_t ChildForRank(const InnerNode* p, uint64_t* rank);

  // A root that is full gets a new root above it (the first step of every
  // insertion, so that each node on the way down can take a split).
  void GrowIfRootFull();
  // InsertAt's and InsertWhere's last step: puts v at `rank` in `leaf`
  // (global rank `global_rank`), reached by `path` (counts already raised).
  void InsertInLeaf(LeafNode* leaf, uint32_t rank, uint64_t global_rank, Value v,
                    const PathStep* path, int depth);

  // Restructuring helpers used on the way down (see the .h design block).
  void MakeRoom(InnerNode* p, uint32_t i, int child_h);
  void Refill(InnerNode* p, uint32_t i, int child_h);
  void MoveToLeft(InnerNode* p, uint32_t i, size_t k, int child_h);
  void MoveToRight(InnerNode* p, uint32_t i, size_t k, int child_h);
  void Split(InnerNode* p, uint32_t i, int child_h);
  // Leaves i and i+1 of `p`, with no room to share between them, become
  // three leaves of a third of their values each. REQUIRES: no groups;
  // p not full.
  void SplitTwoIntoThree(InnerNode* p, uint32_t i);
  void Merge(InnerNode* p, uint32_t i, int child_h);
  void InsertChild(InnerNode* p, uint32_t pos, void* child, uint64_t count, uint64_t heads,
                   Value key);
  static void RemoveChild(InnerNode* p, uint32_t pos);
  // Moves n child entries (child, count, heads, hint, key) from src[si] to dst[di];
  // the ranges may overlap.
  static void MoveEntries(InnerNode* dst, size_t di, const InnerNode* src, size_t si, size_t n);
  Hint HintFor(Value v) const { return detail::BTreeHint<Less, Value>::Of(less_, v); }
  // Writes separator i and its hint.
  void SetKey(InnerNode* p, uint32_t i, Value key) const {
    p->keys[i] = key;
    p->hints[i] = HintFor(key);
  }

  void RefreshKeys(void* p, int h);
  std::string CheckNode(void* p, int h, bool is_root, uint64_t* count, uint64_t* heads,
                        const LeafNode** expect_leaf) const;

  // ---- Group bookkeeping (no-ops without groups) ----
  // Bits [0, k) of a leaf word.
  static uint64_t LowBits(size_t k) { return k >= 64 ? ~uint64_t{0} : (uint64_t{1} << k) - 1; }
  // Group heads in subtree (p, h).
  static uint64_t HeadsOf(void* p, int h);
  // Toggles whether the value at `rank` is a head, fixing the sums on its
  // path. O(log n), no Less.
  void FlipHead(uint64_t rank);
  // Whether `v` starts a group after `pred` (nullptr: v is first).
  bool IsHead(const Value* pred, Value v) const;

  Less less_;
  void* root_ = nullptr;  // LeafNode* if height_ == 0, else InnerNode*
  int height_ = 0;
  uint64_t size_ = 0;
  size_t leaves_ = 0, inners_ = 0;
};

}  // namespace rankd

#include "core/counted_btree_check.h"      // IWYU pragma: export
#include "core/counted_btree_codes.h"      // IWYU pragma: export
#include "core/counted_btree_groups.h"     // IWYU pragma: export
#include "core/counted_btree_impl.h"       // IWYU pragma: export
#include "core/counted_btree_move.h"       // IWYU pragma: export
#include "core/counted_btree_rebalance.h"  // IWYU pragma: export
#include "core/counted_btree_search.h"     // IWYU pragma: export
