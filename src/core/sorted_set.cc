// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SortedSet dispatches each call to the one encoding in use: CompactSet
// while the set is small, TreeSet after it outgrows the limits, or a
// LeaderboardSet for a board. Conversion happens only when a new member is
// added (as Redis's zsetAdd) or when ShrinkIfFits is called. The board,
// member-expiry, metadata and periodic methods are in sorted_set_side.cc.

#include "core/sorted_set.h"

#include <cassert>
#include <cmath>
#include <utility>

#include "base/clock.h"
#include "core/board_snapshot.h"
#include "core/sorted_set_rare.h"

namespace rankd {

// ---- Representation ----

SortedSet::SortedSet(SortedSet&& o) noexcept {
  if (o.is_rare()) {
    std::memcpy(rep_, o.rep_, sizeof(rep_));
    new (o.rep_) CompactSet();
  } else {
    new (rep_) CompactSet(std::move(o.small()));
  }
}

SortedSet& SortedSet::operator=(SortedSet&& o) noexcept {
  if (this != &o) {
    Destroy();
    new (this) SortedSet(std::move(o));
  }
  return *this;
}

SortedSet::~SortedSet() { Destroy(); }

void SortedSet::Destroy() {
  if (is_rare()) {
    delete rare();
  } else {
    small().~CompactSet();
  }
}

CompactSet& SortedSet::compact() { return is_rare() ? rare()->compact : small(); }
const CompactSet& SortedSet::compact() const { return is_rare() ? rare()->compact : small(); }
TreeSet* SortedSet::tree() const { return is_rare() ? rare()->tree.get() : nullptr; }
LeaderboardSet* SortedSet::lb() const { return is_rare() ? rare()->board.get() : nullptr; }
MemberTtl* SortedSet::ttl() const { return is_rare() ? rare()->ttl.get() : nullptr; }

SortedSet::Rare& SortedSet::MakeRare() {
  if (is_rare()) return *rare();
  auto* r = new Rare();
  r->compact = std::move(small());
  small().~CompactSet();
  const uintptr_t w = reinterpret_cast<uintptr_t>(r) | kRareBit;
  std::memcpy(rep_, &w, sizeof(w));
  return *r;
}

void SortedSet::MaybeDemote() {
  if (!is_rare() || rare()->needed()) return;
  Rare* r = rare();
  new (rep_) CompactSet(std::move(r->compact));
  delete r;
}

namespace {

using Kind = AddResult::Kind;

// ZADD's decision for a member already present with score `cur` (Redis
// zsetAdd: NX first, then INCR and its NaN check, then GT/LT).
AddResult DecideExisting(double cur, double score, const AddOptions& o) {
  if (o.nx) return {Kind::kSkipped, cur};
  double next = o.incr ? cur + score : score;
  if (std::isnan(next)) return {Kind::kNaN, cur};
  if ((o.lt && next >= cur) || (o.gt && next <= cur)) return {Kind::kSkipped, cur};
  if (next == cur) return {Kind::kUnchanged, cur};  // also -0.0 vs 0.0: keeps the stored bits
  return {Kind::kUpdated, next};
}

std::unique_ptr<TreeSet> BuildTree(const CompactSet& c, size_t extra) {
  auto tree = std::make_unique<TreeSet>(c.size() + extra, c.MemoryUsage());
  if (c.size() > 0) {
    c.ForEachInRankRange(0, c.size() - 1, false,
                         [&](std::string_view m, double s) { tree->Append(m, s); });
  }
  return tree;
}

template <typename Pred>
uint64_t CountWhile(const CompactSet& compact, const TreeSet* tree, const LeaderboardSet* board,
                    Pred pred) {
  if (board) return board->CountWhile(pred);
  return tree ? tree->CountWhile(pred) : compact.CountWhile(pred);
}

}  // namespace


SortedSet::SortedSet(const SortedSetLimits& limits, size_t hint_size, size_t hint_max_len) {
  new (rep_) CompactSet();
  if (limits.max_compact_entries == 0 || hint_size > limits.max_compact_entries ||
      hint_max_len > limits.max_compact_value) {
    MakeRare().tree = std::make_unique<TreeSet>(hint_size, 0);
  }
}

std::unique_ptr<SortedSet> SortedSet::NewBoard(BoardPolicy policy, size_t expected_size) {
  auto z = std::make_unique<SortedSet>(SortedSetLimits{});
  z->MakeRare().board = std::make_unique<LeaderboardSet>(policy, expected_size);
  return z;
}

std::unique_ptr<SortedSet> SortedSet::Clone() const {
  if (const LeaderboardSet* b = lb()) {
    auto copy = NewBoard(b->policy(), b->size());
    LeaderboardSet& dst = *copy->lb();
    // Ascending order: appending keeps every insert at the tree's end.
    b->ForEachStamped([&](std::string_view m, double s, BoardStamp st) {
      dst.Insert(m, MemberIndex::Hash(m), s, st);
    });
    dst.RaiseNextSeq(b->next_seq());
    CopySideTables(*copy);
    if (rare()->periodic) copy->rare()->periodic = rare()->periodic->Clone();
    copy->rare()->snapshot_every_ms = rare()->snapshot_every_ms;
    return copy;
  }
  auto copy = std::make_unique<SortedSet>(SortedSetLimits{});
  if (const TreeSet* src = tree()) {
    auto t = std::make_unique<TreeSet>(src->size(), 0);
    if (src->size() > 0) {
      src->ForEachInRankRange(0, src->size() - 1, false,
                              [&](std::string_view m, double s) { t->Append(m, s); });
    }
    copy->MakeRare().tree = std::move(t);
  } else {
    copy->small() = CompactSet(compact());
  }
  CopySideTables(*copy);
  return copy;
}

size_t SortedSet::size() const {
  if (const LeaderboardSet* b = lb()) return b->size();
  const TreeSet* t = tree();
  return t ? t->size() : compact().size();
}

SortedSet::Encoding SortedSet::encoding() const {
  return tree() || lb() ? Encoding::kTree : Encoding::kCompact;
}

size_t SortedSet::MemoryUsage() const {
  if (!is_rare()) return sizeof(SortedSet) + small().MemoryUsage();
  const Rare& r = *rare();
  // Side tables: deadlines, and metadata (bytes plus ~48 per entry).
  const size_t side = sizeof(SortedSet) + sizeof(Rare) + (r.ttl ? r.ttl->MemoryUsage() : 0) +
                      r.meta_bytes + MembersWithMeta() * (2 * sizeof(std::string) + 16) +
                      (r.periodic ? r.periodic->MemoryUsage() : 0);
  if (r.board) return side + r.board->MemoryUsage();
  return side + (r.tree ? r.tree->MemoryUsage() : r.compact.MemoryUsage());
}

AddResult SortedSet::Add(std::string_view member, double score, const AddOptions& opts,
                         const SortedSetLimits& limits) {
  return Add(member, score, opts, limits, lb() ? WallMs() : 0);
}

AddResult SortedSet::Add(std::string_view member, double score, const AddOptions& opts,
                         const SortedSetLimits& limits, int64_t now_ms) {
  assert(!std::isnan(score));
  if (LeaderboardSet* b = lb()) {
    const uint64_t hash = MemberIndex::Hash(member);
    const LeaderboardSet::Handle h = b->Find(member, hash);
    if (h != RecordArena::kNoHandle) {
      AddResult r = DecideExisting(b->ScoreOf(h), score, opts);
      if (r.kind == Kind::kUpdated) b->Update(h, r.score, b->NewStamp(now_ms));
      return r;
    }
    if (opts.xx) return {Kind::kSkipped, score};
    b->Insert(member, hash, score, b->NewStamp(now_ms));
    return {Kind::kAdded, score};
  }
  if (TreeSet* t = tree()) {
    const uint64_t hash = MemberIndex::Hash(member);
    const TreeSet::Handle h = t->Find(member, hash);
    if (h != RecordArena::kNoHandle) {
      AddResult r = DecideExisting(t->ScoreOf(h), score, opts);
      if (r.kind == Kind::kUpdated) t->UpdateScore(h, r.score);
      return r;
    }
    if (opts.xx) return {Kind::kSkipped, score};
    t->Insert(member, hash, score);
    return {Kind::kAdded, score};
  }
  CompactSet& c = compact();
  if (auto found = c.Find(member)) {
    AddResult r = DecideExisting(found->first.score, score, opts);
    if (r.kind == Kind::kUpdated) c.UpdateScore(found->first, r.score);
    return r;
  }
  if (opts.xx) return {Kind::kSkipped, score};
  if (c.size() + 1 > limits.max_compact_entries || member.size() > limits.max_compact_value) {
    // Insert before dropping the compact buffer: `member` may point into it.
    std::unique_ptr<TreeSet> t = BuildTree(c, 1);
    t->Insert(member, MemberIndex::Hash(member), score);
    Rare& r = MakeRare();
    r.tree = std::move(t);
    r.compact = CompactSet();
  } else {
    c.Insert(member, score);
  }
  return {Kind::kAdded, score};
}

bool SortedSet::Remove(std::string_view member) {
  if (is_rare()) {
    Rare& r = *rare();
    if (r.ttl) {
      r.ttl->Erase(member);
      if (r.ttl->empty()) r.ttl.reset();
    }
    r.EraseMeta(member);
    if (LeaderboardSet* b = r.board.get()) {
      const uint64_t hash = MemberIndex::Hash(member);
      const LeaderboardSet::Handle h = b->Find(member, hash);
      if (h == RecordArena::kNoHandle) return false;
      b->Remove(h, hash);
      return true;
    }
    if (TreeSet* t = r.tree.get()) {
      const uint64_t hash = MemberIndex::Hash(member);
      const TreeSet::Handle h = t->Find(member, hash);
      if (h == RecordArena::kNoHandle) return false;
      t->Remove(h, hash);
      return true;
    }
  }
  CompactSet& c = compact();
  auto found = c.Find(member);
  const bool removed = found.has_value();
  if (removed) c.Erase(found->first);
  MaybeDemote();  // the member's deadline or metadata may have been the last
  return removed;
}

void SortedSet::PrefetchMember(std::string_view member, int step) const {
  if (const TreeSet* t = tree(); t && !lb()) {
    t->PrefetchMember(MemberIndex::Hash(member), member.size(), step);
  }
}

std::optional<double> SortedSet::Score(std::string_view member) const {
  if (const LeaderboardSet* b = lb()) {
    LeaderboardSet::Handle h = b->Find(member, MemberIndex::Hash(member));
    if (h == RecordArena::kNoHandle) return std::nullopt;
    return b->ScoreOf(h);
  }
  if (const TreeSet* t = tree()) {
    TreeSet::Handle h = t->Find(member, MemberIndex::Hash(member));
    if (h == RecordArena::kNoHandle) return std::nullopt;
    return t->ScoreOf(h);
  }
  auto found = compact().Find(member);
  if (!found) return std::nullopt;
  return found->first.score;
}

std::optional<uint64_t> SortedSet::Rank(std::string_view member) const {
  if (const LeaderboardSet* b = lb()) {
    LeaderboardSet::Handle h = b->Find(member, MemberIndex::Hash(member));
    if (h == RecordArena::kNoHandle) return std::nullopt;
    return b->RankOf(h);
  }
  if (const TreeSet* t = tree()) {
    TreeSet::Handle h = t->Find(member, MemberIndex::Hash(member));
    if (h == RecordArena::kNoHandle) return std::nullopt;
    return t->RankOf(h);
  }
  auto found = compact().Find(member);
  if (!found) return std::nullopt;
  return found->second;
}

uint64_t SortedSet::ScoreLowerRank(double min, bool exclusive) const {
  if (const LeaderboardSet* b = lb()) return b->CountScoreBelow(min, exclusive);
  if (const TreeSet* t = tree()) return t->CountScoreBelow(min, exclusive);
  return compact().CountWhile(
      [&](double s, std::string_view) { return exclusive ? s <= min : s < min; });
}

uint64_t SortedSet::ScoreUpperRank(double max, bool exclusive) const {
  if (const LeaderboardSet* b = lb()) return b->CountScoreBelow(max, !exclusive);
  if (const TreeSet* t = tree()) return t->CountScoreBelow(max, !exclusive);
  return compact().CountWhile(
      [&](double s, std::string_view) { return exclusive ? s < max : s <= max; });
}

uint64_t SortedSet::LexLowerRank(const LexBound& min) const {
  switch (min.kind) {
    case LexBound::Kind::kMinusInf: return 0;
    case LexBound::Kind::kPlusInf: return size();
    default: break;
  }
  const bool exclusive = min.kind == LexBound::Kind::kExclusive;
  return CountWhile(compact(), tree(), lb(), [&](double, std::string_view m) {
    return exclusive ? m <= min.value : m < min.value;
  });
}

uint64_t SortedSet::LexUpperRank(const LexBound& max) const {
  switch (max.kind) {
    case LexBound::Kind::kMinusInf: return 0;
    case LexBound::Kind::kPlusInf: return size();
    default: break;
  }
  const bool exclusive = max.kind == LexBound::Kind::kExclusive;
  return CountWhile(compact(), tree(), lb(), [&](double, std::string_view m) {
    return exclusive ? m < max.value : m <= max.value;
  });
}

void SortedSet::ForEachInRankRange(uint64_t start, uint64_t stop, bool reverse,
                                   Visitor fn) const {
  assert(start <= stop && stop < size());
  if (const LeaderboardSet* b = lb()) return b->ForEachInRankRange(start, stop, reverse, fn);
  if (const TreeSet* t = tree()) return t->ForEachInRankRange(start, stop, reverse, fn);
  compact().ForEachInRankRange(start, stop, reverse, fn);
}

std::pair<std::string_view, double> SortedSet::At(uint64_t rank) const {
  assert(rank < size());
  if (const LeaderboardSet* b = lb()) return b->At(rank);
  if (const TreeSet* t = tree()) return t->At(rank);
  CompactSet::Entry e = compact().At(rank);
  return {e.member, e.score};
}

uint64_t SortedSet::RemoveRankRange(uint64_t start, uint64_t stop) {
  assert(start <= stop && stop < size());
  if (is_rare()) {
    Rare& r = *rare();
    if (MemberTtl* t = r.ttl.get()) {
      ForEachInRankRange(start, stop, false, [&](std::string_view m, double) { t->Erase(m); });
      if (t->empty()) r.ttl.reset();
    }
    if (r.meta) {
      ForEachInRankRange(start, stop, false, [&](std::string_view m, double) { r.EraseMeta(m); });
    }
  }
  if (LeaderboardSet* b = lb()) {
    b->RemoveRankRange(start, stop);
  } else if (TreeSet* t = tree()) {
    t->RemoveRankRange(start, stop);
  } else {
    compact().EraseRankRange(start, stop);
  }
  MaybeDemote();
  return stop - start + 1;
}

uint64_t SortedSet::Scan(uint64_t cursor, size_t count, Visitor fn) const {
  if (const LeaderboardSet* b = lb()) return b->Scan(cursor, count, fn);
  if (const TreeSet* t = tree()) return t->Scan(cursor, count, fn);
  if (!empty()) compact().ForEachInRankRange(0, size() - 1, false, fn);
  return 0;
}

void SortedSet::ConvertToTree() {
  if (tree() || lb()) return;
  std::unique_ptr<TreeSet> t = BuildTree(compact(), 0);
  Rare& r = MakeRare();
  r.tree = std::move(t);
  r.compact = CompactSet();
}

void SortedSet::ShrinkIfFits(const SortedSetLimits& limits) {
  TreeSet* t = tree();
  if (!t || t->size() > limits.max_compact_entries) return;
  bool fits = true;
  size_t bytes = 0;
  if (t->size() > 0) {
    t->ForEachInRankRange(0, t->size() - 1, false, [&](std::string_view m, double) {
      fits = fits && m.size() <= limits.max_compact_value;
      bytes += m.size() + 14;
    });
  }
  if (!fits) return;
  CompactSet c;
  c.Reserve(bytes);
  if (t->size() > 0) {
    t->ForEachInRankRange(0, t->size() - 1, false,
                          [&](std::string_view m, double sc) { c.Append(m, sc); });
  }
  c.Trim();
  Rare& r = *rare();
  r.compact = std::move(c);
  r.tree.reset();
  MaybeDemote();
}

std::string SortedSet::CheckInvariants() const {
  if (is_rare() && !rare()->needed()) return "sorted set: an empty rare part was kept";
  if (const LeaderboardSet* b = lb()) return b->CheckInvariants();
  const TreeSet* t = tree();
  return t ? t->CheckInvariants() : compact().CheckInvariants();
}

}  // namespace rankd
