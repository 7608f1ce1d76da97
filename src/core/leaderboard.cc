// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/leaderboard.h"

#include <algorithm>
#include <cassert>

namespace rankd {

BoardView::BoardView(const SortedSet& z, const BoardSnapshot* snapshot)
    : z_(z),
      snap_(snapshot),
      is_board_(z.board() != nullptr),
      policy_(z.board() ? *z.board() : BoardPolicy{}),
      desc_(policy_.order == BoardOrder::kDesc),
      n_(snapshot ? snapshot->size() : z.size()) {}

std::optional<double> BoardView::Score(std::string_view member) const {
  if (!snap_) return z_.Score(member);
  std::optional<BoardSnapshot::Entry> e = snap_->Find(member);
  return e ? std::optional<double>(e->score) : std::nullopt;
}

std::optional<BoardStamp> BoardView::StampOf(std::string_view member) const {
  if (!snap_) return z_.BoardStampOf(member);
  std::optional<BoardSnapshot::Entry> e = snap_->Find(member);
  return e ? std::optional<BoardStamp>(e->stamp) : std::nullopt;
}

std::optional<std::string_view> BoardView::MetaOf(std::string_view member) const {
  return snap_ ? snap_->Meta(member, z_.MemberMeta(member)) : z_.MemberMeta(member);
}

std::optional<uint64_t> BoardView::PositionOf(std::string_view member) const {
  std::optional<uint64_t> asc = snap_ ? snap_->Rank(member) : z_.Rank(member);
  if (!asc) return std::nullopt;
  return AscOf(*asc);  // AscOf is its own inverse
}

std::pair<std::string_view, double> BoardView::AtPos(uint64_t pos) const {
  if (!snap_) return z_.At(AscOf(pos));
  const BoardSnapshot::Entry e = snap_->At(AscOf(pos));
  return {e.member, e.score};
}

uint64_t BoardView::Distinct() const { return snap_ ? snap_->Distinct() : z_.BoardDistinct(); }

// ScoreLowerRank(s, false) counts scores < s; ScoreUpperRank(s, false) <= s.
uint64_t BoardView::CountBelow(double s, bool inclusive) const {
  if (snap_) return snap_->CountScoreBelow(s, inclusive);
  return inclusive ? z_.ScoreUpperRank(s, false) : z_.ScoreLowerRank(s, false);
}

uint64_t BoardView::DistinctBelow(double s, bool inclusive) const {
  if (snap_) return snap_->DistinctBelow(s, inclusive);
  return z_.BoardDistinctBefore(CountBelow(s, inclusive));
}

uint64_t BoardView::DistinctStart(uint64_t k) const {
  return snap_ ? snap_->CountScoreBelow(snap_->DistinctScore(k), false) : z_.BoardDistinctStart(k);
}

double BoardView::DistinctScore(uint64_t k) const {
  return snap_ ? snap_->DistinctScore(k) : z_.At(z_.BoardDistinctStart(k)).second;
}

uint64_t BoardView::Better(double s) const {
  return desc_ ? n_ - CountBelow(s, true) : CountBelow(s, false);
}

uint64_t BoardView::Worse(double s) const {
  return desc_ ? CountBelow(s, false) : n_ - CountBelow(s, true);
}

uint64_t BoardView::DistinctBetter(double s) const {
  assert(dense());
  if (desc_) return Distinct() - DistinctBelow(s, true);
  return DistinctBelow(s, false);
}

uint64_t BoardView::RankAt(uint64_t pos, double s, RankMode mode) const {
  switch (mode) {
    case RankMode::kOrdinal: return pos + 1;
    case RankMode::kCompetition: return Better(s) + 1;
    case RankMode::kDense: return DistinctBetter(s) + 1;
  }
  return 0;
}

void BoardView::ForEachRow(uint64_t first, uint64_t last, RankMode mode, RowVisitor fn) const {
  assert(first <= last && last < n_);
  uint64_t pos = first, rank = 0;
  double prev = 0;
  // Invariant: after the first row, a score change starts a new tie group,
  // whose competition rank is its position + 1 and dense rank the next one.
  auto row = [&](std::string_view m, double s) {
    if (pos == first) {
      rank = RankAt(pos, s, mode);
    } else if (mode == RankMode::kOrdinal || s != prev) {
      rank = mode == RankMode::kDense ? rank + 1 : pos + 1;
    }
    fn(rank, m, s);
    prev = s;
    ++pos;
  };
  const uint64_t lo = AscOf(desc_ ? last : first), hi = AscOf(desc_ ? first : last);
  if (snap_) {
    snap_->ForEachInRankRange(lo, hi, desc_,
                              [&](const BoardSnapshot::Entry& e) { row(e.member, e.score); });
  } else {
    z_.ForEachInRankRange(lo, hi, desc_, row);
  }
}

std::optional<std::pair<uint64_t, uint64_t>> BoardView::PositionsForRanks(uint64_t a, uint64_t b,
                                                                          RankMode mode) const {
  assert(1 <= a && a <= b);
  if (n_ == 0) return std::nullopt;
  uint64_t first = 0, last = 0;
  switch (mode) {
    case RankMode::kOrdinal:
      if (a > n_) return std::nullopt;
      first = a - 1;
      last = std::min(b, n_) - 1;
      break;
    case RankMode::kCompetition: {
      if (a > n_) return std::nullopt;
      // A tie group holds rank a only if it starts at position a - 1;
      // otherwise the first group starting after a - 1 does.
      const double s = AtPos(a - 1).second;
      first = Better(s) == a - 1 ? a - 1 : n_ - Worse(s);
      // Everyone tied with position b - 1 shares its rank (<= b).
      last = n_ - Worse(AtPos(std::min(b, n_) - 1).second) - 1;
      break;
    }
    case RankMode::kDense: {
      const uint64_t d = Distinct();
      if (a > d) return std::nullopt;
      const uint64_t bb = std::min(b, d);
      // Board groups [a-1, bb-1]; ascending group g starts at DistinctStart(g).
      auto start = [&](uint64_t g) { return g < d ? DistinctStart(g) : n_; };
      if (desc_) {
        const uint64_t asc_first = start(d - bb), asc_last = start(d - a + 1) - 1;
        first = AscOf(asc_last);
        last = AscOf(asc_first);
      } else {
        first = start(a - 1);
        last = start(bb) - 1;
      }
      break;
    }
  }
  if (first > last || first >= n_) return std::nullopt;
  return std::make_pair(first, last);
}

uint64_t BoardView::RankFor(double score, RankMode mode) const {
  switch (mode) {
    case RankMode::kOrdinal: {
      assert(dense());
      const uint64_t better = Better(score);
      if (policy_.ties == BoardTies::kLast) return better + 1;
      return n_ - Worse(score) + 1;  // after everyone already tied
    }
    case RankMode::kCompetition: return Better(score) + 1;
    case RankMode::kDense: return DistinctBetter(score) + 1;
  }
  return 0;
}

std::optional<double> BoardView::ScoreAt(uint64_t rank, RankMode mode) const {
  assert(rank >= 1);
  if (mode != RankMode::kDense) {
    if (rank > n_) return std::nullopt;
    return AtPos(rank - 1).second;
  }
  const uint64_t d = Distinct();
  if (rank > d) return std::nullopt;
  const uint64_t g = desc_ ? d - rank : rank - 1;  // ascending group index
  return DistinctScore(g);
}

double BoardView::Percentile(double s) const {
  assert(n_ > 0);
  const uint64_t worse = Worse(s), equal = n_ - worse - Better(s);
  return 100.0 * (static_cast<double>(worse) + static_cast<double>(equal) / 2) /
         static_cast<double>(n_);
}

}  // namespace rankd
