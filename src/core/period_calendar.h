// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// PeriodCalendar: the arithmetic of periodic leaderboards (issue 17,
// docs/leaderboards.md "Periodic leaderboards"). It numbers the periods of
// a spec (DAILY, WEEKLY, MONTHLY in a time zone, or N seconds) with
// consecutive integers ("indexes"), so "the previous period" is index - 1
// and RETAIN is a window of indexes, and converts between an index, the
// instants that bound it and its readable id.
//
//   unit      index                                       id
//   kSeconds  floor(unix_ms / (N * 1000))                 start in unix ms ("1780000000000")
//   kDay      civil days since 1970-01-01 in the zone     first day  ("2026-03-08")
//   kWeek     weeks since a reference MON/SUN             first day  ("2026-03-08")
//   kMonth    civil months since 1970-01 in the zone      "2026-03"
//
// A calendar period starts at the first instant whose civil date (in the
// zone) is its first day, so daylight saving is exact: a day is 23 or 25
// hours long around a transition, and a day whose midnight is skipped starts
// at the transition. Seconds periods are aligned to the Unix epoch and
// ignore the zone.
//
// Pure arithmetic over an already loaded absl::TimeZone (base/time_zone.h
// loads one): no I/O, no clock. Immutable after construction; cheap to copy.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"

namespace rankd {

enum class PeriodUnit : uint8_t { kSeconds = 0, kDay = 1, kWeek = 2, kMonth = 3 };

// Seconds periods: 1 second to 10 years.
inline constexpr int64_t kMaxPeriodSeconds = 315360000;

// What LB.CREATE ... PERIOD says. retain < 0: keep every closed period.
struct PeriodSpec {
  PeriodUnit unit = PeriodUnit::kDay;
  int64_t seconds = 0;             // kSeconds only: the length, 1..kMaxPeriodSeconds
  std::string zone = "UTC";        // IANA name; calendar units only
  bool week_starts_sunday = false; // kWeek only
  int64_t retain = -1;
  bool operator==(const PeriodSpec&) const = default;
};

// "daily", "weekly", "monthly" or the number of seconds.
std::string PeriodUnitName(const PeriodSpec& spec);

class PeriodCalendar {
 public:
  // REQUIRES: spec valid (seconds in range for kSeconds); `zone` loaded for
  // spec.zone (ignored for kSeconds).
  PeriodCalendar(const PeriodSpec& spec, absl::TimeZone zone);

  const PeriodSpec& spec() const { return spec_; }

  // The index of the period holding the instant `unix_ms`.
  int64_t IndexAt(int64_t unix_ms) const;
  // The first millisecond of period `index`; the period ends (exclusive)
  // where index + 1 starts.
  int64_t StartMs(int64_t index) const;
  int64_t EndMs(int64_t index) const { return StartMs(index + 1); }

  // The readable id of period `index` (table above).
  std::string Id(int64_t index) const;
  // Parses an id into its index: for kSeconds any integer instant in unix
  // ms (the period holding it); for kDay and kWeek a date YYYY-MM-DD (the
  // period holding that day); for kMonth YYYY-MM. False when `id` is not of
  // the unit's form.
  [[nodiscard]] bool ParseId(std::string_view id, int64_t* index) const;

 private:
  // The first day of week 0 (a Monday or a Sunday).
  absl::CivilDay WeekRef() const;

  PeriodSpec spec_;
  absl::TimeZone zone_;
};

}  // namespace rankd
