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

namespace rankd {

namespace err {
inline constexpr std::string_view kLbPlainDense =
    "ERR DENSE ranks need a leaderboard: the key holds a plain sorted set (see LB.CREATE)";
inline constexpr std::string_view kLbPlainOrdinalRankFor =
    "ERR ORDINAL RANKFOR needs a leaderboard's tie order: the key holds a plain sorted set "
    "(use MODE COMPETITION)";
inline constexpr std::string_view kLbPlainWrite =
    "ERR the key holds a plain sorted set, not a leaderboard (LB.CREATE a new key)";
inline constexpr std::string_view kLbPolicyMismatch =
    "ERR the leaderboard exists with another ORDER or TIES";
inline constexpr std::string_view kLbRankPositive = "ERR rank must be a positive integer";
}  // namespace err

// [ORDER DESC|ASC] [TIES FIRST|LAST] in any order, from args[from].
[[nodiscard]] std::string_view ParseBoardPolicy(std::span<const std::string_view> args,
                                                size_t from, BoardPolicy* out);

// Trailing options of the read commands: MODE m, for LB.TOP OFFSET n, and
// for the row listings WITHMETA. Parses args[from..]; a null `offset` /
// `with_meta` means that option is not accepted.
[[nodiscard]] std::string_view ParseRankOptions(std::span<const std::string_view> args,
                                                size_t from, RankMode* mode, int64_t* offset,
                                                bool* with_meta = nullptr);

// LB.RANKS key member [member ...] [MODE m]: the arguments end with a MODE
// option when the second-to-last one is MODE (any case) and at least one
// member precedes it; sets *members_end to the index after the last member.
[[nodiscard]] std::string_view ParseRanksArgs(std::span<const std::string_view> args,
                                              size_t* members_end, RankMode* mode);

// LB.ADD key [NX|XX] [SET|BEST|INCR] [AT unix-ms] score member [META bytes]
// [score member [META bytes] ...]. ("META" is never a score, so a pair's
// META is unambiguous.)
struct LbAddArgs {
  enum class Op { kSet, kBest, kIncr };
  Op op = Op::kSet;
  bool nx = false, xx = false;
  bool has_at = false;
  int64_t at_ms = 0;
  size_t pairs = 0;
  std::vector<size_t> score_at;  // per pair: index of its score (member at +1)
  std::vector<size_t> meta_at;   // per pair: index of its META value, 0: none
};
// Checks flags, conflicts, AT's integer and the pair count (not the scores).
[[nodiscard]] std::string_view ParseLbAddArgs(std::span<const std::string_view> args,
                                              LbAddArgs* out);

}  // namespace rankd
