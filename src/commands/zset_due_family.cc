// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Due-item pops for delay queues (issue 17, seed 004): a sorted set whose
// scores are Unix times is a queue of items that become due at those
// times. Instead of polling ZRANGEBYSCORE key -inf now and racing other
// consumers to ZREM, a consumer pops what is due atomically:
//
//   ZPOPDUE key [COUNT count] [NOW time] [UNIT MS|S]
//     Pops the members with score <= now (the server's clock, or NOW),
//     lowest first: without COUNT at most one, as ZPOPMIN key (a flat
//     [member, score] or an empty array); with COUNT up to count, as
//     ZPOPMIN key count (RESP3: [member, score] pairs).
//   BZPOPDUE key [key ...] timeout [UNIT MS|S]
//     As BZPOPMIN, but serves only a member that is due: [key, member,
//     score] from the first key (in argument order) holding one. Otherwise
//     the client blocks until a write or the earliest score among its keys
//     makes one due (a timer on that time, re-armed on every retry: no
//     polling), or the timeout passes (null array).
//
// UNIT (issue 33) says what the scores count: milliseconds (MS, the
// default) or seconds (S; fractions allowed) since the Unix epoch; NOW is
// in the same unit. BZPOPDUE's UNIT follows the timeout: a last argument
// that is not a number after the word UNIT is the option, not a timeout
// (a key named UNIT stays a key: its timeout is a number).
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

// The clock on a queue's scale: milliseconds, or seconds (kMsPerUnit).
struct DueClock {
  double ms_per_unit = 1;
  double Now() const { return static_cast<double>(WallMs()) / ms_per_unit; }
};

std::string_view ParseUnit(std::string_view arg, DueClock* clock) {
  if (EqualsIgnoreCase(arg, "ms")) clock->ms_per_unit = 1;
  else if (EqualsIgnoreCase(arg, "s")) clock->ms_per_unit = 1000;
  else return err::kDueUnit;
  return {};
}

struct DueArgs {
  bool has_count = false;
  uint64_t count = 1;
  bool has_now = false;
  double now = 0;  // in the queue's unit
  DueClock clock;
};

// The options after the key, in any order, the last of a repeated one
// winning (as ZADD's flags).
std::string_view ParseDueArgs(Args args, DueArgs* out) {
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
      out->has_now = true;
      out->now = static_cast<double>(v);
    } else if (EqualsIgnoreCase(args[i], "unit")) {
      if (std::string_view e = ParseUnit(args[i + 1], &out->clock); !e.empty()) return e;
    } else {
      return err::kSyntax;
    }
  }
  if (!out->has_now) out->now = out->clock.Now();
  return {};
}

// BZPOPDUE's trailing UNIT: true (and the unit parsed into *clock, or an
// error in *error) when the line ends with UNIT <not a number>.
bool TrailingUnit(Args args, DueClock* clock, std::string_view* error) {
  if (!DueTrailingUnit(args)) return false;
  *error = ParseUnit(args.back(), clock);
  return true;
}

// Logs the popped members as one ZREM.
void PropagateRemoval(CommandContext& ctx, std::string_view key, const ScoredMembers& popped) {
  std::vector<std::string_view> args = {"ZREM", key};
  for (const auto& [member, score] : popped) args.push_back(member);
  ctx.server.Propagate(ctx.client, args);
}

// How many members of `z` are due at `now` (on the scores' scale).
uint64_t DueCount(const SortedSet& z, double now) {
  return z.ScoreUpperRank(now, /*exclusive=*/false);
}

void ZPopDue(CommandContext& ctx) {
  DueArgs a;
  if (std::string_view e = ParseDueArgs(ctx.args, &a); !e.empty()) return ctx.reply.Error(e);
  bool wrong_type;
  SortedSet* z = FindZSetWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  const uint64_t n = z ? std::min(a.count, DueCount(*z, a.now)) : 0;
  if (n == 0) return ctx.reply.EmptyArray();
  std::string key(ctx.arg(1));
  ScoredMembers popped = PopEnd(ctx, key, z, /*from_top=*/false, n, "zpopdue");
  PropagateRemoval(ctx, key, popped);
  const ListShape shape = a.has_count && ctx.reply.resp3() ? ListShape::kPairs : ListShape::kFlat;
  ReplyList(ctx.reply, popped, shape);
}

void BZPopDue(CommandContext& ctx) {
  DueClock clock;
  std::string_view unit_error;
  const size_t opts = TrailingUnit(ctx.args, &clock, &unit_error) ? 2 : 0;
  if (!unit_error.empty()) return ctx.reply.Error(unit_error);
  const size_t timeout_at = ctx.argc() - 1 - opts;
  int64_t timeout_ms;
  if (std::string_view e = ParseTimeout(ctx.arg(timeout_at), &timeout_ms); !e.empty()) {
    return ctx.reply.Error(e);
  }
  Args keys = ctx.args.subspan(1, timeout_at - 1);
  const double now = clock.Now();
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
  const double earliest_ms = earliest * clock.ms_per_unit;
  const int64_t wake = std::isfinite(earliest_ms) && earliest_ms < 9e15
                           ? static_cast<int64_t>(std::ceil(earliest_ms)) : 0;
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
