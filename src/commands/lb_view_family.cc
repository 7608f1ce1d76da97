// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Stable views of leaderboards (issue 17, docs/leaderboards.md "Stable
// views"):
//
//   LB.SNAPSHOT key
//     Freezes the board as it is now in its view (replacing any earlier
//     one); reads with the flag SNAPSHOT answer from it (lb_read.h) while
//     writes go on. Replies the number of members in the view; 0 for a
//     missing key (no view is made). Propagated as received, so the log and
//     the replicas take the same view at the same point of the stream. Not a
//     modification: WATCH and LB.WATCH do not see it; it publishes
//     "lb.snapshot" and invalidates the key in CLIENT TRACKING caches.
//
// LB.CREATE key ... SNAPSHOT EVERY seconds (lb_period_family.cc) makes the
// keyspace take one whenever the view is older than that (db/database.h),
// on the primary only, which logs and replicates it as LB.SNAPSHOT.
// The view itself lives in the board (core/board_snapshot.h): it costs
// memory per member changed since the snapshot, never a copy of the board.
// Views are not persisted: a log replay skips LB.SNAPSHOT (no view survives
// a restart), and snapshots and full resyncs do not carry them.

#include "base/clock.h"
#include "commands/families.h"
#include "commands/lb_args.h"
#include "commands/zset_common.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

void LbSnapshot(CommandContext& ctx) {
  bool wrong_type;
  SortedSet* z = FindZSetWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!z) return ctx.reply.Integer(0);
  if (!z->board()) return ctx.reply.Error(err::kLbPlainWrite);
  if (ctx.server.period_rolls_held()) return ctx.reply.Integer(0);  // replaying the log
  z->BoardTakeView(WallMs());
  ctx.server.ViewTaken(ctx.client.db_index, ctx.arg(1));
  ctx.server.Propagate(ctx.client, ctx.args);
  ctx.reply.Integer(static_cast<int64_t>(z->size()));
}

constexpr CommandSpec kLeaderboardViewCommands[] = {
    // name         arity flags                       first last step handler
    {"lb.snapshot", 2,    kWrite | kDenyOom | kFast,  1,    1,   1,   &LbSnapshot},
};

}  // namespace

std::span<const CommandSpec> LeaderboardViewCommands() { return kLeaderboardViewCommands; }

}  // namespace rankd
