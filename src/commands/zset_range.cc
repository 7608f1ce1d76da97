// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The ZRANGE family. Every form reduces to one RankSlice of the counted tree
// (SelectRange), so a deep page (LIMIT 100000 10) costs O(log n + count):
// Redis walks the offset, we compute the rank.

#include "commands/lb_store.h"
#include "commands/zset_common.h"
#include "commands/zset_handlers.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

using By = ZRangeArgs::By;

void RangeGeneric(CommandContext& ctx, const ZRangeForm& form) {
  ZRangeArgs a;
  if (std::string_view e = ParseZRangeArgs(ctx.args, 1, form, &a); !e.empty()) {
    return ctx.reply.Error(e);
  }
  bool wrong_type;
  SortedSet* z = FindZSetRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ListShape shape = MaybeScores(ctx.reply, a.withscores);
  if (!z) return ReplyListHeader(ctx.reply, 0, shape);
  RankSlice s = SelectRange(*z, a);
  ReplyRankRange(ctx.reply, *z, s.first, s.count, s.reverse, shape);
}

}  // namespace

// ZRANGE key start stop [BYSCORE|BYLEX] [REV] [LIMIT offset count] [WITHSCORES]
void ZRange(CommandContext& ctx) { RangeGeneric(ctx, {}); }

// ZREVRANGE key start stop [WITHSCORES]
void ZRevRange(CommandContext& ctx) {
  RangeGeneric(ctx, {.by_fixed = true, .by = By::kRank, .reverse_fixed = true, .reverse = true});
}

// ZRANGEBYSCORE key min max [WITHSCORES] [LIMIT offset count]
void ZRangeByScore(CommandContext& ctx) {
  RangeGeneric(ctx, {.by_fixed = true, .by = By::kScore, .reverse_fixed = true});
}

// ZREVRANGEBYSCORE key max min [WITHSCORES] [LIMIT offset count]
void ZRevRangeByScore(CommandContext& ctx) {
  RangeGeneric(ctx, {.by_fixed = true, .by = By::kScore, .reverse_fixed = true, .reverse = true});
}

// ZRANGEBYLEX key min max [LIMIT offset count]
void ZRangeByLex(CommandContext& ctx) {
  RangeGeneric(ctx, {.by_fixed = true, .by = By::kLex, .reverse_fixed = true});
}

// ZREVRANGEBYLEX key max min [LIMIT offset count]
void ZRevRangeByLex(CommandContext& ctx) {
  RangeGeneric(ctx, {.by_fixed = true, .by = By::kLex, .reverse_fixed = true, .reverse = true});
}

// ZRANGESTORE dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count]
void ZRangeStore(CommandContext& ctx) {
  ZRangeArgs a;
  if (std::string_view e = ParseZRangeArgs(ctx.args, 2, {.store = true}, &a); !e.empty()) {
    return ctx.reply.Error(e);
  }
  bool wrong_type;
  SortedSet* src = FindZSetRead(ctx, ctx.arg(2), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  // Copy before writing: src and dst may be the same key.
  ScoredMembers items;
  if (src) items = CopySlice(*src, SelectRange(*src, a));
  // Redis 7.0 starts a rank range's result as a skiplist when its length is
  // known to exceed the limits, else (and for score / lex ranges) as a
  // listpack it fills in order.
  const SortedSetLimits limits = ctx.server.zset_limits();
  const BuildOrder order = a.by == ZRangeArgs::By::kRank && items.size() > limits.max_compact_entries
                               ? BuildOrder::kWhole
                               : BuildOrder::kSequential;
  StoreZSetResult(ctx, ctx.arg(1), "zrangestore", items, order);  // a board stays one (lb_store.h)
}

}  // namespace rankd
