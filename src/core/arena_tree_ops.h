// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The parts of a tree-encoded sorted set that do not depend on its order:
// the operations TreeSet and LeaderboardSet (board mode) share over their
// three parts (RecordArena + CountedBTree + MemberIndex, sharing 32-bit
// handles). Each owner keeps only what differs: its comparator, how it finds
// a handle's rank, stamps, the distinct-score summary.
//
// Free function templates over the tree type, so every call inlines into the
// owner (no virtual calls, no std::function) and the owners' layouts, and so
// their memory, are unchanged. `Tree` is a CountedBTree<RecordArena::Handle,
// Less> whose values resolve through `arena`.

#pragma once

#include <cassert>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "core/member_index.h"
#include "core/record_arena.h"
#include "core/zset_order.h"

namespace rankd::arena_tree {

using Handle = RecordArena::Handle;

// PartitionPoint predicate "score(x) < bound" (or <= if `inclusive`); the
// inner-node score hint always settles it, so records are read in one leaf.
struct BelowScore {
  const RecordArena* arena;
  double bound;
  bool inclusive;
  bool operator()(Handle x) const { return Decide(arena->Score(x)) != 0; }
  int Decide(double s) const { return inclusive ? s <= bound : s < bound; }
  double Target() const { return bound; }
  void Prefetch(Handle x) const { arena->Prefetch(x); }
};

// What MaybeCompact tells an owner that keeps handles elsewhere too (a
// board's stable view): called with the old arena after the move, where
// old.Forward(h) is each moved handle's new value. The default does nothing.
struct NoCompactHook {
  void operator()(const RecordArena&) const {}
};

// Moves live records into a fresh arena when frees left too many holes
// (waste >= 16 KiB and >= half the live bytes), rewriting the handles in
// `tree` and `index`, then calls on_compact(old arena). Order and members
// are unchanged. O(n) when it runs.
template <typename Tree, typename OnCompact = NoCompactHook>
void MaybeCompact(RecordArena* arena, Tree* tree, MemberIndex* index,
                  const OnCompact& on_compact = {}) {
  const size_t waste = arena->waste_bytes();
  if (waste < 16384 || waste < arena->live_bytes() / 2) return;
  // Swap first: the tree and index resolve handles through `arena`, and
  // MapValues re-reads separator hints from the new records.
  RecordArena old(arena->extra());
  old.Swap(*arena);
  arena->ReserveHint(old.live_bytes());
  tree->MapValues([&](Handle h) {
    Handle to = arena->Adopt(&old, h);
    old.SetForward(h, to);
    return to;
  });
  index->MapHandles([&](Handle h) { return old.Forward(h); });
  on_compact(old);
}

// Removes present handle `h`, found at `rank`, from all three parts, then
// compacts if due. REQUIRES: tree->At(rank) == h; hash = Hash(member of h).
template <typename Tree, typename OnCompact = NoCompactHook>
void RemoveAt(RecordArena* arena, Tree* tree, MemberIndex* index, uint64_t rank, Handle h,
              uint64_t hash, const OnCompact& on_compact = {}) {
  tree->EraseAt(rank);
  index->Erase(h, hash);
  arena->Free(h);
  MaybeCompact(arena, tree, index, on_compact);
}

// Removes ranks [start, stop] one by one, then compacts if due.
// REQUIRES: start <= stop < tree->size(). O(log n + k).
template <typename Tree, typename OnCompact = NoCompactHook>
void RemoveRankRange(RecordArena* arena, Tree* tree, MemberIndex* index, uint64_t start,
                     uint64_t stop, const OnCompact& on_compact = {}) {
  assert(start <= stop && stop < tree->size());
  for (uint64_t k = start; k <= stop; ++k) {
    Handle h = tree->EraseAt(start);
    index->Erase(h, MemberIndex::Hash(arena->Member(h)));
    arena->Free(h);
  }
  MaybeCompact(arena, tree, index, on_compact);
}

// (member, score) at `rank`. REQUIRES: rank < tree.size(). O(log n).
template <typename Tree>
std::pair<std::string_view, double> At(const RecordArena& arena, const Tree& tree,
                                       uint64_t rank) {
  Handle h = tree.At(rank);
  return {arena.Member(h), arena.Score(h)};
}

// Visits ranks [start, stop] in order, or from stop down to start if
// `reverse`. REQUIRES: start <= stop < tree.size(). O(log n + count).
template <typename Tree>
void ForEachInRankRange(const RecordArena& arena, const Tree& tree, uint64_t start,
                        uint64_t stop, bool reverse, ElementVisitor fn) {
  assert(start <= stop && stop < tree.size());
  typename Tree::Cursor c = tree.Seek(reverse ? stop : start);
  for (uint64_t n = stop - start + 1; n > 0; --n) {
    Handle h = c.value();
    fn(arena.Member(h), arena.Score(h));
    if (reverse) c.Prev(); else c.Next();
  }
}

// ZSCAN step over the index: see MemberIndex::Scan.
inline uint64_t Scan(const RecordArena& arena, const MemberIndex& index, uint64_t cursor,
                     size_t count, ElementVisitor fn) {
  return index.Scan(cursor, count, [&](Handle h) { fn(arena.Member(h), arena.Score(h)); });
}

// The tree's and index's own invariants, equal sizes, and every tree
// element found in the index; then `check(h)` on each element in order,
// which returns nullptr or the first problem. "" when all hold. O(n).
template <typename Tree, typename Check>
std::string CheckInvariants(const RecordArena& arena, const Tree& tree, const MemberIndex& index,
                            Check check) {
  std::string err = tree.CheckInvariants();
  if (err.empty()) err = index.CheckInvariants();
  if (!err.empty()) return err;
  if (index.size() != tree.size()) return "tree and index sizes differ";
  for (typename Tree::Cursor c = tree.Seek(0); c.Valid(); c.Next()) {
    std::string_view m = arena.Member(c.value());
    if (index.Find(m, MemberIndex::Hash(m)) != c.value()) return "tree element missing from index";
    if (const char* problem = check(c.value())) return problem;
  }
  return "";
}

}  // namespace rankd::arena_tree
