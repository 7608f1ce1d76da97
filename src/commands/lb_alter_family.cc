// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Operating an existing leaderboard (issue 33, docs/leaderboards.md
// "LB.ALTER"):
//
//   LB.ALTER key [SNAPSHOT EVERY seconds] [RETAIN n] [TZ zone]
//     Changes the view schedule, a periodic board's RETAIN or its zone,
//     keeping everything else (policy, members, periods). Options in any
//     order. A new zone keeps the periods' ids (a day stays the same
//     date) and moves the boundaries from now on: the open period ends
//     where the new zone says (rolled then, by the cron or a lookup). A
//     smaller RETAIN drops the closed periods it no longer keeps at once.
//     Deterministic, so logged and replicated as received.

#include <string>

#include "base/numbers.h"
#include "base/time_zone.h"
#include "commands/families.h"
#include "commands/lb_args.h"
#include "commands/zset_common.h"
#include "core/periodic_board.h"
#include "db/database.h"
#include "server/errors.h"
#include "server/keys_common.h"
#include "server/server.h"

namespace rankd {
namespace {

struct AlterArgs {
  int64_t snapshot_every_s = -1;  // -1: unchanged
  int64_t retain = -1;            // -1: unchanged
  bool has_zone = false;
  std::string_view zone;
};

std::string_view ParseAlterArgs(std::span<const std::string_view> args, AlterArgs* out) {
  for (size_t i = 2; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return err::kSyntax;
    const std::string_view opt = args[i], v = args[i + 1];
    if (EqualsIgnoreCase(opt, "SNAPSHOT")) {  // SNAPSHOT EVERY seconds
      if (!EqualsIgnoreCase(v, "EVERY") || i + 2 >= args.size()) return err::kSyntax;
      int64_t& every = out->snapshot_every_s;
      if (!ParseInt64(args[++i + 1], &every) || every < 0 || every > kMaxPeriodSeconds) {
        return err::kLbSnapshotEvery;
      }
    } else if (EqualsIgnoreCase(opt, "RETAIN")) {
      if (!ParseInt64(v, &out->retain) || out->retain < 0 || out->retain > 1000000) {
        return err::kLbRetain;
      }
    } else if (EqualsIgnoreCase(opt, "TZ")) {
      out->has_zone = true;
      out->zone = v;
    } else {
      return err::kSyntax;
    }
  }
  return "";
}

void LbAlter(CommandContext& ctx) {
  AlterArgs a;
  if (std::string_view e = ParseAlterArgs(ctx.args, &a); !e.empty()) return ctx.reply.Error(e);
  const std::string_view key = ctx.arg(1);
  bool wrong_type;
  SortedSet* z = FindZSetWrite(ctx, key, &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!z) return ctx.reply.Error(err::kNoSuchKey);
  if (!z->board()) return ctx.reply.Error(err::kLbPlainCreate);
  PeriodicBoard* p = z->periodic();
  const bool calendar = a.retain >= 0 || a.has_zone;
  if (calendar && !p) return ctx.reply.Error(err::kLbNotPeriodic);
  if (a.has_zone && p->spec().unit == PeriodUnit::kSeconds) {
    return ctx.reply.Error(err::kLbZoneNeedsCalendar);
  }
  absl::TimeZone tz = absl::UTCTimeZone();
  if (a.has_zone && !LoadZone(a.zone, &tz)) return ctx.reply.Error("ERR " + ZoneError(a.zone));
  if (calendar) {
    PeriodSpec spec = p->spec();
    if (a.retain >= 0) spec.retain = a.retain;
    if (a.has_zone) spec.zone = std::string(a.zone);
    // The board's own zone loaded when it was made: loading it again is a
    // cache hit (seconds periods ignore it).
    if (!a.has_zone && spec.unit != PeriodUnit::kSeconds) (void)LoadZone(spec.zone, &tz);
    p->SetCalendar(PeriodCalendar(spec, tz));
  }
  if (a.snapshot_every_s >= 0) {
    z->set_snapshot_every_ms(a.snapshot_every_s * 1000);
    if (a.snapshot_every_s > 0) ctx.db().NoteTimedBoard(key);
  }
  if (calendar) ctx.db().NoteTimedBoard(key);  // the cron rolls at the new boundary
  KeyChanged(ctx, ctx.db(), key, kNotifyZset, "lb.alter");  // logged as received
  ctx.reply.Ok();
}

constexpr CommandSpec kLeaderboardAlterCommands[] = {
    // name       arity flags                      first last step handler
    {"lb.alter",  -4,   kWrite | kDenyOom | kFast, 1,    1,   1,   &LbAlter},
};

}  // namespace

std::span<const CommandSpec> LeaderboardAlterCommands() { return kLeaderboardAlterCommands; }

}  // namespace rankd
