// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/board_snapshot.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <vector>

#include "core/arena_tree_ops.h"
#include "core/leaderboard_set.h"

namespace rankd {
namespace {

using board_order::BeforeKey;
using Handle = RecordArena::Handle;
using board_order::Key;
using board_order::KeyLess;

// The smallest x in [lo, hi) with pred(x), or hi. REQUIRES: pred monotone.
template <typename Pred>
uint64_t FirstTrue(uint64_t lo, uint64_t hi, Pred pred) {
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

BoardStamp StampIn(const RecordArena& arena, Handle h) {
  BoardStamp s;
  std::memcpy(&s.seq, arena.Extra(h), sizeof s.seq);
  std::memcpy(&s.ms, arena.Extra(h) + sizeof s.seq, sizeof s.ms);
  return s;
}

}  // namespace

BoardSnapshot::BoardSnapshot(const LeaderboardSet& live, int64_t taken_ms)
    : live_(live),
      seq_desc_(live.policy().seq_desc()),
      taken_ms_(taken_ms),
      size_(live.size()),
      next_seq_(live.next_seq()),
      old_(board_order::StampLess{&saved_, seq_desc_}),
      moved_(board_order::StampLess{&live.arena_, seq_desc_}) {}

BoardSnapshot::~BoardSnapshot() = default;

void BoardSnapshot::BeforeInsert(std::string_view member, uint64_t hash) {
  if (saved_index_.Find(member, hash) != RecordArena::kNoHandle) return;
  const Handle s = saved_.New(member, 0);
  std::memset(saved_.Extra(s), 0, 16);  // seq 0: absent at the snapshot
  saved_index_.Insert(s, hash);
}

void BoardSnapshot::BeforeLeave(Handle h) {
  const RecordArena& la = live_.arena_;
  if (moved_set_.erase(h) > 0) {
    const uint64_t r = moved_.PartitionPoint(BeforeKey{&la, seq_desc_, board_order::KeyOf(la, h)});
    assert(r < moved_.size() && moved_.At(r) == h);
    moved_.EraseAt(r);
  } else {
    // Invariant: a live record outside M is as it was at the snapshot.
    const std::string_view m = la.Member(h);
    const Handle s = saved_.New(m, la.Score(h));
    std::memcpy(saved_.Extra(s), la.Extra(h), 16);
    saved_index_.Insert(s, MemberIndex::Hash(m));
    old_.Insert(s);
  }
  TouchScore(la.Score(h), -1, 0);
}

void BoardSnapshot::AfterEnter(Handle h) {
  moved_set_.insert(h);
  moved_.Insert(h);
  TouchScore(live_.arena_.Score(h), +1, 1);
}

void BoardSnapshot::TouchScore(double score, int64_t delta, uint64_t live_adjust) {
  const double s = score + 0.0;  // -0.0 and 0.0 are one score
  auto [it, fresh] = scores_.try_emplace(s);
  if (fresh) {
    // Untouched so far, so the live tree holds at s what V holds (minus
    // the record this change has already inserted).
    const uint64_t n =
        live_.CountScoreBelow(s, true) - live_.CountScoreBelow(s, false) - live_adjust;
    it->second = {n > 0, n};
  }
  ScoreState& st = it->second;
  const bool was_plus = st.in_view && st.live == 0, was_minus = !st.in_view && st.live > 0;
  st.live = static_cast<uint64_t>(static_cast<int64_t>(st.live) + delta);
  const bool now_plus = st.in_view && st.live == 0, now_minus = !st.in_view && st.live > 0;
  if (was_plus != now_plus) SetIn(plus_, s, now_plus);
  if (was_minus != now_minus) SetIn(minus_, s, now_minus);
}

void BoardSnapshot::SetIn(ScoreTree& t, double s, bool in) {
  const uint64_t pos = t.PartitionPoint([&](double x) { return x < s; });
  if (in) {
    t.InsertAt(pos, s);
  } else {
    assert(pos < t.size() && t.At(pos) == s);
    t.EraseAt(pos);
  }
}

void BoardSnapshot::BeforeMetaChange(std::string_view member, const std::string* meta) {
  if (saved_meta_.contains(member)) return;
  std::optional<std::string> copy;
  if (meta) copy.emplace(*meta);
  saved_meta_bytes_ += member.size() + (meta ? meta->size() : 0);
  saved_meta_.emplace(std::string(member), std::move(copy));
}

void BoardSnapshot::MapHandles(absl::FunctionRef<Handle(Handle)> forward) {
  moved_.MapValues([&](Handle h) { return forward(h); });
  absl::flat_hash_set<Handle> mapped;
  mapped.reserve(moved_set_.size());
  for (Handle h : moved_set_) mapped.insert(forward(h));
  moved_set_.swap(mapped);
}

size_t BoardSnapshot::MemoryUsage() const {
  return sizeof(*this) + saved_.MemoryUsage() + saved_index_.MemoryUsage() + old_.MemoryUsage() +
         moved_.MemoryUsage() + moved_set_.capacity() * (sizeof(Handle) + 1) +
         scores_.capacity() * (sizeof(std::pair<double, ScoreState>) + 1) + plus_.MemoryUsage() +
         minus_.MemoryUsage() + saved_meta_bytes_ + saved_meta_.size() * 80;
}

Key BoardSnapshot::KeyOfRef(Ref r) const {
  return board_order::KeyOf(r.saved ? saved_ : live_.arena_, r.h);
}

BoardSnapshot::Entry BoardSnapshot::EntryOf(Ref r) const {
  const RecordArena& a = r.saved ? saved_ : live_.arena_;
  return {a.Member(r.h), a.Score(r.h), StampIn(a, r.h)};
}

uint64_t BoardSnapshot::LiveBefore(const Key& k) const { return live_.CountBefore(k); }

uint64_t BoardSnapshot::CountBefore(const Key& k) const {
  return LiveBefore(k) - moved_.PartitionPoint(BeforeKey{&live_.arena_, seq_desc_, k}) +
         old_.PartitionPoint(BeforeKey{&saved_, seq_desc_, k});
}

std::optional<BoardSnapshot::Entry> BoardSnapshot::Find(std::string_view member) const {
  const uint64_t hash = MemberIndex::Hash(member);
  if (Handle s = saved_index_.Find(member, hash); s != RecordArena::kNoHandle) {
    if (board_order::SeqOf(saved_, s) == 0) return std::nullopt;
    return EntryOf({true, s});
  }
  // Unchanged since the snapshot: as the live board has it.
  const Handle h = live_.index_.Find(member, hash);
  if (h == RecordArena::kNoHandle) return std::nullopt;
  return EntryOf({false, h});
}

std::optional<uint64_t> BoardSnapshot::Rank(std::string_view member) const {
  std::optional<Entry> e = Find(member);
  if (!e) return std::nullopt;
  return CountBefore({e->score, e->stamp.seq, e->member});
}

uint64_t BoardSnapshot::CountScoreBelow(double x, bool inclusive) const {
  return live_.CountScoreBelow(x, inclusive) -
         moved_.PartitionPoint(arena_tree::BelowScore{&live_.arena_, x, inclusive}) +
         old_.PartitionPoint(arena_tree::BelowScore{&saved_, x, inclusive});
}

BoardSnapshot::Entry BoardSnapshot::At(uint64_t r) const {
  assert(r < size_);
  const uint64_t n = live_.size(), m = moved_.size(), o = old_.size();
  if (m == 0 && o == 0) return EntryOf({false, live_.tree_.At(r)});
  // g(i) = |V <= A[i]|, counting A[i] itself when it is in V (not in M).
  // The r-th record of V is A[i] for the first i with g(i) > r if A[i] is
  // in V and exactly r records of V precede it; otherwise it is in O.
  // Since i - m <= |V < A[i]| <= i + o, that i lies in [r - o, r + m + 1].
  auto below = [&](uint64_t i, Handle h) {
    const Key k = board_order::KeyOf(live_.arena_, h);
    return i - moved_.PartitionPoint(BeforeKey{&live_.arena_, seq_desc_, k}) +
           old_.PartitionPoint(BeforeKey{&saved_, seq_desc_, k});
  };
  const uint64_t lo = r > o ? r - o : 0, hi = std::min(n, r + m + 1);
  const uint64_t i = FirstTrue(lo, hi, [&](uint64_t i) {
    const Handle h = live_.tree_.At(i);
    return below(i, h) + (moved_set_.contains(h) ? 0 : 1) > r;
  });
  if (i < n) {
    const Handle h = live_.tree_.At(i);
    if (!moved_set_.contains(h) && below(i, h) == r) return EntryOf({false, h});
  }
  const uint64_t j = FirstTrue(0, o, [&](uint64_t j) {
    return CountBefore(KeyOfRef({true, old_.At(j)})) >= r;
  });
  assert(j < o && CountBefore(KeyOfRef({true, old_.At(j)})) == r);
  return EntryOf({true, old_.At(j)});
}

void BoardSnapshot::ForEachInRankRange(uint64_t start, uint64_t stop, bool reverse,
                                       absl::FunctionRef<void(const Entry&)> fn) const {
  assert(start <= stop && stop < size_);
  const Entry first = At(start);
  const Key k{first.score, first.stamp.seq, first.member};
  // Merge L (skipping M) and O from the first record on.
  auto lc = live_.tree_.Seek(LiveBefore(k));
  auto oc = old_.Seek(old_.PartitionPoint(BeforeKey{&saved_, seq_desc_, k}));
  auto skip_moved = [&] {
    while (lc.Valid() && moved_set_.contains(lc.value())) lc.Next();
  };
  std::vector<Entry> rows;
  if (reverse) rows.reserve(stop - start + 1);
  for (uint64_t left = stop - start + 1; left > 0; --left) {
    skip_moved();
    Ref r;
    if (!oc.Valid()) {
      r = {false, lc.value()};
    } else if (!lc.Valid()) {
      r = {true, oc.value()};
    } else {
      const bool live_first = KeyLess(board_order::KeyOf(live_.arena_, lc.value()),
                                      board_order::KeyOf(saved_, oc.value()), seq_desc_);
      r = live_first ? Ref{false, lc.value()} : Ref{true, oc.value()};
    }
    if (r.saved) oc.Next(); else lc.Next();
    if (reverse) rows.push_back(EntryOf(r));
    else fn(EntryOf(r));
  }
  for (auto it = rows.rbegin(); it != rows.rend(); ++it) fn(*it);
}

uint64_t BoardSnapshot::Distinct() const {
  return live_.distinct() + plus_.size() - minus_.size();
}

uint64_t BoardSnapshot::DistinctBelow(double x, bool inclusive) const {
  auto below = [&](double v) { return inclusive ? v <= x : v < x; };
  return live_.DistinctBefore(live_.CountScoreBelow(x, inclusive)) + plus_.PartitionPoint(below) -
         minus_.PartitionPoint(below);
}

double BoardSnapshot::DistinctScore(uint64_t k) const {
  assert(k < Distinct());
  // The same search as At over distinct scores: A = the live board's,
  // M = minus_ (in A, not in V), P = plus_ (in V, not in A).
  const uint64_t d = live_.distinct(), m = minus_.size(), p = plus_.size();
  auto live_score = [&](uint64_t g) { return live_.arena_.Score(live_.tree_.At(live_.DistinctStart(g))); };
  auto in_minus = [&](double s) {
    auto it = scores_.find(s + 0.0);
    return it != scores_.end() && !it->second.in_view && it->second.live > 0;
  };
  auto below = [&](uint64_t g, double s) {
    return g - minus_.PartitionPoint([&](double v) { return v < s; }) +
           plus_.PartitionPoint([&](double v) { return v < s; });
  };
  const uint64_t lo = k > p ? k - p : 0, hi = std::min(d, k + m + 1);
  const uint64_t g = FirstTrue(lo, hi, [&](uint64_t g) {
    const double s = live_score(g);
    return below(g, s) + (in_minus(s) ? 0 : 1) > k;
  });
  if (g < d) {
    const double s = live_score(g);
    if (!in_minus(s) && below(g, s) == k) return s;
  }
  auto rank = [&](double s) { return DistinctBelow(s, false); };
  const uint64_t j = FirstTrue(0, p, [&](uint64_t j) { return rank(plus_.At(j)) >= k; });
  assert(j < p && rank(plus_.At(j)) == k);
  return plus_.At(j);
}

std::optional<std::string_view> BoardSnapshot::Meta(std::string_view member,
                                                    std::optional<std::string_view> live) const {
  auto it = saved_meta_.find(member);
  if (it == saved_meta_.end()) return live;
  if (!it->second) return std::nullopt;
  return std::string_view(*it->second);
}

std::string BoardSnapshot::CheckInvariants() const {
  if (std::string e = old_.CheckInvariants(); !e.empty()) return "view O: " + e;
  if (std::string e = moved_.CheckInvariants(); !e.empty()) return "view M: " + e;
  if (moved_set_.size() != moved_.size()) return "view M set and tree differ";
  if (live_.size() - moved_.size() + old_.size() != size_) return "view size drifted";
  for (auto c = moved_.Seek(0); c.Valid(); c.Next()) {
    const std::string_view m = live_.arena_.Member(c.value());
    if (live_.index_.Find(m, MemberIndex::Hash(m)) != c.value()) return "view M not live";
    if (saved_index_.Find(m, MemberIndex::Hash(m)) == RecordArena::kNoHandle) {
      return "view M member not saved";
    }
  }
  if (plus_.CheckInvariants() != "" || minus_.CheckInvariants() != "") return "view scores";
  return "";
}

}  // namespace rankd
