// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SortedSet's board, member-expiry, metadata and periodic methods: the parts
// that live in the Rare side object (core/sorted_set_rare.h).

#include <cassert>
#include <cmath>
#include <utility>

#include "core/sorted_set.h"
#include "core/board_snapshot.h"
#include "core/sorted_set_rare.h"

namespace rankd {

const BoardPolicy* SortedSet::board() const {
  const LeaderboardSet* b = lb();
  return b ? &b->policy() : nullptr;
}

std::optional<BoardStamp> SortedSet::BoardStampOf(std::string_view member) const {
  const LeaderboardSet& b = *lb();
  LeaderboardSet::Handle h = b.Find(member, MemberIndex::Hash(member));
  if (h == RecordArena::kNoHandle) return std::nullopt;
  return b.StampOf(h);
}

void SortedSet::BoardPut(std::string_view member, double score, BoardStamp stamp) {
  assert(!std::isnan(score));
  LeaderboardSet& b = *lb();
  const uint64_t hash = MemberIndex::Hash(member);
  LeaderboardSet::Handle h = b.Find(member, hash);
  if (h == RecordArena::kNoHandle) return b.Insert(member, hash, score, stamp);
  b.Update(h, score, stamp);
}

uint64_t SortedSet::BoardNextSeq() const { return lb()->next_seq(); }
void SortedSet::BoardRaiseNextSeq(uint64_t seq) { lb()->RaiseNextSeq(seq); }
uint64_t SortedSet::BoardDistinct() const { return lb()->distinct(); }
uint64_t SortedSet::BoardDistinctBefore(uint64_t rank) const { return lb()->DistinctBefore(rank); }
uint64_t SortedSet::BoardDistinctStart(uint64_t k) const { return lb()->DistinctStart(k); }

void SortedSet::BoardForEach(
    absl::FunctionRef<void(std::string_view, double, BoardStamp)> fn) const {
  lb()->ForEachStamped(fn);
}

int64_t SortedSet::MemberExpire(std::string_view member) const {
  const MemberTtl* t = ttl();
  return t ? t->Get(member) : -1;
}

void SortedSet::SetMemberExpire(std::string_view member, int64_t deadline_ms) {
  assert(Score(member).has_value());
  if (!ttl()) {
    if (deadline_ms < 0) return;
    MakeRare().ttl = std::make_unique<MemberTtl>();
  }
  Rare& r = *rare();
  r.ttl->Set(member, deadline_ms);
  if (r.ttl->empty()) r.ttl.reset();
  MaybeDemote();
}

int64_t SortedSet::EarliestMemberExpire() const {
  const MemberTtl* t = ttl();
  return t ? t->earliest() : -1;
}

size_t SortedSet::MembersWithExpire() const {
  const MemberTtl* t = ttl();
  return t ? t->size() : 0;
}

std::vector<std::string> SortedSet::RemoveDue(int64_t now_ms, size_t limit) {
  const MemberTtl* t = ttl();
  if (!t) return {};
  std::vector<std::string> due = t->Due(now_ms, limit);
  for (const std::string& m : due) Remove(m);  // also drops the deadline
  return due;
}

void SortedSet::ForEachMemberExpire(
    absl::FunctionRef<void(std::string_view, int64_t)> fn) const {
  if (const MemberTtl* t = ttl()) t->ForEach(fn);
}

void SortedSet::CopySideTables(SortedSet& dst) const {
  ForEachMemberExpire([&](std::string_view m, int64_t t) { dst.SetMemberExpire(m, t); });
  ForEachMemberMeta([&](std::string_view m, std::string_view b) { dst.SetMemberMeta(m, b); });
}

std::optional<std::string_view> SortedSet::MemberMeta(std::string_view member) const {
  if (!is_rare() || !rare()->meta) return std::nullopt;
  const Rare::MetaMap& meta = *rare()->meta;
  auto it = meta.find(member);
  if (it == meta.end()) return std::nullopt;
  return std::string_view(it->second);
}

void SortedSet::SetMemberMeta(std::string_view member, std::string_view meta) {
  if (meta.empty()) {
    if (is_rare()) rare()->EraseMeta(member);
    MaybeDemote();
    return;
  }
  Rare& s = MakeRare();
  if (!s.meta) s.meta = std::make_unique<Rare::MetaMap>();
  auto it = s.meta->find(member);
  if (BoardSnapshot* view = s.board ? s.board->view() : nullptr) {
    view->BeforeMetaChange(member, it == s.meta->end() ? nullptr : &it->second);
  }
  if (it != s.meta->end()) s.meta_bytes -= it->first.size() + it->second.size();
  if (it == s.meta->end()) it = s.meta->emplace(std::string(member), std::string()).first;
  it->second.assign(meta);
  s.meta_bytes += it->first.size() + it->second.size();
}

size_t SortedSet::MembersWithMeta() const {
  return is_rare() && rare()->meta ? rare()->meta->size() : 0;
}

void SortedSet::ForEachMemberMeta(
    absl::FunctionRef<void(std::string_view, std::string_view)> fn) const {
  if (!is_rare() || !rare()->meta) return;
  for (const auto& [m, b] : *rare()->meta) fn(m, b);
}

const PeriodicBoard* SortedSet::periodic() const {
  return is_rare() ? rare()->periodic.get() : nullptr;
}
PeriodicBoard* SortedSet::periodic() { return is_rare() ? rare()->periodic.get() : nullptr; }
void SortedSet::SetPeriodic(std::unique_ptr<PeriodicBoard> p) {
  assert(lb());
  rare()->periodic = std::move(p);
}

void SortedSet::SwapContents(SortedSet& other) {
  // Each keeps its own periodic() and snapshot schedule: take both out,
  // exchange the rest, put back.
  std::unique_ptr<PeriodicBoard> mine = is_rare() ? std::move(rare()->periodic) : nullptr;
  std::unique_ptr<PeriodicBoard> theirs =
      other.is_rare() ? std::move(other.rare()->periodic) : nullptr;
  const int64_t my_every = snapshot_every_ms();
  const int64_t their_every = other.snapshot_every_ms();
  SortedSet tmp(std::move(*this));
  *this = std::move(other);
  other = std::move(tmp);
  if (mine) MakeRare().periodic = std::move(mine);
  if (theirs) other.MakeRare().periodic = std::move(theirs);
  set_snapshot_every_ms(my_every);
  other.set_snapshot_every_ms(their_every);
  MaybeDemote();
  other.MaybeDemote();
}

void SortedSet::BoardTakeView(int64_t now_ms) { rare()->board->TakeView(now_ms); }
void SortedSet::BoardDropView() {
  if (LeaderboardSet* b = lb()) b->DropView();
}
const BoardSnapshot* SortedSet::board_snapshot() const {
  const LeaderboardSet* b = lb();
  return b ? b->view() : nullptr;
}
int64_t SortedSet::snapshot_every_ms() const {
  return is_rare() ? rare()->snapshot_every_ms : 0;
}
void SortedSet::set_snapshot_every_ms(int64_t ms) {
  if (ms == 0 && !is_rare()) return;
  MakeRare().snapshot_every_ms = ms;
  MaybeDemote();
}

}  // namespace rankd
