// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/leaderboard_set.h"

#include <cassert>
#include <cstring>

#include "absl/container/flat_hash_set.h"

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
};

struct BelowScore {
  const RecordArena* arena;
  double bound;
  bool inclusive;
  bool operator()(Handle x) const { return Decide(arena->Score(x)) != 0; }
  int Decide(double s) const { return inclusive ? s <= bound : s < bound; }
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
  return tree_.PartitionPoint(BelowScore{&arena_, x, inclusive});
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
  tree_.EraseAt(RankOf(h));
  index_.Erase(h, hash);
  arena_.Free(h);
  MaybeCompact();
}

void LeaderboardSet::RemoveRankRange(uint64_t start, uint64_t stop) {
  assert(start <= stop && stop < size());
  for (uint64_t k = start; k <= stop; ++k) {
    Handle h = tree_.EraseAt(start);
    index_.Erase(h, MemberIndex::Hash(arena_.Member(h)));
    arena_.Free(h);
  }
  MaybeCompact();
}

void LeaderboardSet::MaybeCompact() {
  const size_t waste = arena_.waste_bytes();
  if (waste < 16384 || waste < arena_.live_bytes() / 2) return;
  // As TreeSet::MaybeCompact: swap first so the tree reads the new records.
  RecordArena old(kStampBytes);
  old.Swap(arena_);
  arena_.ReserveHint(old.live_bytes());
  tree_.MapValues([&](Handle h) {
    Handle to = arena_.Adopt(&old, h);
    old.SetForward(h, to);
    return to;
  });
  index_.MapHandles([&](Handle h) { return old.Forward(h); });
}

std::pair<std::string_view, double> LeaderboardSet::At(uint64_t rank) const {
  Handle h = tree_.At(rank);
  return {arena_.Member(h), arena_.Score(h)};
}

void LeaderboardSet::ForEachInRankRange(uint64_t start, uint64_t stop, bool reverse,
                                        ElementVisitor fn) const {
  assert(start <= stop && stop < size());
  Tree::Cursor c = tree_.Seek(reverse ? stop : start);
  for (uint64_t n = stop - start + 1; n > 0; --n) {
    fn(arena_.Member(c.value()), arena_.Score(c.value()));
    if (reverse) c.Prev(); else c.Next();
  }
}

uint64_t LeaderboardSet::Scan(uint64_t cursor, size_t count, ElementVisitor fn) const {
  return index_.Scan(cursor, count, [&](Handle h) { fn(arena_.Member(h), arena_.Score(h)); });
}

std::string LeaderboardSet::CheckInvariants() const {
  std::string err = tree_.CheckInvariants();
  if (err.empty()) err = index_.CheckInvariants();
  if (!err.empty()) return err;
  if (index_.size() != tree_.size()) return "tree and index sizes differ";
  absl::flat_hash_set<uint64_t> seqs;
  for (Tree::Cursor c = tree_.Seek(0); c.Valid(); c.Next()) {
    std::string_view m = arena_.Member(c.value());
    if (index_.Find(m, MemberIndex::Hash(m)) != c.value()) return "tree element missing from index";
    const BoardStamp s = StampOf(c.value());
    if (s.seq >= next_seq_) return "stamp seq >= next_seq";
    if (!seqs.insert(s.seq).second) return "duplicate stamp seq";
  }
  return "";
}

}  // namespace rankd
