// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// BoardView reads a sorted set as a leaderboard: board positions (0-based,
// best first), ranks in the three modes, the members holding a rank range,
// the rank a score would get. It is what the LB.* commands compute, kept in
// core/ so it is tested against a model without a server.
//
// Board order: for a board (SortedSet::board() != nullptr), its policy's
// order; ties by stamp (see core/leaderboard_set.h). For a plain sorted set
// the view uses the default order (DESC) with Redis's tie order for it,
// i.e. ZREVRANGE's (member bytes descending). Ordinal and competition ranks
// are then well defined; dense ranks, and the ordinal rank a new score
// would get, are not available (dense() is false).
//
// Position p <-> ascending engine rank: desc ? size - 1 - p : p.
// Ranks are 1-based. Every method is O(log n) plus the rows visited, with no
// record reads for competition and dense ranks beyond one leaf.
// The view holds a reference: valid until the set is mutated.
//
// Stable views (issue 17): constructed with a board's BoardSnapshot
// (core/board_snapshot.h), every method answers from that frozen view
// instead of the live board: same ranks, rows, scores, stamps and metadata
// as at the snapshot. Costs then are the snapshot's (O(log^2 n) for a
// position's record, O(log n + log m) for counts; m = changed members).

#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "absl/functional/function_ref.h"
#include "core/board_snapshot.h"
#include "core/leaderboard_policy.h"
#include "core/sorted_set.h"

namespace rankd {

class BoardView {
 public:
  explicit BoardView(const SortedSet& z, const BoardSnapshot* snapshot = nullptr);

  // The set viewed.
  const SortedSet& set() const { return z_; }
  bool is_board() const { return is_board_; }
  // The policy in use (the default one for a plain sorted set).
  const BoardPolicy& policy() const { return policy_; }
  // Whether dense ranks (and RankFor in ORDINAL mode) are available.
  bool dense() const { return is_board_; }
  uint64_t size() const { return n_; }
  // The frozen view read, or nullptr for the live set.
  const BoardSnapshot* snapshot() const { return snap_; }

  // The member's score / stamp (boards only) / metadata, or nullopt. O(1).
  std::optional<double> Score(std::string_view member) const;
  std::optional<BoardStamp> StampOf(std::string_view member) const;
  std::optional<std::string_view> MetaOf(std::string_view member) const;

  uint64_t AscOf(uint64_t pos) const { return desc_ ? n_ - 1 - pos : pos; }
  // The member's board position, or nullopt if absent. O(log n).
  std::optional<uint64_t> PositionOf(std::string_view member) const;
  // REQUIRES: pos < size().
  std::pair<std::string_view, double> AtPos(uint64_t pos) const;

  // Members with a strictly better / strictly worse score than `s`.
  uint64_t Better(double s) const;
  uint64_t Worse(double s) const;
  // Distinct scores strictly better than `s`, and in all. REQUIRES: dense().
  uint64_t DistinctBetter(double s) const;
  uint64_t Distinct() const;

  // The rank in `mode` of the member at `pos`, whose score is `s`.
  // REQUIRES: pos < size(); mode != kDense || dense().
  uint64_t RankAt(uint64_t pos, double s, RankMode mode) const;

  // Visits positions [first, last] best first, with their ranks in `mode`.
  // REQUIRES: first <= last < size(); mode != kDense || dense().
  using RowVisitor = absl::FunctionRef<void(uint64_t rank, std::string_view member, double score)>;
  void ForEachRow(uint64_t first, uint64_t last, RankMode mode, RowVisitor fn) const;

  // The positions [first, last] of every member whose rank in `mode` lies in
  // [a, b] (so with tied modes rank 1..1 is everyone tied first), or nullopt
  // when no member holds such a rank. REQUIRES: 1 <= a <= b;
  // mode != kDense || dense().
  std::optional<std::pair<uint64_t, uint64_t>> PositionsForRanks(uint64_t a, uint64_t b,
                                                                 RankMode mode) const;

  // The rank a member would have if it reached `score` now (after every
  // member already at that score for FIRST, before them for LAST).
  // REQUIRES: dense() unless mode == kCompetition.
  uint64_t RankFor(double score, RankMode mode) const;

  // The score held at rank `rank` in `mode` (ORDINAL and COMPETITION: the
  // score at position rank - 1, which is what reaching that rank takes;
  // DENSE: the rank-th best distinct score), or nullopt past the end.
  // REQUIRES: rank >= 1; mode != kDense || dense().
  std::optional<double> ScoreAt(uint64_t rank, RankMode mode) const;

  // Percentile rank of score `s` held by a member: 100 * (worse + equal / 2)
  // / size, where equal counts the member itself. REQUIRES: size() > 0.
  double Percentile(double s) const;

 private:
  // Members with score < s (<= s if inclusive); distinct scores so; the
  // ascending rank where the k-th distinct score starts, and that score.
  uint64_t CountBelow(double s, bool inclusive) const;
  uint64_t DistinctBelow(double s, bool inclusive) const;
  uint64_t DistinctStart(uint64_t k) const;
  double DistinctScore(uint64_t k) const;

  const SortedSet& z_;
  const BoardSnapshot* const snap_;
  const bool is_board_;
  const BoardPolicy policy_;
  const bool desc_;
  const uint64_t n_;
};

}  // namespace rankd
