// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/tree_set.h"

#include <cassert>

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

// "x < (score, member)": a different score settles it from the hint alone.
struct BeforeElement {
  const RecordArena* arena;
  double score;
  std::string_view member;
  bool operator()(RecordArena::Handle x) const {
    return ElementLess(arena->Score(x), arena->Member(x), score, member);
  }
  int Decide(double hint) const { return hint == score ? -1 : hint < score; }
};

// "score(x) < bound" or "score(x) <= bound": the hint always settles it.
struct BelowScore {
  const RecordArena* arena;
  double bound;
  bool inclusive;
  bool operator()(RecordArena::Handle x) const { return Decide(arena->Score(x)) != 0; }
  int Decide(double s) const { return inclusive ? s <= bound : s < bound; }
};

}  // namespace

uint64_t TreeSet::LowerRank(double score, std::string_view member) const {
  return tree_.PartitionPoint(BeforeElement{&arena_, score, member});
}

uint64_t TreeSet::CountScoreBelow(double x, bool inclusive) const {
  return tree_.PartitionPoint(BelowScore{&arena_, x, inclusive});
}

uint64_t TreeSet::RankOf(Handle h) const {
  // Inner nodes decide by cached scores; the leaf is scanned for h itself.
  return tree_.RankOfPresent(BeforeElement{&arena_, arena_.Score(h), arena_.Member(h)}, h);
}

void TreeSet::Insert(std::string_view member, uint64_t hash, double score) {
  uint64_t rank = LowerRank(score, member);
  Handle h = arena_.New(member, score);
  index_.Insert(h, hash);
  tree_.InsertAt(rank, h);
}

void TreeSet::Append(std::string_view member, double score) {
  Handle h = arena_.New(member, score);
  index_.Insert(h, MemberIndex::Hash(member));
  tree_.InsertAt(tree_.size(), h);
}

void TreeSet::UpdateScore(Handle h, double score) {
  const std::string_view member = arena_.Member(h);
  const uint64_t rank = RankOf(h);
  // Keep the position if the new score leaves the order intact (small
  // ZINCRBY steps): no tree change at all, separators stay valid.
  Tree::Cursor prev = tree_.Seek(rank), next = prev;
  assert(prev.value() == h);
  prev.Prev();
  next.Next();
  bool after_prev = !prev.Valid() || ElementLess(arena_.Score(prev.value()),
                                                 arena_.Member(prev.value()), score, member);
  bool before_next = !next.Valid() || ElementLess(score, member, arena_.Score(next.value()),
                                                  arena_.Member(next.value()));
  if (after_prev && before_next) {
    arena_.SetScore(h, score);
    tree_.RefreshHint(rank);  // h may be a separator whose cached score changed
    return;
  }
  tree_.EraseAt(rank);
  arena_.SetScore(h, score);
  tree_.InsertAt(LowerRank(score, member), h);
}

void TreeSet::Remove(Handle h, uint64_t hash) {
  tree_.EraseAt(RankOf(h));
  index_.Erase(h, hash);
  arena_.Free(h);
  MaybeCompact();
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
  for (uint64_t k = start; k <= stop; ++k) {
    Handle h = tree_.EraseAt(start);
    index_.Erase(h, MemberIndex::Hash(arena_.Member(h)));
    arena_.Free(h);
  }
  MaybeCompact();
}

void TreeSet::MaybeCompact() {
  const size_t waste = arena_.waste_bytes();
  if (waste < 16384 || waste < arena_.live_bytes() / 2) return;
  // Swap first: the tree and index resolve handles through arena_, and
  // MapValues re-reads separator hints from the new records.
  RecordArena old;
  old.Swap(arena_);
  arena_.ReserveHint(old.live_bytes());
  // Order and members are unchanged, so the tree and index stay valid once
  // their handles are rewritten.
  tree_.MapValues([&](Handle h) {
    Handle to = arena_.Adopt(&old, h);
    old.SetForward(h, to);
    return to;
  });
  index_.MapHandles([&](Handle h) { return old.Forward(h); });
}

std::pair<std::string_view, double> TreeSet::At(uint64_t rank) const {
  Handle h = tree_.At(rank);
  return {arena_.Member(h), arena_.Score(h)};
}

void TreeSet::ForEachInRankRange(uint64_t start, uint64_t stop, bool reverse,
                                 ElementVisitor fn) const {
  assert(start <= stop && stop < size());
  Tree::Cursor c = tree_.Seek(reverse ? stop : start);
  for (uint64_t n = stop - start + 1; n > 0; --n) {
    Handle h = c.value();
    fn(arena_.Member(h), arena_.Score(h));
    if (reverse) c.Prev(); else c.Next();
  }
}

uint64_t TreeSet::Scan(uint64_t cursor, size_t count, ElementVisitor fn) const {
  return index_.Scan(cursor, count, [&](Handle h) { fn(arena_.Member(h), arena_.Score(h)); });
}

std::string TreeSet::CheckInvariants() const {
  std::string err = tree_.CheckInvariants();
  if (err.empty()) err = index_.CheckInvariants();
  if (!err.empty()) return err;
  if (index_.size() != tree_.size()) return "tree and index sizes differ";
  for (Tree::Cursor c = tree_.Seek(0); c.Valid(); c.Next()) {
    std::string_view m = arena_.Member(c.value());
    if (index_.Find(m, MemberIndex::Hash(m)) != c.value()) return "tree element missing from index";
    if (arena_.Score(c.value()) != arena_.Score(c.value())) return "NaN score stored";
  }
  return "";
}

}  // namespace rankd
