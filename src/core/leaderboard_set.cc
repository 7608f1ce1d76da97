// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/leaderboard_set.h"

#include <cstring>

#include "absl/container/flat_hash_set.h"
#include "core/arena_tree_ops.h"

namespace rankd {
namespace {

using Handle = RecordArena::Handle;

// "x < (score, seq, member)" in a board's order; a different score settles
// it from the inner-node hint alone.
struct BeforeStamped {
  const RecordArena* arena;
  bool seq_desc;
  double score;
  uint64_t seq;
  std::string_view member;
  bool operator()(Handle x) const {
    const double s = arena->Score(x);
    if (s != score) return s < score;
    uint64_t q;
    std::memcpy(&q, arena->Extra(x), sizeof q);
    if (q != seq) return seq_desc ? q > seq : q < seq;
    return arena->Member(x) < member;
  }
  int Decide(double hint) const { return hint == score ? -1 : hint < score; }
  // Lets the leaf search load its records in parallel rounds.
  void Prefetch(Handle x) const { arena->Prefetch(x); }
};

}  // namespace

bool LeaderboardSet::StampLess::operator()(Handle a, Handle b) const {
  const double sa = arena->Score(a), sb = arena->Score(b);
  if (sa != sb) return sa < sb;
  uint64_t qa, qb;
  std::memcpy(&qa, arena->Extra(a), sizeof qa);
  std::memcpy(&qb, arena->Extra(b), sizeof qb);
  if (qa != qb) return seq_desc ? qa > qb : qa < qb;
  return arena->Member(a) < arena->Member(b);  // only for equal seqs (never, by contract)
}

LeaderboardSet::LeaderboardSet(BoardPolicy policy, size_t expected_size)
    : policy_(policy), tree_(StampLess{&arena_, policy.seq_desc()}) {
  if (expected_size > 0) {
    index_.Reserve(expected_size);
    arena_.ReserveHint(expected_size * (RecordArena::RecordSize(16) + kStampBytes));
  }
}

size_t LeaderboardSet::MemoryUsage() const {
  return sizeof(*this) + arena_.MemoryUsage() + tree_.MemoryUsage() + index_.MemoryUsage();
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

uint64_t LeaderboardSet::LowerRank(double score, uint64_t seq, std::string_view member) const {
  return tree_.PartitionPoint(
      BeforeStamped{&arena_, policy_.seq_desc(), score, seq, member});
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
  const uint64_t rank = LowerRank(score, stamp.seq, member);
  Handle h = arena_.New(member, score);
  WriteStamp(h, stamp);
  index_.Insert(h, hash);
  tree_.InsertAt(rank, h);
}

void LeaderboardSet::Update(Handle h, double score, BoardStamp stamp) {
  // Always erase and reinsert: the group (score) changes, and with it the
  // distinct-score summary around both positions.
  RaiseNextSeq(stamp.seq + 1);
  tree_.EraseAt(RankOf(h));
  arena_.SetScore(h, score);
  WriteStamp(h, stamp);
  tree_.InsertAt(LowerRank(score, stamp.seq, arena_.Member(h)), h);
}

void LeaderboardSet::Remove(Handle h, uint64_t hash) {
  arena_tree::RemoveAt(&arena_, &tree_, &index_, RankOf(h), h, hash);
}

void LeaderboardSet::RemoveRankRange(uint64_t start, uint64_t stop) {
  arena_tree::RemoveRankRange(&arena_, &tree_, &index_, start, stop);
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
  return arena_tree::CheckInvariants(arena_, tree_, index_, [&](Handle h) -> const char* {
    const BoardStamp s = StampOf(h);
    if (s.seq >= next_seq_) return "stamp seq >= next_seq";
    if (!seqs.insert(s.seq).second) return "duplicate stamp seq";
    return nullptr;
  });
}

}  // namespace rankd
