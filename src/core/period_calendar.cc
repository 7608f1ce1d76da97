// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/period_calendar.h"

#include <cassert>

#include "absl/time/civil_time.h"
#include "base/numbers.h"

namespace rankd {
namespace {

const absl::CivilDay kEpochDay(1970, 1, 1);
const absl::CivilMonth kEpochMonth(1970, 1);
// A Monday and a Sunday: the origins of week indexes.
const absl::CivilDay kMondayRef(1970, 1, 5);
const absl::CivilDay kSundayRef(1970, 1, 4);
// Seconds ids are instants in [0, the end of year 9999].
constexpr int64_t kMaxIdMs = 253402300799999;

int64_t FloorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

}  // namespace

std::string PeriodUnitName(const PeriodSpec& spec) {
  switch (spec.unit) {
    case PeriodUnit::kDay: return "daily";
    case PeriodUnit::kWeek: return "weekly";
    case PeriodUnit::kMonth: return "monthly";
    case PeriodUnit::kSeconds: break;
  }
  return std::to_string(spec.seconds);
}

absl::CivilDay PeriodCalendar::WeekRef() const {
  return spec_.week_starts_sunday ? kSundayRef : kMondayRef;
}

PeriodCalendar::PeriodCalendar(const PeriodSpec& spec, absl::TimeZone zone)
    : spec_(spec), zone_(zone) {
  assert(spec.unit != PeriodUnit::kSeconds ||
         (spec.seconds >= 1 && spec.seconds <= kMaxPeriodSeconds));
}

int64_t PeriodCalendar::IndexAt(int64_t unix_ms) const {
  if (spec_.unit == PeriodUnit::kSeconds) return FloorDiv(unix_ms, spec_.seconds * 1000);
  const absl::CivilDay d = absl::ToCivilDay(absl::FromUnixMillis(unix_ms), zone_);
  int64_t index = 0;
  switch (spec_.unit) {
    case PeriodUnit::kDay: index = d - kEpochDay; break;
    case PeriodUnit::kWeek:
      index = FloorDiv(d - WeekRef(), 7);
      break;
    case PeriodUnit::kMonth: index = absl::CivilMonth(d) - kEpochMonth; break;
    case PeriodUnit::kSeconds: break;
  }
  // A zone that turns its clocks back across midnight shows a civil date
  // twice; the period is the last one started by then, so that indexes never
  // go back as time goes forward.
  while (StartMs(index + 1) <= unix_ms) index++;
  while (StartMs(index) > unix_ms) index--;
  return index;
}

int64_t PeriodCalendar::StartMs(int64_t index) const {
  absl::CivilDay first;
  switch (spec_.unit) {
    case PeriodUnit::kSeconds: return index * spec_.seconds * 1000;
    case PeriodUnit::kDay: first = kEpochDay + index; break;
    case PeriodUnit::kWeek: first = WeekRef() + 7 * index; break;
    case PeriodUnit::kMonth: first = absl::CivilDay(kEpochMonth + index); break;
  }
  // The first instant whose civil date is `first`: midnight, or the
  // transition when midnight is skipped, or the earlier of a repeated one.
  const absl::TimeZone::TimeInfo at = zone_.At(absl::CivilSecond(first));
  const absl::Time t = at.kind == absl::TimeZone::TimeInfo::SKIPPED ? at.trans : at.pre;
  return absl::ToUnixMillis(t);
}

std::string PeriodCalendar::Id(int64_t index) const {
  switch (spec_.unit) {
    case PeriodUnit::kSeconds: return std::to_string(StartMs(index));
    case PeriodUnit::kDay: return absl::FormatCivilTime(kEpochDay + index);
    case PeriodUnit::kWeek:
      return absl::FormatCivilTime(WeekRef() + 7 * index);
    case PeriodUnit::kMonth: return absl::FormatCivilTime(kEpochMonth + index);
  }
  return "";
}

bool PeriodCalendar::ParseId(std::string_view id, int64_t* index) const {
  const absl::string_view text(id.data(), id.size());
  if (spec_.unit == PeriodUnit::kSeconds) {
    int64_t ms;
    if (!ParseInt64(id, &ms) || ms < 0 || ms > kMaxIdMs) return false;
    *index = FloorDiv(ms, spec_.seconds * 1000);
    return true;
  }
  if (spec_.unit == PeriodUnit::kMonth) {
    absl::CivilMonth m;
    if (!absl::ParseCivilTime(text, &m) || absl::FormatCivilTime(m) != id) return false;
    if (m.year() < 1 || m.year() > 9999) return false;
    *index = m - kEpochMonth;
    return true;
  }
  absl::CivilDay d;
  if (!absl::ParseCivilTime(text, &d) || absl::FormatCivilTime(d) != id) return false;
  if (d.year() < 1 || d.year() > 9999) return false;
  *index = spec_.unit == PeriodUnit::kDay
               ? d - kEpochDay
               : FloorDiv(d - WeekRef(), 7);
  return true;
}

}  // namespace rankd
