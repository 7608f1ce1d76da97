// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SortedSet dispatches each call to the one encoding in use: CompactSet
// while the set is small, TreeSet after it outgrows the limits. Conversion
// happens only when a new member is added (as Redis's zsetAdd) or when
// ShrinkIfFits is called.

#include "core/sorted_set.h"

#include <cassert>
#include <cmath>
#include <utility>

#include "base/clock.h"
#include "core/compact_set.h"
#include "core/leaderboard_set.h"
#include "core/member_ttl.h"
#include "core/periodic_board.h"
#include "absl/container/flat_hash_map.h"
#include "base/str_hash.h"
#include "core/tree_set.h"

namespace rankd {

struct SortedSet::Impl {
  CompactSet compact;             // the encoding while `tree` is null
  std::unique_ptr<TreeSet> tree;  // the encoding once converted
  std::unique_ptr<LeaderboardSet> board;  // board mode: the only part in use
  std::unique_ptr<MemberTtl> ttl;  // member deadlines; null while none has one
  // Member metadata; null while none has any.
  std::unique_ptr<absl::flat_hash_map<std::string, std::string, StrHash, StrEq>> meta;
  size_t meta_bytes = 0;
  std::unique_ptr<PeriodicBoard> periodic;  // closed periods of a periodic board
};

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

SortedSet::SortedSet(const SortedSetLimits& limits, size_t hint_size, size_t hint_max_len)
    : impl_(std::make_unique<Impl>()) {
  if (limits.max_compact_entries == 0 || hint_size > limits.max_compact_entries ||
      hint_max_len > limits.max_compact_value) {
    impl_->tree = std::make_unique<TreeSet>(hint_size, 0);
  }
}

SortedSet::~SortedSet() = default;

std::unique_ptr<SortedSet> SortedSet::NewBoard(BoardPolicy policy, size_t expected_size) {
  auto z = std::make_unique<SortedSet>(SortedSetLimits{});
  z->impl_->board = std::make_unique<LeaderboardSet>(policy, expected_size);
  return z;
}

std::unique_ptr<SortedSet> SortedSet::Clone() const {
  if (const LeaderboardSet* b = impl_->board.get()) {
    auto copy = NewBoard(b->policy(), b->size());
    LeaderboardSet& dst = *copy->impl_->board;
    // Ascending order: appending keeps every insert at the tree's end.
    b->ForEachStamped([&](std::string_view m, double s, BoardStamp st) {
      dst.Insert(m, MemberIndex::Hash(m), s, st);
    });
    dst.RaiseNextSeq(b->next_seq());
    CopySideTables(*copy);
    if (impl_->periodic) copy->impl_->periodic = impl_->periodic->Clone();
    return copy;
  }
  auto copy = std::make_unique<SortedSet>(SortedSetLimits{});
  copy->impl_->tree.reset();
  if (impl_->tree) {
    const TreeSet& src = *impl_->tree;
    auto tree = std::make_unique<TreeSet>(src.size(), 0);
    if (src.size() > 0) {
      src.ForEachInRankRange(0, src.size() - 1, false,
                             [&](std::string_view m, double s) { tree->Append(m, s); });
    }
    copy->impl_->tree = std::move(tree);
  } else {
    copy->impl_->compact = impl_->compact;
  }
  CopySideTables(*copy);
  return copy;
}

size_t SortedSet::size() const {
  if (impl_->board) return impl_->board->size();
  return impl_->tree ? impl_->tree->size() : impl_->compact.size();
}

SortedSet::Encoding SortedSet::encoding() const {
  return impl_->tree || impl_->board ? Encoding::kTree : Encoding::kCompact;
}

size_t SortedSet::MemoryUsage() const {
  // Side tables: deadlines, and metadata (bytes plus ~48 per entry).
  const size_t ttl = (impl_->ttl ? impl_->ttl->MemoryUsage() : 0) + impl_->meta_bytes +
                     MembersWithMeta() * (2 * sizeof(std::string) + 16) +
                     (impl_->periodic ? impl_->periodic->MemoryUsage() : 0);
  if (impl_->board) return sizeof(Impl) + ttl + impl_->board->MemoryUsage();
  return sizeof(Impl) + ttl +
         (impl_->tree ? impl_->tree->MemoryUsage() : impl_->compact.MemoryUsage());
}

AddResult SortedSet::Add(std::string_view member, double score, const AddOptions& opts,
                         const SortedSetLimits& limits) {
  return Add(member, score, opts, limits, impl_->board ? WallMs() : 0);
}

AddResult SortedSet::Add(std::string_view member, double score, const AddOptions& opts,
                         const SortedSetLimits& limits, int64_t now_ms) {
  assert(!std::isnan(score));
  Impl& s = *impl_;
  if (LeaderboardSet* b = s.board.get()) {
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
  if (s.tree) {
    const uint64_t hash = MemberIndex::Hash(member);
    const TreeSet::Handle h = s.tree->Find(member, hash);
    if (h != RecordArena::kNoHandle) {
      AddResult r = DecideExisting(s.tree->ScoreOf(h), score, opts);
      if (r.kind == Kind::kUpdated) s.tree->UpdateScore(h, r.score);
      return r;
    }
    if (opts.xx) return {Kind::kSkipped, score};
    s.tree->Insert(member, hash, score);
    return {Kind::kAdded, score};
  }
  if (auto found = s.compact.Find(member)) {
    AddResult r = DecideExisting(found->first.score, score, opts);
    if (r.kind == Kind::kUpdated) s.compact.UpdateScore(found->first, r.score);
    return r;
  }
  if (opts.xx) return {Kind::kSkipped, score};
  if (s.compact.size() + 1 > limits.max_compact_entries ||
      member.size() > limits.max_compact_value) {
    // Insert before dropping the compact buffer: `member` may point into it.
    std::unique_ptr<TreeSet> tree = BuildTree(s.compact, 1);
    tree->Insert(member, MemberIndex::Hash(member), score);
    s.tree = std::move(tree);
    s.compact = CompactSet();
  } else {
    s.compact.Insert(member, score);
  }
  return {Kind::kAdded, score};
}

bool SortedSet::Remove(std::string_view member) {
  Impl& s = *impl_;
  if (s.ttl) {
    s.ttl->Erase(member);
    if (s.ttl->empty()) s.ttl.reset();
  }
  if (s.meta) SetMemberMeta(member, {});
  if (LeaderboardSet* b = s.board.get()) {
    const uint64_t hash = MemberIndex::Hash(member);
    const LeaderboardSet::Handle h = b->Find(member, hash);
    if (h == RecordArena::kNoHandle) return false;
    b->Remove(h, hash);
    return true;
  }
  if (s.tree) {
    const uint64_t hash = MemberIndex::Hash(member);
    const TreeSet::Handle h = s.tree->Find(member, hash);
    if (h == RecordArena::kNoHandle) return false;
    s.tree->Remove(h, hash);
    return true;
  }
  auto found = s.compact.Find(member);
  if (!found) return false;
  s.compact.Erase(found->first);
  return true;
}

void SortedSet::PrefetchMember(std::string_view member, int step) const {
  if (const TreeSet* t = impl_->tree.get(); t && !impl_->board) {
    t->PrefetchMember(MemberIndex::Hash(member), step);
  }
}

std::optional<double> SortedSet::Score(std::string_view member) const {
  const Impl& s = *impl_;
  if (const LeaderboardSet* b = s.board.get()) {
    LeaderboardSet::Handle h = b->Find(member, MemberIndex::Hash(member));
    if (h == RecordArena::kNoHandle) return std::nullopt;
    return b->ScoreOf(h);
  }
  if (s.tree) {
    TreeSet::Handle h = s.tree->Find(member, MemberIndex::Hash(member));
    if (h == RecordArena::kNoHandle) return std::nullopt;
    return s.tree->ScoreOf(h);
  }
  auto found = s.compact.Find(member);
  if (!found) return std::nullopt;
  return found->first.score;
}

std::optional<uint64_t> SortedSet::Rank(std::string_view member) const {
  const Impl& s = *impl_;
  if (const LeaderboardSet* b = s.board.get()) {
    LeaderboardSet::Handle h = b->Find(member, MemberIndex::Hash(member));
    if (h == RecordArena::kNoHandle) return std::nullopt;
    return b->RankOf(h);
  }
  if (s.tree) {
    TreeSet::Handle h = s.tree->Find(member, MemberIndex::Hash(member));
    if (h == RecordArena::kNoHandle) return std::nullopt;
    return s.tree->RankOf(h);
  }
  auto found = s.compact.Find(member);
  if (!found) return std::nullopt;
  return found->second;
}

uint64_t SortedSet::ScoreLowerRank(double min, bool exclusive) const {
  if (impl_->board) return impl_->board->CountScoreBelow(min, exclusive);
  if (impl_->tree) return impl_->tree->CountScoreBelow(min, exclusive);
  return impl_->compact.CountWhile(
      [&](double s, std::string_view) { return exclusive ? s <= min : s < min; });
}

uint64_t SortedSet::ScoreUpperRank(double max, bool exclusive) const {
  if (impl_->board) return impl_->board->CountScoreBelow(max, !exclusive);
  if (impl_->tree) return impl_->tree->CountScoreBelow(max, !exclusive);
  return impl_->compact.CountWhile(
      [&](double s, std::string_view) { return exclusive ? s < max : s <= max; });
}

uint64_t SortedSet::LexLowerRank(const LexBound& min) const {
  switch (min.kind) {
    case LexBound::Kind::kMinusInf: return 0;
    case LexBound::Kind::kPlusInf: return size();
    default: break;
  }
  const bool exclusive = min.kind == LexBound::Kind::kExclusive;
  return CountWhile(impl_->compact, impl_->tree.get(), impl_->board.get(), [&](double, std::string_view m) {
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
  return CountWhile(impl_->compact, impl_->tree.get(), impl_->board.get(), [&](double, std::string_view m) {
    return exclusive ? m < max.value : m <= max.value;
  });
}

void SortedSet::ForEachInRankRange(uint64_t start, uint64_t stop, bool reverse,
                                   Visitor fn) const {
  assert(start <= stop && stop < size());
  if (impl_->board) return impl_->board->ForEachInRankRange(start, stop, reverse, fn);
  if (impl_->tree) return impl_->tree->ForEachInRankRange(start, stop, reverse, fn);
  impl_->compact.ForEachInRankRange(start, stop, reverse, fn);
}

std::pair<std::string_view, double> SortedSet::At(uint64_t rank) const {
  assert(rank < size());
  if (impl_->board) return impl_->board->At(rank);
  if (impl_->tree) return impl_->tree->At(rank);
  CompactSet::Entry e = impl_->compact.At(rank);
  return {e.member, e.score};
}

uint64_t SortedSet::RemoveRankRange(uint64_t start, uint64_t stop) {
  assert(start <= stop && stop < size());
  if (MemberTtl* ttl = impl_->ttl.get()) {
    ForEachInRankRange(start, stop, false, [&](std::string_view m, double) { ttl->Erase(m); });
    if (ttl->empty()) impl_->ttl.reset();
  }
  if (impl_->meta) {
    ForEachInRankRange(start, stop, false, [&](std::string_view m, double) {
      if (auto it = impl_->meta->find(m); it != impl_->meta->end()) {
        impl_->meta_bytes -= it->first.size() + it->second.size();
        impl_->meta->erase(it);
      }
    });
    if (impl_->meta->empty()) impl_->meta.reset();
  }
  if (impl_->board) {
    impl_->board->RemoveRankRange(start, stop);
  } else if (impl_->tree) {
    impl_->tree->RemoveRankRange(start, stop);
  } else {
    impl_->compact.EraseRankRange(start, stop);
  }
  return stop - start + 1;
}

uint64_t SortedSet::Scan(uint64_t cursor, size_t count, Visitor fn) const {
  if (impl_->board) return impl_->board->Scan(cursor, count, fn);
  if (impl_->tree) return impl_->tree->Scan(cursor, count, fn);
  if (!empty()) impl_->compact.ForEachInRankRange(0, size() - 1, false, fn);
  return 0;
}

void SortedSet::ConvertToTree() {
  Impl& s = *impl_;
  if (s.tree || s.board) return;
  s.tree = BuildTree(s.compact, 0);
  s.compact = CompactSet();
}

void SortedSet::ShrinkIfFits(const SortedSetLimits& limits) {
  Impl& s = *impl_;
  if (!s.tree || s.tree->size() > limits.max_compact_entries) return;
  bool fits = true;
  size_t bytes = 0;
  if (s.tree->size() > 0) {
    s.tree->ForEachInRankRange(0, s.tree->size() - 1, false, [&](std::string_view m, double) {
      fits = fits && m.size() <= limits.max_compact_value;
      bytes += m.size() + 10;
    });
  }
  if (!fits) return;
  CompactSet compact;
  compact.Reserve(bytes);
  if (s.tree->size() > 0) {
    s.tree->ForEachInRankRange(0, s.tree->size() - 1, false,
                               [&](std::string_view m, double sc) { compact.Append(m, sc); });
  }
  s.compact = std::move(compact);
  s.tree.reset();
}

const BoardPolicy* SortedSet::board() const {
  return impl_->board ? &impl_->board->policy() : nullptr;
}

std::optional<BoardStamp> SortedSet::BoardStampOf(std::string_view member) const {
  const LeaderboardSet& b = *impl_->board;
  LeaderboardSet::Handle h = b.Find(member, MemberIndex::Hash(member));
  if (h == RecordArena::kNoHandle) return std::nullopt;
  return b.StampOf(h);
}

void SortedSet::BoardPut(std::string_view member, double score, BoardStamp stamp) {
  assert(!std::isnan(score));
  LeaderboardSet& b = *impl_->board;
  const uint64_t hash = MemberIndex::Hash(member);
  LeaderboardSet::Handle h = b.Find(member, hash);
  if (h == RecordArena::kNoHandle) return b.Insert(member, hash, score, stamp);
  b.Update(h, score, stamp);
}

uint64_t SortedSet::BoardNextSeq() const { return impl_->board->next_seq(); }
void SortedSet::BoardRaiseNextSeq(uint64_t seq) { impl_->board->RaiseNextSeq(seq); }
uint64_t SortedSet::BoardDistinct() const { return impl_->board->distinct(); }
uint64_t SortedSet::BoardDistinctBefore(uint64_t rank) const {
  return impl_->board->DistinctBefore(rank);
}
uint64_t SortedSet::BoardDistinctStart(uint64_t k) const { return impl_->board->DistinctStart(k); }

void SortedSet::BoardForEach(
    absl::FunctionRef<void(std::string_view, double, BoardStamp)> fn) const {
  impl_->board->ForEachStamped(fn);
}

int64_t SortedSet::MemberExpire(std::string_view member) const {
  return impl_->ttl ? impl_->ttl->Get(member) : -1;
}

void SortedSet::SetMemberExpire(std::string_view member, int64_t deadline_ms) {
  assert(Score(member).has_value());
  if (!impl_->ttl) {
    if (deadline_ms < 0) return;
    impl_->ttl = std::make_unique<MemberTtl>();
  }
  impl_->ttl->Set(member, deadline_ms);
  if (impl_->ttl->empty()) impl_->ttl.reset();
}

int64_t SortedSet::EarliestMemberExpire() const {
  return impl_->ttl ? impl_->ttl->earliest() : -1;
}

size_t SortedSet::MembersWithExpire() const { return impl_->ttl ? impl_->ttl->size() : 0; }

std::vector<std::string> SortedSet::RemoveDue(int64_t now_ms, size_t limit) {
  if (!impl_->ttl) return {};
  std::vector<std::string> due = impl_->ttl->Due(now_ms, limit);
  for (const std::string& m : due) Remove(m);  // also drops the deadline
  return due;
}

void SortedSet::ForEachMemberExpire(
    absl::FunctionRef<void(std::string_view, int64_t)> fn) const {
  if (impl_->ttl) impl_->ttl->ForEach(fn);
}

void SortedSet::CopySideTables(SortedSet& dst) const {
  ForEachMemberExpire([&](std::string_view m, int64_t t) { dst.SetMemberExpire(m, t); });
  ForEachMemberMeta([&](std::string_view m, std::string_view b) { dst.SetMemberMeta(m, b); });
}

std::optional<std::string_view> SortedSet::MemberMeta(std::string_view member) const {
  if (!impl_->meta) return std::nullopt;
  auto it = impl_->meta->find(member);
  if (it == impl_->meta->end()) return std::nullopt;
  return std::string_view(it->second);
}

void SortedSet::SetMemberMeta(std::string_view member, std::string_view meta) {
  Impl& s = *impl_;
  if (!s.meta) {
    if (meta.empty()) return;
    s.meta = std::make_unique<absl::flat_hash_map<std::string, std::string, StrHash, StrEq>>();
  }
  auto it = s.meta->find(member);
  if (it != s.meta->end()) s.meta_bytes -= it->first.size() + it->second.size();
  if (meta.empty()) {
    if (it != s.meta->end()) s.meta->erase(it);
    if (s.meta->empty()) s.meta.reset();
    return;
  }
  if (it == s.meta->end()) it = s.meta->emplace(std::string(member), std::string()).first;
  it->second.assign(meta);
  s.meta_bytes += it->first.size() + it->second.size();
}

size_t SortedSet::MembersWithMeta() const { return impl_->meta ? impl_->meta->size() : 0; }

void SortedSet::ForEachMemberMeta(
    absl::FunctionRef<void(std::string_view, std::string_view)> fn) const {
  if (!impl_->meta) return;
  for (const auto& [m, b] : *impl_->meta) fn(m, b);
}

const PeriodicBoard* SortedSet::periodic() const { return impl_->periodic.get(); }
PeriodicBoard* SortedSet::periodic() { return impl_->periodic.get(); }
void SortedSet::SetPeriodic(std::unique_ptr<PeriodicBoard> p) {
  assert(impl_->board);
  impl_->periodic = std::move(p);
}

void SortedSet::SwapContents(SortedSet& other) {
  std::swap(impl_, other.impl_);
  std::swap(impl_->periodic, other.impl_->periodic);
}

std::string SortedSet::CheckInvariants() const {
  if (impl_->board) return impl_->board->CheckInvariants();
  return impl_->tree ? impl_->tree->CheckInvariants() : impl_->compact.CheckInvariants();
}

}  // namespace rankd
