// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Due-item pops for delay queues (issue 17, seed 004): a sorted set whose
// scores are Unix times in milliseconds is a queue of items that become due
// at those times. Instead of polling ZRANGEBYSCORE key -inf now and racing
// other consumers to ZREM, a consumer pops what is due atomically:
//
//   ZPOPDUE key [COUNT count] [NOW unix-ms]
//     Pops the members with score <= now (the server's clock, or NOW),
//     lowest first: without COUNT at most one, as ZPOPMIN key (a flat
//     [member, score] or an empty array); with COUNT up to count, as
//     ZPOPMIN key count (RESP3: [member, score] pairs).
//   BZPOPDUE key [key ...] timeout
//     As BZPOPMIN, but serves only a member that is due: [key, member,
//     score] from the first key (in argument order) holding one. Otherwise
//     the client blocks until a write or the earliest score among its keys
//     makes one due (a timer on that time, re-armed on every retry: no
//     polling), or the timeout passes (null array).
//
// Both log their effect as ZREM key member ..., so a replay removes exactly
// what was popped whatever the clock says then.

#include <cmath>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/families.h"
#include "commands/zset_args.h"
#include "commands/zset_common.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

struct DueArgs {
  bool has_count = false;
  uint64_t count = 1;
  int64_t now_ms = 0;
};

// The options after the key, in any order, the last of a repeated one
// winning (as ZADD's flags).
std::string_view ParseDueArgs(Args args, DueArgs* out) {
  out->now_ms = WallMs();
  for (size_t i = 2; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return err::kSyntax;
    int64_t v;
    if (EqualsIgnoreCase(args[i], "count")) {
      if (!ParseInt64(args[i + 1], &v)) return err::kNotInteger;
      if (v < 0) return err::kCountNegative;
      out->has_count = true;
      out->count = static_cast<uint64_t>(v);
    } else if (EqualsIgnoreCase(args[i], "now")) {
      if (!ParseInt64(args[i + 1], &v)) return err::kNotInteger;
      out->now_ms = v;
    } else {
      return err::kSyntax;
    }
  }
  return {};
}

// Logs the popped members as one ZREM.
void PropagateRemoval(CommandContext& ctx, std::string_view key, const ScoredMembers& popped) {
  std::vector<std::string_view> args = {"ZREM", key};
  for (const auto& [member, score] : popped) args.push_back(member);
  ctx.server.Propagate(ctx.client, args);
}

// How many members of `z` are due at `now_ms`.
uint64_t DueCount(const SortedSet& z, int64_t now_ms) {
  return z.ScoreUpperRank(static_cast<double>(now_ms), /*exclusive=*/false);
}

void ZPopDue(CommandContext& ctx) {
  DueArgs a;
  if (std::string_view e = ParseDueArgs(ctx.args, &a); !e.empty()) return ctx.reply.Error(e);
  bool wrong_type;
  SortedSet* z = FindZSetWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  const uint64_t n = z ? std::min(a.count, DueCount(*z, a.now_ms)) : 0;
  if (n == 0) return ctx.reply.EmptyArray();
  std::string key(ctx.arg(1));
  ScoredMembers popped = PopEnd(ctx, key, z, /*from_top=*/false, n, "zpopdue");
  PropagateRemoval(ctx, key, popped);
  const ListShape shape = a.has_count && ctx.reply.resp3() ? ListShape::kPairs : ListShape::kFlat;
  ReplyList(ctx.reply, popped, shape);
}

void BZPopDue(CommandContext& ctx) {
  int64_t timeout_ms;
  if (std::string_view e = ParseTimeout(ctx.args.back(), &timeout_ms); !e.empty()) {
    return ctx.reply.Error(e);
  }
  Args keys = ctx.args.subspan(1, ctx.argc() - 2);
  const int64_t now = WallMs();
  double earliest = INFINITY;
  for (std::string_view key : keys) {
    bool wrong_type;
    SortedSet* z = FindZSetWrite(ctx, key, &wrong_type);
    if (wrong_type) {
      if (ctx.retrying_blocked) continue;  // as BZPOPMIN: only sorted sets serve
      return ctx.reply.Error(err::kWrongType);
    }
    if (!z || z->empty()) continue;
    if (DueCount(*z, now) == 0) {
      earliest = std::min(earliest, z->At(0).second);
      continue;
    }
    std::string key_copy(key);
    ScoredMembers popped = PopEnd(ctx, key_copy, z, /*from_top=*/false, 1, "zpopdue");
    ctx.reply.ArrayHeader(3);
    ctx.reply.Bulk(key_copy);
    ReplyListItem(ctx.reply, popped[0].first, popped[0].second, ListShape::kFlat);
    PropagateRemoval(ctx, key_copy, popped);
    return;
  }
  if (ctx.no_block) return ctx.reply.NullArray();
  // The first millisecond at which the earliest member is due.
  const int64_t wake = std::isfinite(earliest) && earliest < 9e15
                           ? static_cast<int64_t>(std::ceil(earliest)) : 0;
  ctx.server.Block(ctx, keys, timeout_ms, wake);
}

constexpr CommandSpec kZSetDueCommands[] = {
    //  name        arity  flags                                 first last step handler
    {"zpopdue",     -2,    kWrite | kFast,                       1,    1,   1,   &ZPopDue},
    {"bzpopdue",    -3,    kWrite | kNoScript | kFast | kBlocking, 1,  -2,  1,   &BZPopDue},
};

}  // namespace

std::span<const CommandSpec> ZSetDueCommands() { return kZSetDueCommands; }

}  // namespace rankd
