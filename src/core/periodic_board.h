// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// PeriodicBoard: the periods of a periodic leaderboard (issue 17,
// docs/leaderboards.md "Periodic leaderboards"), attached to the board's
// SortedSet (SortedSet::periodic()).
//
// The key's SortedSet itself holds the *open* period (index open_index()):
// every Z* and LB.* write lands there, so those commands need no change. The
// closed periods are boards of their own, kept read-only in a map by index.
// Closing is RollTo: the open period's members move into the map (with their
// stamps and metadata; their member deadlines end, a closed period is
// frozen), the key's set is left empty with the same policy and sequence
// counter, and closed periods older than RETAIN are dropped.
//
//   key -> SortedSet (open period, index 7) --periodic()--> PeriodicBoard
//                                                             spec, calendar
//                                                             closed: {4: board, 6: board}
//
// A period with no members is never stored: reading it gives an empty
// board. Which period is current is a function of time (the calendar),
// applied by whoever owns the clock (the keyspace rolls a board when it is
// looked up); this class never reads a clock.
//
// Invariants: every closed index < open_index(); no closed board is empty;
// with retain >= 0 no closed index < open_index() - retain.

#pragma once

#include <cstdint>
#include <map>
#include <memory>

#include "absl/functional/function_ref.h"
#include "core/period_calendar.h"
#include "core/sorted_set.h"

namespace rankd {

class PeriodicBoard {
 public:
  PeriodicBoard(const PeriodCalendar& calendar, int64_t open_index)
      : calendar_(calendar), open_(open_index), open_end_ms_(calendar.EndMs(open_index)) {}
  PeriodicBoard(const PeriodicBoard&) = delete;
  PeriodicBoard& operator=(const PeriodicBoard&) = delete;

  const PeriodCalendar& calendar() const { return calendar_; }
  const PeriodSpec& spec() const { return calendar_.spec(); }
  int64_t open_index() const { return open_; }

  // The current period's index at `now_ms`: the calendar's, or the open
  // one if that is later (a clock that went back, a board created with a
  // future NOW): writes never go to a closed period.
  // O(1) while the open period lasts (its end is cached).
  int64_t CurrentIndex(int64_t now_ms) const {
    if (now_ms < open_end_ms_) return open_;
    const int64_t at = calendar_.IndexAt(now_ms);
    return at > open_ ? at : open_;
  }
  // Whether period `index` is kept when `current` is the current index:
  // not in the future, and within RETAIN.
  bool Kept(int64_t index, int64_t current) const {
    return index <= current && (spec().retain < 0 || index >= current - spec().retain);
  }

  // Closes the open period when `index` > open_index() (else does nothing
  // and returns false): moves the members of `open` (the key's set, whose
  // periodic() is this) into a closed board unless it is empty, and drops
  // closed periods that RETAIN no longer keeps.
  bool RollTo(SortedSet& open, int64_t index);

  // LB.ALTER (issue 33): the board's calendar becomes `calendar` (another
  // zone or RETAIN; REQUIRES: the same unit, seconds and week start).
  // Periods keep their indexes (a day stays the same date), the open
  // period ends where the new calendar says, and closed periods the new
  // RETAIN no longer keeps are dropped.
  void SetCalendar(const PeriodCalendar& calendar);

  // The members of period `index`: `open` for the open period, a closed
  // board, or nullptr when none is stored.
  const SortedSet* Period(const SortedSet& open, int64_t index) const;
  // A closed period's board for loading (log replay, snapshots): created
  // empty with `policy` when absent. REQUIRES: index < open_index().
  SortedSet& ClosedForLoad(int64_t index, const BoardPolicy& policy);
  // Drops stored closed periods that are empty (after a load).
  void DropEmpty();

  // Visits the stored closed periods, newest first.
  void ForEachClosed(absl::FunctionRef<void(int64_t index, const SortedSet& board)> fn) const;
  size_t closed_count() const { return closed_.size(); }

  std::unique_ptr<PeriodicBoard> Clone() const;
  // Bytes held by the closed periods.
  size_t MemoryUsage() const;

 private:
  void DropOld();

  PeriodCalendar calendar_;
  int64_t open_;
  int64_t open_end_ms_;  // calendar_.EndMs(open_)
  std::map<int64_t, std::unique_ptr<SortedSet>> closed_;
};

}  // namespace rankd
