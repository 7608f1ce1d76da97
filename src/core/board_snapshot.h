// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// BoardSnapshot: a stable view of a leaderboard (issue 17, docs/leaderboards.md
// "Stable views"), the board exactly as it was at one instant, kept while the
// board goes on changing, without a copy of the board.
//
// Design: the view is the live board "undone". The board (LeaderboardSet)
// calls the hooks below around every change of a record, and the view saves,
// the first time a member changes after the snapshot, the member's entry as
// it was (score and stamp, or "absent"). So with
//   L  the live records,  C  the members changed since the snapshot,
//   M  the live records of the members of C (a subset of L),
//   O  the saved records of the members of C that were present then,
// the view is V = (L \ M) + O, and for any order key k
//   |V < k| = |L < k| - |M < k| + |O < k|,
// each term an O(log) count in an order-statistic tree: L is the board's
// tree, M a tree of live handles, O a tree over the saved records (an arena
// of its own with the board's record layout, so the board's comparator works
// on it unchanged). Selecting the r-th record of V binary-searches the live
// tree with that count (O(log^2 n)); a page of rows then walks L (skipping
// M) and O side by side. Dense ranks use the same identity over distinct
// scores: `plus_` holds the scores held in V and no longer in L, `minus_`
// the scores in L that V does not hold; every score a change touches is
// classified once (whether V holds it cannot change: V is frozen).
//
//   live tree L:  (9,#2) (9,#6)* (7,#8) (5,#4)* (5,#11)*     * = in M
//   saved O:      (9,#6) (6,#5)                  #11 saved as absent
//   view V:       (9,#2) (9,#6) (7,#8) (6,#5)
//
// Memory: O(changed members) (a saved record, an index slot and a tree slot
// each, ~60 B plus the member bytes), nothing per unchanged member.
// Cost per board write while a view exists (m = changed members): O(log m)
// extra (two small-tree updates and a hash probe), plus O(log n) the first
// time a write touches a given score (its count is read from the board).
// Measured: 2-4x fewer writes per second while most writes are first
// changes of a member (bench/RESULTS.md "Stable views (issue 17)").
// Reads (ascending engine order, as SortedSet): counts and rank of a member
// O(log n + log m); the record at a rank O(log^2 n); a page of k rows
// O(log^2 n + k + changed members passed over). Metadata (LB.ADD ... META)
// is saved the same way, on its first change after the snapshot.
//
// Handles in M are the board's: the board tells the view when it compacts
// its arena (MapHandles). Not thread-safe: the board's owner thread.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "base/str_hash.h"
#include "core/board_order.h"
#include "core/counted_btree.h"
#include "core/leaderboard_policy.h"
#include "core/member_index.h"
#include "core/record_arena.h"

namespace rankd {

class LeaderboardSet;

class BoardSnapshot {
 public:
  using Handle = RecordArena::Handle;

  // A view of `live` as it is now, taken at unix time `taken_ms`. `live`
  // must outlive the view and call its hooks on every change (it does: the
  // view is owned by the board).
  BoardSnapshot(const LeaderboardSet& live, int64_t taken_ms);
  BoardSnapshot(const BoardSnapshot&) = delete;
  BoardSnapshot& operator=(const BoardSnapshot&) = delete;
  ~BoardSnapshot();

  // ---- Hooks (called by LeaderboardSet) ----
  // Present record `h` is about to move (score update) or go (removal).
  void BeforeLeave(Handle h);
  // Record `h` has just been inserted, or moved by an update.
  void AfterEnter(Handle h);
  // Absent `member` is about to be inserted.
  void BeforeInsert(std::string_view member, uint64_t hash);
  // The member's metadata is about to change from `*meta` (null: none).
  void BeforeMetaChange(std::string_view member, const std::string* meta);
  // The board moved its records: old handle h is now forward(h).
  void MapHandles(absl::FunctionRef<Handle(Handle)> forward);

  // ---- The view (ascending engine order, as SortedSet) ----
  int64_t taken_ms() const { return taken_ms_; }
  uint64_t size() const { return size_; }
  // The board's sequence counter at the snapshot.
  uint64_t next_seq() const { return next_seq_; }
  // Members changed since the snapshot.
  size_t changed() const { return saved_index_.size(); }
  size_t MemoryUsage() const;

  struct Entry {
    std::string_view member;
    double score;
    BoardStamp stamp;
  };
  // The member's entry in the view, or nullopt if it was absent. O(1).
  std::optional<Entry> Find(std::string_view member) const;
  // Its ascending rank in the view. O(log n + log m).
  std::optional<uint64_t> Rank(std::string_view member) const;
  // Records with score < x (<= x when inclusive). O(log n + log m).
  uint64_t CountScoreBelow(double x, bool inclusive) const;
  // The record at ascending rank r. REQUIRES: r < size(). O(log^2 n).
  Entry At(uint64_t r) const;
  // Visits ranks [start, stop] ascending, or stop down to start if
  // `reverse`. REQUIRES: start <= stop < size().
  void ForEachInRankRange(uint64_t start, uint64_t stop, bool reverse,
                          absl::FunctionRef<void(const Entry&)> fn) const;
  // Distinct scores: in the view; below x (<= x when inclusive); the k-th
  // (0-based, ascending). REQUIRES: k < Distinct().
  uint64_t Distinct() const;
  uint64_t DistinctBelow(double x, bool inclusive) const;
  double DistinctScore(uint64_t k) const;
  // The member's metadata in the view: `live` (its metadata now) unless it
  // changed since the snapshot.
  std::optional<std::string_view> Meta(std::string_view member,
                                       std::optional<std::string_view> live) const;

  // For tests: the view's own invariants ("" when they hold). O(m log n).
  std::string CheckInvariants() const;

 private:
  using Tree = CountedBTree<Handle, board_order::StampLess>;
  struct ScoreLess {
    bool operator()(double a, double b) const { return a < b; }
  };
  using ScoreTree = CountedBTree<double, ScoreLess>;
  // Per score a change touched: whether V holds it (fixed), and how many
  // live records hold it now.
  struct ScoreState {
    bool in_view;
    uint64_t live;
  };
  // A record of L (`live`) or of O (saved).
  struct Ref {
    bool saved;
    Handle h;
  };

  board_order::Key KeyOfRef(Ref r) const;
  Entry EntryOf(Ref r) const;
  // |V < k|.
  uint64_t CountBefore(const board_order::Key& k) const;
  // `live_adjust`: how many records at `score` the live tree holds beyond
  // what it held before the change being recorded (1 in AfterEnter).
  void TouchScore(double score, int64_t delta, uint64_t live_adjust);
  static void SetIn(ScoreTree& t, double s, bool in);
  // Live ranks are computed from keys, not stored: the rank of a live key.
  uint64_t LiveBefore(const board_order::Key& k) const;

  const LeaderboardSet& live_;
  const bool seq_desc_;
  const int64_t taken_ms_;
  const uint64_t size_;
  const uint64_t next_seq_;
  RecordArena saved_{16};             // saved records; seq 0: absent then
  MemberIndex saved_index_{&saved_};  // every changed member
  Tree old_;                          // O: saved records with seq != 0
  Tree moved_;                        // M: live handles of changed members
  absl::flat_hash_set<Handle> moved_set_;
  absl::flat_hash_map<double, ScoreState> scores_;
  ScoreTree plus_, minus_;
  // Metadata at the snapshot of members whose metadata changed since.
  absl::flat_hash_map<std::string, std::optional<std::string>, StrHash, StrEq> saved_meta_;
  size_t saved_meta_bytes_ = 0;
};

}  // namespace rankd
