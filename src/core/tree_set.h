// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// TreeSet is the large-set encoding of a sorted set (the role of Redis's
// skiplist + dict): three parts that share 32-bit record handles.
//
//   RecordArena  [score|len|member] records, each member stored once  ~25 B
//   CountedBTree handles in (score, member) order, with subtree counts,
//                and a byte of each score in the leaves                ~6.7 B
//   MemberIndex  handles by hash of member bytes, for O(1) lookup      ~6 B
//
// (bytes per element for 16-byte members). The tree's comparator reads the
// records through the arena; inner nodes cache each separator's score as
// its hint, and leaves keep a byte of each slot's score (its code in the
// leaf's score range, CountedBTree "Slot codes"), so a search by score, or
// by (score, member) without ties, reads records only where the new score's
// code ties with a slot's (about one search in three, which then reads
// one or two records; ZINCRBY and ZADD find their new place from the
// codes alone otherwise). Leaves are 512 bytes (96 handles and their
// codes): fewer leaf headers and inner nodes than 256.
// Inner nodes are 1024 bytes (36 children): at 1M elements 3 levels above
// the leaves instead of 4 with 512 (each level is one dependent load, from
// L2/L3 at best), and ~0.08 B per element less in node padding.
// Structural changes (InsertAt/EraseAt) compare nothing.
// Past 2 MiB, the arena's blocks and the index's slot array are advised as
// huge pages once filled (base/huge_pages.h): the random record and slot
// reads of a big set then rarely miss the TLB as well as the cache.
//
// Lifetime: string_views handed out point into the arena and stay valid
// until the next mutation (a removal may compact the arena, moving every
// record). Not thread-safe.
//
// UpdateScore (ZINCRBY, ZADD of a present member) searches the old and the
// new place in one interleaved descent and moves the handle there directly
// (inside its leaf, or from its leaf into the target leaf, fixing counts and
// separators on the two paths only); it erases and re-inserts only when the
// source leaf is at its minimum fill or the target leaf is full (~2% of
// ZINCRBY steps of +-1000 at 1M). The record stays where it is.

#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/counted_btree.h"
#include "core/member_index.h"
#include "core/record_arena.h"
#include "core/zset_order.h"

namespace rankd {

class TreeSet {
 public:
  using Handle = RecordArena::Handle;

  // `expected_size` / `expected_bytes` (sum of member lengths) pre-size the
  // index and the first arena block; 0 for "unknown".
  explicit TreeSet(size_t expected_size = 0, size_t expected_bytes = 0);
  TreeSet(const TreeSet&) = delete;
  TreeSet& operator=(const TreeSet&) = delete;

  size_t size() const { return tree_.size(); }
  // Bytes allocated by the three parts. O(1).
  size_t MemoryUsage() const;
  struct MemoryParts {
    size_t arena, tree, index;
  };
  MemoryParts MemoryBreakdown() const {
    return {arena_.MemoryUsage(), tree_.MemoryUsage(), index_.MemoryUsage()};
  }

  // The member's handle, or kNoHandle. `hash` = MemberIndex::Hash(member).
  Handle Find(std::string_view member, uint64_t hash) const { return index_.Find(member, hash); }
  double ScoreOf(Handle h) const { return arena_.Score(h); }
  // Group prefetching hint (SortedSet::PrefetchMember): step 0 the index
  // slot, step 1 the candidate records. Changes nothing.
  void PrefetchMember(uint64_t hash, size_t member_len, int step) const {
    if (step == 0) {
      index_.PrefetchSlot(hash);
    } else {
      index_.PrefetchCandidates(hash, member_len);
    }
  }
  std::string_view MemberOf(Handle h) const { return arena_.Member(h); }
  // The 0-based rank of a present handle. O(log n); inner nodes decide by
  // cached scores and the leaf is scanned for the handle, so records are
  // read only on score ties with separators.
  uint64_t RankOf(Handle h) const;

  // Adds a new member. REQUIRES: absent; hash = MemberIndex::Hash(member).
  void Insert(std::string_view member, uint64_t hash, double score);
  // Adds a member that sorts after every present one (conversion, clone).
  void Append(std::string_view member, double score);
  // Changes a present member's score, moving it in the order if needed.
  void UpdateScore(Handle h, double score);
  // Removes a present member.
  void Remove(Handle h, uint64_t hash);
  // Removes ranks [start, stop]; REQUIRES start <= stop < size().
  void RemoveRankRange(uint64_t start, uint64_t stop);

  // Number of leading elements for which pred(score, member) holds.
  // REQUIRES: pred is true on a prefix of the order. O(log n).
  template <typename Pred>
  uint64_t CountWhile(Pred pred) const {
    return tree_.PartitionPoint([&](Handle x) { return pred(arena_.Score(x), arena_.Member(x)); });
  }
  // Number of elements with score < x (or <= x if `inclusive`). O(log n),
  // record reads only in one leaf.
  uint64_t CountScoreBelow(double x, bool inclusive) const;

  // REQUIRES: rank < size(). O(log n).
  std::pair<std::string_view, double> At(uint64_t rank) const;
  // REQUIRES: start <= stop < size(). O(log n + count).
  void ForEachInRankRange(uint64_t start, uint64_t stop, bool reverse, ElementVisitor fn) const;
  // ZSCAN step: see MemberIndex::Scan.
  uint64_t Scan(uint64_t cursor, size_t count, ElementVisitor fn) const;

  // All parts' invariants plus their agreement; "" when all hold. O(n).
  std::string CheckInvariants() const;

 private:
  struct RecordLess {
    const RecordArena* arena;
    bool operator()(Handle a, Handle b) const {
      return ElementLess(arena->Score(a), arena->Member(a), arena->Score(b), arena->Member(b));
    }
    // Cached in inner nodes (see CountedBTree "Hints").
    double HintOf(Handle h) const { return arena->Score(h); }
    // A byte of the score per leaf slot (see CountedBTree "Slot codes").
    static constexpr bool kSlotCodes = true;
    void Prefetch(Handle h) const { arena->Prefetch(h); }
  };
  using Tree = CountedBTree<Handle, RecordLess, 512, 1024>;

  RecordArena arena_;
  MemberIndex index_{&arena_};
  Tree tree_{RecordLess{&arena_}};
};

}  // namespace rankd
