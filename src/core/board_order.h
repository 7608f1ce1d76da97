// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The order of a leaderboard's records (core/leaderboard_set.h): ascending
// score, then the stamp's seq (descending when the policy's seq_desc()),
// then member bytes (only for equal seqs, which a board never holds). Shared
// by the live board and its stable view (core/board_snapshot.h), whose saved
// records live in an arena of their own with the same 16-byte stamp layout:
// seq (8) | ms (8) in the record's extra bytes.

#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/record_arena.h"

namespace rankd::board_order {

using Handle = RecordArena::Handle;

inline uint64_t SeqOf(const RecordArena& arena, Handle h) {
  uint64_t q;
  std::memcpy(&q, arena.Extra(h), sizeof q);
  return q;
}

// A record's order key, detached from its arena.
struct Key {
  double score;
  uint64_t seq;
  std::string_view member;
};

inline Key KeyOf(const RecordArena& arena, Handle h) {
  return {arena.Score(h), SeqOf(arena, h), arena.Member(h)};
}

// a < b in board order.
inline bool KeyLess(const Key& a, const Key& b, bool seq_desc) {
  if (a.score != b.score) return a.score < b.score;
  if (a.seq != b.seq) return seq_desc ? a.seq > b.seq : a.seq < b.seq;
  return a.member < b.member;
}

// The tree comparator over one arena's handles; groups are equal scores
// (dense ranks count them once).
struct StampLess {
  const RecordArena* arena;
  bool seq_desc;
  bool operator()(Handle a, Handle b) const {
    const double sa = arena->Score(a), sb = arena->Score(b);
    if (sa != sb) return sa < sb;  // the common case, without the stamps
    return KeyLess(KeyOf(*arena, a), KeyOf(*arena, b), seq_desc);
  }
  double HintOf(Handle h) const { return arena->Score(h); }
  bool SameGroup(Handle a, Handle b) const { return arena->Score(a) == arena->Score(b); }
};

// PartitionPoint predicate "x < key" in board order; a different score
// settles it from the inner-node hint alone.
struct BeforeKey {
  const RecordArena* arena;
  bool seq_desc;
  Key key;
  bool operator()(Handle x) const {
    const double s = arena->Score(x);
    if (s != key.score) return s < key.score;  // as StampLess
    return KeyLess(KeyOf(*arena, x), key, seq_desc);
  }
  int Decide(double hint) const { return hint == key.score ? -1 : hint < key.score; }
  void Prefetch(Handle x) const { arena->Prefetch(x); }
};

}  // namespace rankd::board_order
