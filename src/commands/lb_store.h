// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The end of every store command (ZUNIONSTORE, ZINTERSTORE, ZDIFFSTORE,
// ZRANGESTORE): replacing the destination with the result.
//
// A plain destination (or a missing one, or another type) is replaced as in
// Redis: an empty result deletes it, otherwise it becomes a new plain sorted
// set built by BuildZSet. A destination that currently is a leaderboard
// (issue 7, docs/leaderboards.md) stays one: its moment of reaching a score
// is taken whenever a member's score changes, set algebra into the key
// included. So the result becomes a board with the destination's policy in
// which
//   * a member already in the board with a score that compares equal (==)
//     keeps its stamp {seq, ms};
//   * every other member (changed score, or new) takes a new sequence from
//     the board's counter, in the result's ascending (score, member bytes)
//     order, all stamped with the command's wall time;
//   * members not in the result are gone, and the counter never goes back;
//   * a SNAPSHOT EVERY schedule stays, a stable view does not (the board is
//     replaced; the next scheduled lookup takes a new one).
// An empty result still deletes the destination (Redis's rule; the policy
// goes with it, as when a board is emptied by ZREM).
//
// The log: the board store is written as `DEL dst` followed by the LB.LOAD
// of the whole new board (server/lb_effects.h), and the LB.CREATE of its
// view schedule if any, in the command's batch, so a replay rebuilds exactly
// these stamps, counter and schedule. Other stores are logged
// as received (they replay to the same state).

#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "commands/zset_common.h"
#include "core/sorted_set.h"
#include "server/command.h"

namespace rankd {

// The board that replaces board `old` with `result` (see above), stamped at
// `now_ms`. `result` lists distinct members, in any order.
// REQUIRES: old.board() != nullptr; no NaN score in `result`.
std::unique_ptr<SortedSet> RestampedBoard(const SortedSet& old, const ScoredMembers& result,
                                          int64_t now_ms);

// Replaces `dst` with a store command's result as described above and
// replies with the result's size. `order` is how Redis would build a plain
// result (zset_common.h). The inputs must not be used afterwards: `dst` may
// be one of them.
void StoreZSetResult(CommandContext& ctx, std::string_view dst, std::string_view event,
                     const ScoredMembers& result,
                     BuildOrder order);

// LB.CREATE key ... ADOPT on a plain sorted set (issue 33): the set becomes
// a board with `policy` in place (TTL, member deadlines kept), its ties in
// the order they list now (the board's direction: ZREVRANGE's for DESC,
// ZRANGE's for ASC), every member stamped now with sequences 1..n in that
// order (reversed for TIES LAST). Logged as the replacement of the key
// (DEL, LB.LOADs, then the deadlines and TTL). Replies OK.
// REQUIRES: `key` holds a plain sorted set.
void AdoptPlainSet(CommandContext& ctx, std::string_view key, const BoardPolicy& policy,
                   int64_t snapshot_every_s);

}  // namespace rankd
