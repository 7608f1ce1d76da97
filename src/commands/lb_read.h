// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// What every LB.* read shares (leaderboard_family.cc, lb_period_family.cc):
// opening the board to read, with the period a periodic board is read at,
// and the reply shape of rows.
//
// Periods (issue 17, docs/leaderboards.md "Periodic leaderboards"): a read
// of a periodic board sees one period, `PERIOD p` or the current one:
//   0, -1, -2, ...   the current period, the one before it, ... (calendar
//                    periods: a period nobody wrote reads as an empty board)
//   <period id>      that period (core/period_calendar.h: "2026-03-08",
//                    "2026-03", or a unix-ms instant for seconds periods)
// A period that is not kept (older than RETAIN, or after the current one)
// is an error, as is PERIOD on a key that is not a periodic board.
//
// Stable views (issue 17, docs/leaderboards.md "Stable views"): with the
// flag SNAPSHOT a read answers from the board's view (LB.SNAPSHOT, SNAPSHOT
// EVERY) instead of the live board. No view (none taken, a plain sorted
// set, or a periodic board whose view's period has ended) is an error;
// SNAPSHOT with PERIOD too. A missing key replies as without SNAPSHOT.

#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/leaderboard.h"
#include "core/periodic_board.h"
#include "net/reply.h"
#include "server/command.h"

namespace rankd {

// What a read replies when there is nothing to read: the key is missing, or
// the request selects nothing whatever the board holds.
enum class Nothing { kNull, kEmptyArray, kRankOne, kNoSuchKey };

// How a read opens its board.
struct BoardRead {
  // The trailing options start at args[options_from] (0: the caller parsed
  // them and set *mode, `period` and `snapshot`). Which are accepted:
  // PERIOD and SNAPSHOT always, MODE when `mode`, OFFSET when `offset`,
  // WITHMETA when `with_meta`.
  size_t options_from = 0;
  bool mode = true;
  int64_t* offset = nullptr;
  bool* with_meta = nullptr;
  Nothing nothing = Nothing::kNull;
  bool selects_nothing = false;  // reply `nothing` whatever the board holds
  std::string_view period = {};  // PERIOD's value (a null view when absent)
  bool snapshot = false;         // SNAPSHOT: read the board's view
};

// The period a read of a periodic board resolved to.
struct PeriodAt {
  const PeriodicBoard* periodic = nullptr;  // null: not a periodic board
  int64_t index = 0;                        // the period read
  int64_t current = 0;                      // the current period
};

// The preamble every LB.* read shares, in this order: the trailing options,
// WRONGTYPE for args[1], the `nothing` reply for a missing key or when
// selects_nothing, the period (errors above), and DENSE on a plain sorted
// set. Returns the view to operate on (valid until the next write), or
// nullopt when it has replied. *mode is ORDINAL unless MODE says otherwise.
std::optional<BoardView> OpenBoardForRead(CommandContext& ctx, BoardRead r, RankMode* mode,
                                          PeriodAt* at = nullptr);

// Resolves `ref` (see above; a null view means 0) on periodic board `z` at the
// period clock's now. Returns an error text, or "" with *out set to the
// period's members (an empty board when none are stored).
[[nodiscard]] std::string_view ResolvePeriod(const SortedSet& z, std::string_view ref,
                                             const SortedSet** out, PeriodAt* at);

// [rank, member, score], and with `meta_of` the member's metadata as it
// reads it (a view's, for SNAPSHOT), or nil.
void ReplyRow(ReplyBuilder& r, uint64_t rank, std::string_view member, double score,
              const BoardView* meta_of = nullptr);
// Rows for positions [first, last] (none when first > last); WITHMETA rows
// when `with_meta`.
void ReplyRows(ReplyBuilder& r, const BoardView& v, uint64_t first, uint64_t last, RankMode mode,
               bool with_meta = false);

}  // namespace rankd
