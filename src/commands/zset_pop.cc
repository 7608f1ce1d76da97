// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// ZPOPMIN / ZPOPMAX / ZMPOP and their blocking forms. A pop copies the
// members it takes before removing them (views die with the mutation), and
// deletes a set it empties. Pops that a replay could not repeat exactly (a
// blocking pop served later, ZMPOP picking among keys) are propagated as
// ZPOPMIN / ZPOPMAX key count, as Redis rewrites them.
//
// Blocking follows Server::Block: when nothing can be served the handler
// blocks and returns without replying; when a key is touched the server
// retries the same command with retrying_blocked set, and a retry that still
// cannot serve returns silently. Inside MULTI / scripts (no_block) the reply
// is the timeout's null array.

#include <string>
#include <vector>

#include "base/numbers.h"
#include "commands/zset_args.h"
#include "commands/zset_common.h"
#include "commands/zset_handlers.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

enum class End { kMin, kMax };

std::string_view PopEvent(End end) { return end == End::kMin ? "zpopmin" : "zpopmax"; }

// Logs the effect as "ZPOPMIN|ZPOPMAX key [count]".
void PropagatePop(CommandContext& ctx, std::string_view key, End end, const uint64_t* count) {
  std::string n = count ? FormatInt64(static_cast<int64_t>(*count)) : std::string();
  std::vector<std::string_view> args = {end == End::kMin ? "ZPOPMIN" : "ZPOPMAX", key};
  if (count) args.push_back(n);
  ctx.server.Propagate(ctx.client, args);
}

// ZPOPMIN / ZPOPMAX key [count]
void PopGeneric(CommandContext& ctx, End end) {
  if (ctx.argc() > 3) return ctx.reply.Error(err::kSyntax);
  int64_t count = -1;  // -1: no count argument (a flat reply of one pair)
  if (ctx.argc() == 3 && (!ParseInt64(ctx.arg(2), &count) || count < 0)) {
    return ctx.reply.Error(err::kCountNegative);
  }
  bool wrong_type;
  SortedSet* z = FindZSetWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!z || count == 0) return ctx.reply.EmptyArray();
  ScoredMembers popped =
      PopEnd(ctx, ctx.arg(1), z, end == End::kMax, count < 0 ? 1 : count, PopEvent(end));
  ListShape shape = count >= 0 && ctx.reply.resp3() ? ListShape::kPairs : ListShape::kFlat;
  ReplyList(ctx.reply, popped, shape);
}

// Pops from the first key holding a sorted set (a retried blocked client:
// from the key that became ready, ServeKeys). Returns false (without
// replying) when none does; replies with the error on WRONGTYPE, except
// while a blocked client is retried, when a key of another type is skipped
// as Redis only serves blocked clients from keys that hold sorted sets.
// `flat_single` selects BZPOPMIN's reply [key, member, score]; otherwise the
// ZMPOP reply [key, [[member, score], ...]].
bool ServeFirst(CommandContext& ctx, Args keys, End end, int64_t count, bool flat_single) {
  for (std::string_view key : ctx.ServeKeys(keys)) {
    bool wrong_type;
    SortedSet* z = FindZSetWrite(ctx, key, &wrong_type);
    if (wrong_type) {
      if (ctx.retrying_blocked) continue;
      ctx.reply.Error(err::kWrongType);
      return true;
    }
    if (!z || z->empty()) continue;
    const uint64_t n = std::min<uint64_t>(count, z->size());
    std::string key_copy(key);
    ScoredMembers popped = PopEnd(ctx, key_copy, z, end == End::kMax, n, PopEvent(end));
    if (flat_single) {
      ctx.reply.ArrayHeader(3);
      ctx.reply.Bulk(key_copy);
      ReplyListItem(ctx.reply, popped[0].first, popped[0].second, ListShape::kFlat);
      PropagatePop(ctx, key_copy, end, nullptr);
    } else {
      ctx.reply.ArrayHeader(2);
      ctx.reply.Bulk(key_copy);
      ReplyList(ctx.reply, popped, ListShape::kPairs);
      PropagatePop(ctx, key_copy, end, &n);
    }
    return true;
  }
  return false;
}

void BlockOrNull(CommandContext& ctx, Args keys, int64_t timeout_ms) {
  if (ctx.no_block) return ctx.reply.NullArray();
  ctx.server.Block(ctx, keys, timeout_ms);
}

// BZPOPMIN / BZPOPMAX key [key ...] timeout
void BPopGeneric(CommandContext& ctx, End end) {
  int64_t timeout_ms;
  if (std::string_view e = ParseTimeout(ctx.args.back(), &timeout_ms); !e.empty()) {
    return ctx.reply.Error(e);
  }
  Args keys = ctx.args.subspan(1, ctx.argc() - 2);
  if (ServeFirst(ctx, keys, end, 1, true)) return;
  BlockOrNull(ctx, keys, timeout_ms);
}

}  // namespace

void ZPopMin(CommandContext& ctx) { PopGeneric(ctx, End::kMin); }
void ZPopMax(CommandContext& ctx) { PopGeneric(ctx, End::kMax); }
void BZPopMin(CommandContext& ctx) { BPopGeneric(ctx, End::kMin); }
void BZPopMax(CommandContext& ctx) { BPopGeneric(ctx, End::kMax); }

// ZMPOP numkeys key [key ...] MIN|MAX [COUNT count]
void ZMPop(CommandContext& ctx) {
  MPopArgs a;
  if (std::string_view e = ParseMPop(ctx.args, 1, "min", "max", &a); !e.empty()) {
    return ctx.reply.Error(e);
  }
  if (!ServeFirst(ctx, a.keys, a.from_last ? End::kMax : End::kMin, a.count, false)) {
    ctx.reply.NullArray();
  }
}

// BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count]
void BZMPop(CommandContext& ctx) {
  MPopArgs a;
  if (std::string_view e = ParseMPop(ctx.args, 2, "min", "max", &a); !e.empty()) {
    return ctx.reply.Error(e);
  }
  int64_t timeout_ms;
  if (std::string_view e = ParseTimeout(ctx.arg(1), &timeout_ms); !e.empty()) {
    return ctx.reply.Error(e);
  }
  if (ServeFirst(ctx, a.keys, a.from_last ? End::kMax : End::kMin, a.count, false)) return;
  BlockOrNull(ctx, a.keys, timeout_ms);
}

}  // namespace rankd
