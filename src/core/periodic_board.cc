// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/periodic_board.h"

#include <cassert>
#include <string>
#include <utility>
#include <vector>

namespace rankd {

bool PeriodicBoard::RollTo(SortedSet& open, int64_t index) {
  assert(open.periodic() == this && open.board());
  if (index <= open_) return false;
  open.BoardDropView();  // a view is of the open period only
  if (!open.empty()) {
    auto closed = SortedSet::NewBoard(*open.board());
    closed->SwapContents(open);  // `open` is now the fresh, empty board
    open.BoardRaiseNextSeq(closed->BoardNextSeq());
    // A closed period is frozen: its members' deadlines end with it.
    std::vector<std::string> timed;
    closed->ForEachMemberExpire([&](std::string_view m, int64_t) { timed.emplace_back(m); });
    for (const std::string& m : timed) closed->SetMemberExpire(m, -1);
    closed_[open_] = std::move(closed);
  }
  open_ = index;
  open_end_ms_ = calendar_.EndMs(index);
  DropOld();
  return true;
}

const SortedSet* PeriodicBoard::Period(const SortedSet& open, int64_t index) const {
  if (index == open_) return &open;
  auto it = closed_.find(index);
  return it == closed_.end() ? nullptr : it->second.get();
}

SortedSet& PeriodicBoard::ClosedForLoad(int64_t index, const BoardPolicy& policy) {
  assert(index < open_);
  std::unique_ptr<SortedSet>& z = closed_[index];
  if (!z) z = SortedSet::NewBoard(policy);
  return *z;
}

void PeriodicBoard::DropEmpty() {
  std::erase_if(closed_, [](const auto& kv) { return kv.second->empty(); });
}

void PeriodicBoard::ForEachClosed(
    absl::FunctionRef<void(int64_t index, const SortedSet& board)> fn) const {
  for (auto it = closed_.rbegin(); it != closed_.rend(); ++it) fn(it->first, *it->second);
}

std::unique_ptr<PeriodicBoard> PeriodicBoard::Clone() const {
  auto copy = std::make_unique<PeriodicBoard>(calendar_, open_);
  for (const auto& [index, z] : closed_) copy->closed_[index] = z->Clone();
  return copy;
}

size_t PeriodicBoard::MemoryUsage() const {
  size_t bytes = sizeof(*this);
  for (const auto& [index, z] : closed_) bytes += 64 + z->MemoryUsage();
  return bytes;
}

void PeriodicBoard::SetCalendar(const PeriodCalendar& calendar) {
  assert(calendar.spec().unit == spec().unit && calendar.spec().seconds == spec().seconds);
  calendar_ = calendar;
  open_end_ms_ = calendar_.EndMs(open_);
  DropOld();
}

void PeriodicBoard::DropOld() {
  if (spec().retain < 0) return;
  // Invariant: nothing closed is older than RETAIN periods before the open one.
  closed_.erase(closed_.begin(), closed_.lower_bound(open_ - spec().retain));
}

}  // namespace rankd
