// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/leaderboard_set.h"

#include <cstring>

#include "absl/container/flat_hash_set.h"
#include "core/arena_tree_ops.h"

namespace rankd {
using Handle = RecordArena::Handle;

LeaderboardSet::LeaderboardSet(BoardPolicy policy, size_t expected_size)
    : policy_(policy), tree_(StampLess{&arena_, policy.seq_desc()}) {
  if (expected_size > 0) {
    index_.Reserve(expected_size);
    arena_.ReserveHint(expected_size * (RecordArena::RecordSize(16) + kStampBytes));
  }
}

size_t LeaderboardSet::MemoryUsage() const {
  return sizeof(*this) + arena_.MemoryUsage() + tree_.MemoryUsage() + index_.MemoryUsage() +
         (view_ ? view_->MemoryUsage() : 0);
}

BoardStamp LeaderboardSet::StampOf(Handle h) const {
  BoardStamp s;
  const char* p = arena_.Extra(h);
  std::memcpy(&s.seq, p, sizeof s.seq);
  std::memcpy(&s.ms, p + sizeof s.seq, sizeof s.ms);
  return s;
}

void LeaderboardSet::WriteStamp(Handle h, BoardStamp s) {
  char* p = arena_.Extra(h);
  std::memcpy(p, &s.seq, sizeof s.seq);
  std::memcpy(p + sizeof s.seq, &s.ms, sizeof s.ms);
}

uint64_t LeaderboardSet::CountBefore(const board_order::Key& k) const {
  return tree_.PartitionPoint(board_order::BeforeKey{&arena_, policy_.seq_desc(), k});
}

uint64_t LeaderboardSet::RankOf(Handle h) const {
  return LowerRank(arena_.Score(h), StampOf(h).seq, arena_.Member(h));
}

uint64_t LeaderboardSet::CountScoreBelow(double x, bool inclusive) const {
  return tree_.PartitionPoint(arena_tree::BelowScore{&arena_, x, inclusive});
}

void LeaderboardSet::Insert(std::string_view member, uint64_t hash, double score,
                            BoardStamp stamp) {
  RaiseNextSeq(stamp.seq + 1);
  if (view_) view_->BeforeInsert(member, hash);
  const uint64_t rank = LowerRank(score, stamp.seq, member);
  Handle h = arena_.New(member, score);
  WriteStamp(h, stamp);
  index_.Insert(h, hash);
  tree_.InsertAt(rank, h);
  if (view_) view_->AfterEnter(h);
}

void LeaderboardSet::Update(Handle h, double score, BoardStamp stamp) {
  // Always erase and reinsert: the group (score) changes, and with it the
  // distinct-score summary around both positions.
  RaiseNextSeq(stamp.seq + 1);
  if (view_) view_->BeforeLeave(h);
  tree_.EraseAt(RankOf(h));
  arena_.SetScore(h, score);
  WriteStamp(h, stamp);
  tree_.InsertAt(LowerRank(score, stamp.seq, arena_.Member(h)), h);
  if (view_) view_->AfterEnter(h);
}

void LeaderboardSet::Remove(Handle h, uint64_t hash) {
  if (view_) view_->BeforeLeave(h);
  arena_tree::RemoveAt(&arena_, &tree_, &index_, RankOf(h), h, hash, CompactHook());
}

void LeaderboardSet::RemoveRankRange(uint64_t start, uint64_t stop) {
  if (view_) {
    auto c = tree_.Seek(start);
    for (uint64_t k = start; k <= stop; ++k, c.Next()) view_->BeforeLeave(c.value());
  }
  arena_tree::RemoveRankRange(&arena_, &tree_, &index_, start, stop, CompactHook());
}

std::pair<std::string_view, double> LeaderboardSet::At(uint64_t rank) const {
  return arena_tree::At(arena_, tree_, rank);
}

void LeaderboardSet::ForEachInRankRange(uint64_t start, uint64_t stop, bool reverse,
                                        ElementVisitor fn) const {
  arena_tree::ForEachInRankRange(arena_, tree_, start, stop, reverse, fn);
}

uint64_t LeaderboardSet::Scan(uint64_t cursor, size_t count, ElementVisitor fn) const {
  return arena_tree::Scan(arena_, index_, cursor, count, fn);
}

std::string LeaderboardSet::CheckInvariants() const {
  absl::flat_hash_set<uint64_t> seqs;
  std::string e = arena_tree::CheckInvariants(arena_, tree_, index_, [&](Handle h) -> const char* {
    const BoardStamp s = StampOf(h);
    if (s.seq >= next_seq_) return "stamp seq >= next_seq";
    if (!seqs.insert(s.seq).second) return "duplicate stamp seq";
    return nullptr;
  });
  if (e.empty() && view_) e = view_->CheckInvariants();
  return e;
}

}  // namespace rankd
