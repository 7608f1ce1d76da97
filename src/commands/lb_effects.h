// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// How writes to a leaderboard reach the append-only log exactly. A board
// write takes a new sequence number and the wall time, so replaying the
// command as received would stamp members with the replay's time. Writers
// (LB.ADD, and ZADD / ZINCRBY on a board) therefore propagate the state they
// produced instead:
//
//   LB.LOAD key ORDER <o> TIES <t> NEXTSEQ <n> [score member seq ms ...]
//
// which sets each listed member to exactly that score and stamp (creating
// the board with that policy if needed) and raises the board's sequence
// counter to n. Scores are written with 17 significant digits (exact).

#pragma once

#include <span>
#include <string_view>

#include "core/sorted_set.h"
#include "server/command.h"

namespace rankd {

// Propagates `members` of board `z` at `key` (their current score and
// stamp; absent ones are skipped; duplicates are fine) as one LB.LOAD.
// With `period_id`, `z` is that closed period of the periodic board at
// `key` (LB.ADD ... PERIOD, issue 33), written as LB.LOAD key PERIOD id ....
// REQUIRES: z.board() != nullptr.
void PropagateBoardMembers(CommandContext& ctx, std::string_view key, const SortedSet& z,
                           std::span<const std::string_view> members,
                           std::string_view period_id = {});

// Propagates the metadata of `members` of `z` (issue 17, LB.ADD ... META)
// as one `LB.SETMETA key member bytes ...` (nothing when `members` is
// empty; a member without metadata is written with empty bytes, which
// removes it).
void PropagateBoardMeta(CommandContext& ctx, std::string_view key, const SortedSet& z,
                        std::span<const std::string_view> members);

}  // namespace rankd
