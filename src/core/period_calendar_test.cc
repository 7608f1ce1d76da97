// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Period arithmetic against known transitions of the zone database (the
// expected instants were computed with Python's zoneinfo over the same
// tzdata): daylight saving start and end, half-hour offsets, a skipped
// midnight and a day that repeats its last hour.

#include "core/period_calendar.h"

#include <gtest/gtest.h>

namespace rankd {
namespace {

constexpr int64_t kHour = 3600 * 1000;

PeriodCalendar Calendar(PeriodUnit unit, const char* zone, bool sunday = false) {
  absl::TimeZone tz;
  EXPECT_TRUE(absl::LoadTimeZone(zone, &tz)) << zone;
  PeriodSpec spec;
  spec.unit = unit;
  spec.zone = zone;
  spec.week_starts_sunday = sunday;
  return PeriodCalendar(spec, tz);
}

// The period `id` starts at `start` and lasts `hours`; the ms before its
// start is in the previous period and its last ms in it.
void ExpectPeriod(const PeriodCalendar& c, const std::string& id, int64_t start, double hours) {
  int64_t index;
  ASSERT_TRUE(c.ParseId(id, &index)) << id;
  EXPECT_EQ(c.Id(index), id);
  EXPECT_EQ(c.StartMs(index), start) << id;
  EXPECT_EQ(c.EndMs(index) - start, static_cast<int64_t>(hours * kHour)) << id;
  EXPECT_EQ(c.IndexAt(start), index) << id;
  EXPECT_EQ(c.IndexAt(start - 1), index - 1) << id;
  EXPECT_EQ(c.IndexAt(c.EndMs(index) - 1), index) << id;
  EXPECT_EQ(c.IndexAt(c.EndMs(index)), index + 1) << id;
}

TEST(PeriodCalendarTest, NewYorkDaylightSaving) {
  PeriodCalendar day = Calendar(PeriodUnit::kDay, "America/New_York");
  ExpectPeriod(day, "2026-03-08", 1772946000000, 23);  // 02:00 EST -> 03:00 EDT
  ExpectPeriod(day, "2026-03-09", 1773028800000, 24);
  ExpectPeriod(day, "2026-11-01", 1793505600000, 25);  // 02:00 EDT -> 01:00 EST
  ExpectPeriod(day, "2026-11-02", 1793595600000, 24);
  PeriodCalendar month = Calendar(PeriodUnit::kMonth, "America/New_York");
  ExpectPeriod(month, "2026-03", 1772341200000, 31 * 24 - 1);
  PeriodCalendar mon = Calendar(PeriodUnit::kWeek, "America/New_York");
  ExpectPeriod(mon, "2026-03-02", 1772427600000, 7 * 24 - 1);  // holds Sunday 03-08
  int64_t index;
  ASSERT_TRUE(mon.ParseId("2026-03-08", &index));  // any day names its week
  EXPECT_EQ(mon.Id(index), "2026-03-02");
  PeriodCalendar sun = Calendar(PeriodUnit::kWeek, "America/New_York", true);
  ExpectPeriod(sun, "2026-03-08", 1772946000000, 7 * 24 - 1);
  ExpectPeriod(sun, "2026-11-01", 1793505600000, 7 * 24 + 1);
}

TEST(PeriodCalendarTest, LondonKolkataLordHowe) {
  PeriodCalendar london = Calendar(PeriodUnit::kDay, "Europe/London");
  ExpectPeriod(london, "2026-03-29", 1774742400000, 23);
  ExpectPeriod(london, "2026-10-25", 1792882800000, 25);
  PeriodCalendar kolkata = Calendar(PeriodUnit::kDay, "Asia/Kolkata");
  ExpectPeriod(kolkata, "2026-03-08", 1772908200000, 24);  // +05:30
  PeriodCalendar howe = Calendar(PeriodUnit::kDay, "Australia/Lord_Howe");
  ExpectPeriod(howe, "2026-04-05", 1775307600000, 24.5);  // half-hour DST ends
  ExpectPeriod(howe, "2026-10-04", 1791034200000, 23.5);  // and starts
}

TEST(PeriodCalendarTest, SkippedAndRepeatedMidnight) {
  // Havana starts daylight saving at midnight: 2026-03-08 begins at 01:00.
  PeriodCalendar havana = Calendar(PeriodUnit::kDay, "America/Havana");
  ExpectPeriod(havana, "2026-03-08", 1772946000000, 23);
  // Beirut turns 24:00 of 2026-10-24 back to 23:00: the 24th lasts 25
  // hours and the 25th starts at the second midnight.
  PeriodCalendar beirut = Calendar(PeriodUnit::kDay, "Asia/Beirut");
  ExpectPeriod(beirut, "2026-10-24", 1792789200000, 25);
  int64_t index;
  ASSERT_TRUE(beirut.ParseId("2026-10-25", &index));
  EXPECT_EQ(beirut.StartMs(index), 1792879200000);
  EXPECT_EQ(beirut.IndexAt(1792875600000 + kHour / 2), index - 1);
}

TEST(PeriodCalendarTest, Seconds) {
  PeriodSpec spec;
  spec.unit = PeriodUnit::kSeconds;
  spec.seconds = 60;
  PeriodCalendar c(spec, absl::UTCTimeZone());
  EXPECT_EQ(c.IndexAt(0), 0);
  EXPECT_EQ(c.IndexAt(59999), 0);
  EXPECT_EQ(c.IndexAt(60000), 1);
  EXPECT_EQ(c.IndexAt(-1), -1);
  EXPECT_EQ(c.Id(2), "120000");
  int64_t index;
  ASSERT_TRUE(c.ParseId("179999", &index));
  EXPECT_EQ(index, 2);
  EXPECT_FALSE(c.ParseId("-5", &index));
  EXPECT_FALSE(c.ParseId("2026-03-08", &index));
  EXPECT_EQ(PeriodUnitName(spec), "60");
}

TEST(PeriodCalendarTest, BadIds) {
  PeriodCalendar day = Calendar(PeriodUnit::kDay, "UTC");
  PeriodCalendar month = Calendar(PeriodUnit::kMonth, "UTC");
  int64_t index;
  for (const char* bad : {"", "2026-3-8", "2026-02-30", "2026-03", "x", "10000-01-01", "0"}) {
    EXPECT_FALSE(day.ParseId(bad, &index)) << bad;
  }
  for (const char* bad : {"2026-03-01", "2026-13", "2026"}) {
    EXPECT_FALSE(month.ParseId(bad, &index)) << bad;
  }
  ASSERT_TRUE(month.ParseId("1970-01", &index));
  EXPECT_EQ(index, 0);
  ASSERT_TRUE(day.ParseId("1969-12-31", &index));
  EXPECT_EQ(index, -1);
  EXPECT_EQ(day.StartMs(-1), -24 * kHour);
}

}  // namespace
}  // namespace rankd
