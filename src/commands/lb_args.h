// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Option grammar and error texts of the leaderboard family
// (leaderboard_family.cc, docs/leaderboards.md). Pure parsing: nothing here
// looks at a key or writes a reply. Parsers return an error text ("" when
// the arguments are valid), as zset_args.h does.

#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/leaderboard_policy.h"
#include "core/period_calendar.h"

namespace rankd {

namespace err {
inline constexpr std::string_view kLbPlainDense =
    "ERR DENSE ranks need a leaderboard: the key holds a plain sorted set (see LB.CREATE)";
inline constexpr std::string_view kLbPlainOrdinalRankFor =
    "ERR ORDINAL RANKFOR needs a leaderboard's tie order: the key holds a plain sorted set "
    "(use MODE COMPETITION)";
inline constexpr std::string_view kLbPlainWrite =
    "ERR the key holds a plain sorted set, not a leaderboard (LB.CREATE a new key)";
// Issue 33: LB.CREATE ... ADOPT, LB.ALTER.
inline constexpr std::string_view kLbPlainCreate =
    "ERR the key holds a plain sorted set, not a leaderboard (LB.CREATE key ADOPT makes it "
    "one in place)";
inline constexpr std::string_view kLbAdoptPeriodic =
    "ERR ADOPT makes a leaderboard of a plain sorted set; a periodic board starts empty "
    "(LB.CREATE without ADOPT)";
inline constexpr std::string_view kLbAlterNothing =
    "ERR LB.ALTER needs SNAPSHOT EVERY seconds, RETAIN n or TZ zone";
inline constexpr std::string_view kLbPolicyMismatch =
    "ERR the leaderboard exists with another ORDER or TIES";
inline constexpr std::string_view kLbRankPositive = "ERR rank must be a positive integer";
// LB.ADD ... AT (issue 33): from the epoch to the end of year 9999 UTC.
inline constexpr int64_t kLbMaxAtMs = 253402300799999;
inline constexpr std::string_view kLbLateMeta =
    "ERR META cannot be written into a closed period (LB.ADD ... PERIOD)";
inline constexpr std::string_view kLbAtRange =
    "ERR AT must be a Unix time in milliseconds from 0 to 253402300799999 (year 9999)";
// Periodic boards (issue 17).
inline constexpr std::string_view kLbPeriodUnit =
    "ERR PERIOD must be DAILY, WEEKLY, MONTHLY or a number of seconds from 1 to 315360000";
inline constexpr std::string_view kLbNeedsPeriod = "ERR TZ, WEEKSTART, RETAIN and NOW need PERIOD";
inline constexpr std::string_view kLbZoneNeedsCalendar =
    "ERR TZ needs PERIOD DAILY, WEEKLY or MONTHLY (seconds periods follow the Unix epoch)";
inline constexpr std::string_view kLbWeekstartNeedsWeekly = "ERR WEEKSTART needs PERIOD WEEKLY";
inline constexpr std::string_view kLbRetain = "ERR RETAIN must be an integer from 0 to 1000000";
inline constexpr std::string_view kLbPeriodMismatch =
    "ERR the leaderboard exists with another PERIOD, TZ, WEEKSTART or RETAIN (LB.ALTER "
    "changes TZ and RETAIN)";
inline constexpr std::string_view kLbNotPeriodic =
    "ERR the key is not a periodic leaderboard (LB.CREATE key PERIOD ...)";
inline constexpr std::string_view kLbPeriodRef =
    "ERR PERIOD must be 0, -1, -2, ... or a period id (see LB.PERIODS)";
inline constexpr std::string_view kLbNoSuchPeriod =
    "ERR no such period: it is not kept (see LB.PERIODS and RETAIN)";
inline constexpr std::string_view kLbPeriodicStore =
    "ERR a store command cannot replace a periodic leaderboard";
// Stable views (issue 17).
inline constexpr std::string_view kLbNoView =
    "ERR the leaderboard has no snapshot view (take one with LB.SNAPSHOT key, or LB.CREATE key "
    "... SNAPSHOT EVERY seconds)";
inline constexpr std::string_view kLbSnapshotPeriod =
    "ERR SNAPSHOT reads the current period's view and cannot be combined with PERIOD";
inline constexpr std::string_view kLbSnapshotEvery =
    "ERR SNAPSHOT EVERY must be a number of seconds from 0 (off) to 315360000";
}  // namespace err

// [ORDER DESC|ASC] [TIES FIRST|LAST] in any order, from args[from].
[[nodiscard]] std::string_view ParseBoardPolicy(std::span<const std::string_view> args,
                                                size_t from, BoardPolicy* out);

// LB.CREATE key [ORDER o] [TIES t] [PERIOD DAILY|WEEKLY|MONTHLY|seconds]
// [TZ zone] [WEEKSTART MON|SUN] [RETAIN n] [NOW unix-ms]
// [SNAPSHOT EVERY seconds] [ADOPT], options in any order. Checks everything
// but whether the zone exists.
struct LbCreateArgs {
  BoardPolicy policy;
  bool adopt = false;  // ADOPT: a plain sorted set at the key becomes the board
  bool periodic = false;
  PeriodSpec period;
  int64_t snapshot_every_s = -1;  // SNAPSHOT EVERY's value; -1: not given
  bool has_now = false;
  int64_t now_ms = 0;
};
[[nodiscard]] std::string_view ParseLbCreateArgs(std::span<const std::string_view> args,
                                                 LbCreateArgs* out);

// Trailing options of the read commands: MODE m, for LB.TOP OFFSET n, for
// the row listings WITHMETA, PERIOD p (its value is only captured:
// lb_read.h resolves it) and the flag SNAPSHOT. Parses args[from..]; a null
// `offset` / `with_meta` / `period` / `snapshot` means that option is not
// accepted; `mode` may be null too.
[[nodiscard]] std::string_view ParseRankOptions(std::span<const std::string_view> args,
                                                size_t from, RankMode* mode, int64_t* offset,
                                                bool* with_meta = nullptr,
                                                std::string_view* period = nullptr,
                                                bool* snapshot = nullptr);

// LB.RANKS key member [member ...] [MODE m] [PERIOD p] [SNAPSHOT]: the
// arguments end with an option while the second-to-last one is MODE or
// PERIOD, or the last one SNAPSHOT (any case), and at least one member
// precedes it. LB.RANKS key MEMBERS n member ... [MODE m] [PERIOD p]
// [SNAPSHOT] (issue 33; when args[2] is MEMBERS, args[3] a count n >= 1 and
// n members follow) counts its members, so a member named MODE, PERIOD or
// SNAPSHOT is never an option; its options follow in any order. Sets the
// members' range [*members_begin, *members_end), *period to PERIOD's value
// (untouched when absent), *snapshot when given.
[[nodiscard]] std::string_view ParseRanksArgs(std::span<const std::string_view> args,
                                              size_t* members_begin, size_t* members_end,
                                              RankMode* mode, std::string_view* period,
                                              bool* snapshot);

// LB.ADD key [PERIOD p] [NX|XX] [SET|BEST|INCR] [AT unix-ms] score member [META bytes]
// [score member [META bytes] ...]. ("META" is never a score, so a pair's
// META is unambiguous.)
struct LbAddArgs {
  enum class Op { kSet, kBest, kIncr };
  Op op = Op::kSet;
  bool nx = false, xx = false;
  bool has_at = false;
  int64_t at_ms = 0;
  std::string_view period;  // PERIOD p (issue 33): a closed, kept period; empty: current
  size_t pairs = 0;
  std::vector<size_t> score_at;  // per pair: index of its score (member at +1)
  std::vector<size_t> meta_at;   // per pair: index of its META value, 0: none
};
// Checks flags, conflicts, AT's integer and the pair count (not the scores).
[[nodiscard]] std::string_view ParseLbAddArgs(std::span<const std::string_view> args,
                                              LbAddArgs* out);

}  // namespace rankd
