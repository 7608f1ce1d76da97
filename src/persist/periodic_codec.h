// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The periods of a periodic leaderboard in a snapshot (issue 17): one
// format::kOpPeriodic item right after the board's entry (which holds its
// open period), whose value is this blob:
//
//   blob    := unit (1) seconds (varint) zone (lp) week_starts_sunday (1)
//              retain+1 (varint, 0 = keep all) open_index (fixed64, two's
//              complement) closed (varint) closed x period
//   period  := index (fixed64) next_seq (varint) count (varint)
//              count x (member (lp) score (double) seq (varint) ms (fixed64))
//              metas (varint) metas x (member (lp) bytes (lp))
//
// Closed periods have the board's policy and no member deadlines (frozen).
// The zone is loaded by name from the system's zone database on load.

#pragma once

#include <string>
#include <string_view>

#include "core/sorted_set.h"

namespace rankd {

// The blob for periodic board `z`. REQUIRES: z.periodic() != nullptr.
std::string EncodePeriodic(const SortedSet& z);

// Attaches the periods in `blob` to board `z`, the entry just loaded (null:
// only check the blob). Returns "" or what is wrong with it.
std::string DecodePeriodic(std::string_view blob, SortedSet* z);

// The blob of a board's view schedule (format::kOpBoardViews), and
// applying one to board `z` (null: only check it). "" or what is wrong.
std::string EncodeBoardViews(const SortedSet& z);
std::string DecodeBoardViews(std::string_view blob, SortedSet* z);

}  // namespace rankd
