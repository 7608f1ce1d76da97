// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Live top-N of leaderboards (issue 17, docs/leaderboards.md):
//
//   LB.WATCH key TOP n [MODE ORDINAL|COMPETITION|DENSE]
//     Watches the top n rows (1..1000) of `key` in the selected database.
//     Replies ["lb.watch", key, boards watched] and then the current top as
//     ["lb.top", key, rows]; afterwards an "lb.top" message whenever those
//     rows change, coalesced per lb-watch-interval (server/board_watch.h).
//   LB.UNWATCH [key ...]
//     Stops watching the keys (all without keys); ["lb.unwatch", key, n]
//     for each.
//
// As SUBSCRIBE: RESP3 pushes, or in RESP2 the subscribed context; refused
// in scripts; inside MULTI it runs at EXEC (its confirmation is EXEC's
// element; the snapshot follows EXEC's reply).

#include "base/numbers.h"
#include "commands/families.h"
#include "commands/lb_args.h"
#include "commands/zset_common.h"
#include "server/board_watch.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

void LbWatch(CommandContext& ctx) {
  if (!EqualsIgnoreCase(ctx.arg(2), "TOP")) return ctx.reply.Error(err::kSyntax);
  int64_t n;
  if (!ParseInt64(ctx.arg(3), &n)) return ctx.reply.Error(err::kNotInteger);
  if (n < 1 || n > BoardWatch::kMaxTop) return ctx.reply.Error(err::kLbWatchTop);
  RankMode mode = RankMode::kOrdinal;
  if (std::string_view e = ParseRankOptions(ctx.args, 4, &mode, nullptr); !e.empty()) {
    return ctx.reply.Error(e);
  }
  bool wrong_type;
  const SortedSet* z = FindBoardRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (z && !z->board() && mode == RankMode::kDense) return ctx.reply.Error(err::kLbPlainDense);
  ctx.server.board_watch().Watch(ctx.client, ctx.client.db_index, ctx.arg(1),
                                 static_cast<uint32_t>(n), mode, /*defer_snapshot=*/ctx.no_block);
}

void LbUnwatch(CommandContext& ctx) {
  BoardWatch& w = ctx.server.board_watch();
  if (ctx.argc() == 1) return w.UnwatchAll(ctx.client);
  for (size_t i = 1; i < ctx.argc(); i++) w.Unwatch(ctx.client, ctx.client.db_index, ctx.arg(i));
}

constexpr CommandSpec kLeaderboardWatchCommands[] = {
    //  name          arity  flags                  first last step handler
    {"lb.watch",      -4,    kReadOnly | kNoScript, 1,    1,   1,   &LbWatch},
    {"lb.unwatch",    -1,    kNoScript,             1,    -1,  1,   &LbUnwatch},
};

}  // namespace

std::span<const CommandSpec> LeaderboardWatchCommands() { return kLeaderboardWatchCommands; }

}  // namespace rankd
