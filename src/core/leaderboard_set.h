// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// LeaderboardSet is the tree of a sorted set in board mode (issue 7): the
// same three parts as TreeSet (RecordArena + CountedBTree + MemberIndex,
// sharing 32-bit handles), with two differences:
//
//   * every record carries a stamp {seq, ms} in 16 trailing arena bytes:
//     seq is taken from this board's counter (strictly increasing, never
//     reused) whenever the member's score changes, ms is the wall time of
//     that change (or an imported time);
//   * the tree orders by (score asc, tie key, member) where the tie key is
//     seq, descending when the policy makes earlier stamps rank higher in
//     ascending order's reverse (DESC+FIRST, ASC+LAST) and ascending
//     otherwise, so ZREVRANGE lists a DESC board and ZRANGE an ASC board in
//     board order. The comparator defines groups (equal scores), so the
//     tree also counts distinct scores per subtree (dense ranks, O(log n)).
//
//   ascending order, DESC+FIRST board:  (5,#9) (5,#4) (7,#8) (9,#6) (9,#2)
//   board order (reverse):              (9,#2) (9,#6) (7,#8) (5,#4) (5,#9)
//
// Memory: ~16 B per element more than TreeSet (the stamp) plus 8 B per leaf
// and per inner-node child (the distinct-score summary).
//
// Stable view (issue 17): TakeView() freezes the board as it is now in a
// BoardSnapshot (core/board_snapshot.h), which every Insert / Update /
// Remove / RemoveRankRange and arena compaction keeps informed, so it costs
// memory per member changed since, not per member.
// Lifetime and threading as TreeSet: views valid until the next mutation.

#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "core/board_order.h"
#include "core/board_snapshot.h"
#include "core/counted_btree.h"
#include "core/leaderboard_policy.h"
#include "core/member_index.h"
#include "core/record_arena.h"
#include "core/zset_order.h"

namespace rankd {

class LeaderboardSet {
 public:
  using Handle = RecordArena::Handle;
  static constexpr size_t kStampBytes = 16;  // seq (8) | ms (8), little-endian host order

  explicit LeaderboardSet(BoardPolicy policy, size_t expected_size = 0);
  LeaderboardSet(const LeaderboardSet&) = delete;
  LeaderboardSet& operator=(const LeaderboardSet&) = delete;

  const BoardPolicy& policy() const { return policy_; }
  size_t size() const { return tree_.size(); }
  // The sequence the next score change will take. Always > every stamp's seq.
  uint64_t next_seq() const { return next_seq_; }
  // Raises next_seq() to at least `seq` (loading, replaying the log).
  void RaiseNextSeq(uint64_t seq) { next_seq_ = std::max(next_seq_, seq); }
  // A new stamp at `ms` (consumes a sequence number).
  BoardStamp NewStamp(int64_t ms) { return {next_seq_++, ms}; }

  size_t MemoryUsage() const;

  Handle Find(std::string_view member, uint64_t hash) const { return index_.Find(member, hash); }
  double ScoreOf(Handle h) const { return arena_.Score(h); }
  std::string_view MemberOf(Handle h) const { return arena_.Member(h); }
  BoardStamp StampOf(Handle h) const;
  // Ascending (engine-order) rank of a present handle. O(log n).
  uint64_t RankOf(Handle h) const;

  // Adds a new member. REQUIRES: absent; hash = MemberIndex::Hash(member);
  // stamp.seq unique in this board (callers use NewStamp, or RaiseNextSeq
  // past an imported seq).
  void Insert(std::string_view member, uint64_t hash, double score, BoardStamp stamp);
  // Moves a present member to (score, stamp). Same REQUIRES on the stamp.
  void Update(Handle h, double score, BoardStamp stamp);
  void Remove(Handle h, uint64_t hash);
  // REQUIRES: start <= stop < size().
  void RemoveRankRange(uint64_t start, uint64_t stop);

  // As TreeSet: elements with score < x (<= x if inclusive); a prefix
  // predicate count. O(log n).
  uint64_t CountScoreBelow(double x, bool inclusive) const;
  template <typename Pred>
  uint64_t CountWhile(Pred pred) const {
    return tree_.PartitionPoint([&](Handle x) { return pred(arena_.Score(x), arena_.Member(x)); });
  }

  // Distinct scores: in the whole board, among ascending ranks [0, rank),
  // and the ascending rank where the k-th (0-based) distinct score starts.
  // O(log n), no record reads. REQUIRES: rank <= size(); k < distinct().
  uint64_t distinct() const { return tree_.groups(); }
  uint64_t DistinctBefore(uint64_t rank) const { return tree_.GroupsBefore(rank); }
  uint64_t DistinctStart(uint64_t k) const { return tree_.SelectGroup(k); }

  std::pair<std::string_view, double> At(uint64_t rank) const;
  Handle HandleAt(uint64_t rank) const { return tree_.At(rank); }
  void ForEachInRankRange(uint64_t start, uint64_t stop, bool reverse, ElementVisitor fn) const;
  // Visits (member, score, stamp) in ascending order. O(n).
  template <typename Fn>
  void ForEachStamped(Fn fn) const {
    for (auto c = tree_.Seek(0); c.Valid(); c.Next()) {
      fn(arena_.Member(c.value()), arena_.Score(c.value()), StampOf(c.value()));
    }
  }
  uint64_t Scan(uint64_t cursor, size_t count, ElementVisitor fn) const;

  // Tree (incl. distinct-score summary), index and stamp invariants: order
  // agrees with the stamps, every seq < next_seq(), seqs unique. O(n).
  std::string CheckInvariants() const;

  // ---- Stable view ----
  // Replaces the view (if any) with one of the board as it is now.
  void TakeView(int64_t now_ms) {
    view_.reset();
    view_ = std::make_unique<BoardSnapshot>(*this, now_ms);
  }
  void DropView() { view_.reset(); }
  const BoardSnapshot* view() const { return view_.get(); }
  BoardSnapshot* view() { return view_.get(); }

  // Ascending rank that a record with key `k` has or would have. O(log n).
  uint64_t CountBefore(const board_order::Key& k) const;

 private:
  friend class BoardSnapshot;  // reads the arena and tree
  using StampLess = board_order::StampLess;
  using Tree = CountedBTree<Handle, StampLess>;

  void WriteStamp(Handle h, BoardStamp s);
  // Rank that (score, seq, member) has or would have.
  uint64_t LowerRank(double score, uint64_t seq, std::string_view member) const {
    return CountBefore({score, seq, member});
  }
  // Tells the view about a compaction of the arena.
  auto CompactHook() {
    return [this](const RecordArena& old) {
      if (view_) view_->MapHandles([&](Handle h) { return old.Forward(h); });
    };
  }

  const BoardPolicy policy_;
  uint64_t next_seq_ = 1;
  RecordArena arena_{kStampBytes};
  MemberIndex index_{&arena_};
  Tree tree_;
  std::unique_ptr<BoardSnapshot> view_;  // declared last: destroyed first
};

}  // namespace rankd
