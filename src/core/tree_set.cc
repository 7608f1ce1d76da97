// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/tree_set.h"

#include <cassert>

#include "core/arena_tree_ops.h"

namespace rankd {

TreeSet::TreeSet(size_t expected_size, size_t expected_bytes) {
  if (expected_size > 0) {
    index_.Reserve(expected_size);
    arena_.ReserveHint(expected_size * RecordArena::RecordSize(0) + expected_bytes);
  }
}

size_t TreeSet::MemoryUsage() const {
  return sizeof(*this) + arena_.MemoryUsage() + tree_.MemoryUsage() + index_.MemoryUsage();
}

namespace {

// "x < (score, member)", or "x <= (score, member)" if `inclusive` (that
// search lands in the leaf holding an element equal to it). A different
// score settles it from the hint alone, and member bytes are read only on
// a score tie.
struct ElementBound {
  const RecordArena* arena;
  double score;
  std::string_view member;
  bool inclusive = false;
  bool operator()(RecordArena::Handle x) const {
    const double s = arena->Score(x);
    if (s != score) return s < score;
    const std::string_view m = arena->Member(x);
    return inclusive ? m <= member : m < member;
  }
  int Decide(double hint) const { return hint == score ? -1 : hint < score; }
  double Target() const { return score; }
  void Prefetch(RecordArena::Handle x) const { arena->Prefetch(x); }
};

}  // namespace

uint64_t TreeSet::CountScoreBelow(double x, bool inclusive) const {
  return tree_.PartitionPoint(arena_tree::BelowScore{&arena_, x, inclusive});
}

uint64_t TreeSet::RankOf(Handle h) const {
  // Inner nodes decide by cached scores; the leaf is scanned for h itself.
  return tree_.RankOfPresent(ElementBound{&arena_, arena_.Score(h), arena_.Member(h)}, h);
}

void TreeSet::Insert(std::string_view member, uint64_t hash, double score) {
  Handle h = arena_.New(member, score);
  index_.Insert(h, hash);
  tree_.InsertWhere(ElementBound{&arena_, score, member}, h);
}

void TreeSet::Append(std::string_view member, double score) {
  Handle h = arena_.New(member, score);
  index_.Insert(h, MemberIndex::Hash(member));
  tree_.InsertAt(tree_.size(), h);
}

void TreeSet::UpdateScore(Handle h, double score) {
  const std::string_view member = arena_.Member(h);
  // The old place and the new one, searched together, both paths kept.
  Tree::Relocation r;
  tree_.LocateAndPartition(ElementBound{&arena_, arena_.Score(h), member, true}, h,
                           ElementBound{&arena_, score, member}, &r);
  if (r.direct()) {  // same leaf, or neither leaf needs rebalancing
    arena_.SetScore(h, score);  // before Move: it may make h a separator
    tree_.Move(r);
    return;
  }
  tree_.EraseAt(r.from);  // positional; separators re-read the old score
  arena_.SetScore(h, score);
  tree_.InsertAt(r.final_rank(), h);
}

void TreeSet::Remove(Handle h, uint64_t hash) {
  arena_tree::RemoveAt(&arena_, &tree_, &index_, RankOf(h), h, hash);
}

void TreeSet::RemoveRankRange(uint64_t start, uint64_t stop) {
  assert(start <= stop && stop < size());
  if (start == 0 && stop + 1 == size()) {  // everything: no per-element work
    tree_.Clear();
    index_.Clear();
    RecordArena empty;
    arena_.Swap(empty);
    return;
  }
  arena_tree::RemoveRankRange(&arena_, &tree_, &index_, start, stop);
}

std::pair<std::string_view, double> TreeSet::At(uint64_t rank) const {
  return arena_tree::At(arena_, tree_, rank);
}

void TreeSet::ForEachInRankRange(uint64_t start, uint64_t stop, bool reverse,
                                 ElementVisitor fn) const {
  arena_tree::ForEachInRankRange(arena_, tree_, start, stop, reverse, fn);
}

uint64_t TreeSet::Scan(uint64_t cursor, size_t count, ElementVisitor fn) const {
  return arena_tree::Scan(arena_, index_, cursor, count, fn);
}

std::string TreeSet::CheckInvariants() const {
  return arena_tree::CheckInvariants(arena_, tree_, index_, [&](Handle h) -> const char* {
    return arena_.Score(h) != arena_.Score(h) ? "NaN score stored" : nullptr;
  });
}

}  // namespace rankd
