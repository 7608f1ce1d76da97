// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Creating leaderboards and their periods (issue 17, docs/leaderboards.md
// "Periodic leaderboards"):
//
//   LB.CREATE key [ORDER o] [TIES t] [PERIOD DAILY|WEEKLY|MONTHLY|seconds]
//             [TZ zone] [WEEKSTART MON|SUN] [RETAIN n] [NOW unix-ms]
//     An empty board; with PERIOD a periodic one whose open period is the
//     one holding NOW (default: the period clock). Logged with NOW, so a
//     replay opens the same period.
//   LB.INFO key [PERIOD p]
//     The board's policy and size; a periodic board's spec and the period
//     read.
//   LB.PERIODS key
//     The kept periods, newest first: [id, start-ms, end-ms, members, offset].
//     With SNAPSHOT EVERY seconds, the keyspace takes a stable view every
//     that many seconds (lb_view_family.cc); on an existing board with the
//     same other options it sets (0: stops) the schedule.
//   LB.INFO key [PERIOD p] [SNAPSHOT]
//     ... and, for a board with a view or a schedule, snapshot-every
//     (seconds), snapshot-at (unix ms of the view) and snapshot-changes
//     (members changed since); with SNAPSHOT, the view's size.
//   LB.ROLL key period-id
//     Closes the open period so that `period-id` is open (never backwards).
//     How the log and the replicas record a roll (the keyspace rolls a board
//     when it is looked up after its period ended: db/database.h).

#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/time_zone.h"
#include "commands/families.h"
#include "commands/lb_args.h"
#include "commands/lb_read.h"
#include "commands/lb_store.h"
#include "commands/zset_common.h"
#include "core/board_snapshot.h"
#include "db/database.h"
#include "server/errors.h"
#include "server/keys_common.h"
#include "server/server.h"

namespace rankd {
namespace {

void LbCreate(CommandContext& ctx) {
  LbCreateArgs a;
  if (std::string_view e = ParseLbCreateArgs(ctx.args, &a); !e.empty()) {
    return ctx.reply.Error(e);
  }
  absl::TimeZone zone = absl::UTCTimeZone();
  if (a.periodic && !LoadZone(a.period.zone, &zone)) {
    return ctx.reply.Error("ERR " + ZoneError(a.period.zone));
  }
  bool wrong_type;
  SortedSet* z = FindZSetWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (z && !z->board() && a.adopt) return AdoptPlainSet(ctx, ctx.arg(1), a.policy, a.snapshot_every_s);
  if (z) {
    if (!z->board()) return ctx.reply.Error(err::kLbPlainCreate);
    if (*z->board() != a.policy) return ctx.reply.Error(err::kLbPolicyMismatch);
    const PeriodicBoard* p = z->periodic();
    if (a.periodic != (p != nullptr) || (p && p->spec() != a.period)) {
      return ctx.reply.Error(err::kLbPeriodMismatch);
    }
    if (a.snapshot_every_s >= 0 && a.snapshot_every_s * 1000 != z->snapshot_every_ms()) {
      z->set_snapshot_every_ms(a.snapshot_every_s * 1000);
      if (a.snapshot_every_s > 0) ctx.db().NoteTimedBoard(ctx.arg(1));
      KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyZset, "lb.create");  // logged as received
    }
    return ctx.reply.Ok();  // idempotent
  }
  std::unique_ptr<SortedSet> board = SortedSet::NewBoard(a.policy);
  if (a.snapshot_every_s > 0) board->set_snapshot_every_ms(a.snapshot_every_s * 1000);
  const int64_t now = a.has_now ? a.now_ms : PeriodNowMs();
  if (a.periodic) {
    PeriodCalendar calendar(a.period, zone);
    board->SetPeriodic(std::make_unique<PeriodicBoard>(calendar, calendar.IndexAt(now)));
  }
  ctx.db().Insert(ctx.arg(1), Value(std::move(board)));
  KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyZset, "lb.create");
  if (a.periodic && !a.has_now) {
    std::vector<std::string_view> args(ctx.args.begin(), ctx.args.end());
    const std::string now_text = std::to_string(now);
    args.insert(args.end(), {"NOW", now_text});
    ctx.server.Propagate(ctx.client, args);
  }
  ctx.reply.Ok();
}

void LbInfo(CommandContext& ctx) {
  bool wrong_type;
  RankMode mode;
  PeriodAt at;
  std::optional<BoardView> opened = OpenBoardForRead(
      ctx, {.options_from = 2, .mode = false, .nothing = Nothing::kNoSuchKey}, &mode, &at);
  if (!opened) return;
  const BoardView& v = *opened;
  const SortedSet& z = *FindBoardRead(ctx, ctx.arg(1), &wrong_type);
  const BoardSnapshot* view = z.board_snapshot();
  const bool views = view || z.snapshot_every_ms() > 0;
  ctx.reply.MapHeader((at.periodic ? 14 : 6) + (views ? 3 : 0));
  ctx.reply.Bulk("board");
  ctx.reply.Integer(v.is_board() ? 1 : 0);
  ctx.reply.Bulk("order");
  ctx.reply.Bulk(OrderName(v.policy().order));
  ctx.reply.Bulk("ties");
  ctx.reply.Bulk(v.is_board() ? TiesName(v.policy().ties) : "member");
  ctx.reply.Bulk("size");
  ctx.reply.Integer(static_cast<int64_t>(v.size()));
  ctx.reply.Bulk("distinct");
  if (v.is_board()) ctx.reply.Integer(static_cast<int64_t>(v.Distinct()));
  else ctx.reply.Null();
  ctx.reply.Bulk("next-seq");
  if (!v.is_board()) ctx.reply.Null();
  else if (v.snapshot()) ctx.reply.Integer(static_cast<int64_t>(v.snapshot()->next_seq()));
  else ctx.reply.Integer(static_cast<int64_t>(v.set().BoardNextSeq()));
  if (views) {
    ctx.reply.Bulk("snapshot-every");
    ctx.reply.Integer(z.snapshot_every_ms() / 1000);
    ctx.reply.Bulk("snapshot-at");
    if (view) ctx.reply.Integer(view->taken_ms());
    else ctx.reply.Null();
    ctx.reply.Bulk("snapshot-changes");
    if (view) ctx.reply.Integer(static_cast<int64_t>(view->changed()));
    else ctx.reply.Null();
  }
  if (!at.periodic) return;
  const PeriodCalendar& c = at.periodic->calendar();
  const PeriodSpec& spec = c.spec();
  ctx.reply.Bulk("period");
  ctx.reply.Bulk(PeriodUnitName(spec));
  ctx.reply.Bulk("tz");
  ctx.reply.Bulk(spec.zone);
  ctx.reply.Bulk("weekstart");
  ctx.reply.Bulk(spec.week_starts_sunday ? "sun" : "mon");
  ctx.reply.Bulk("retain");
  if (spec.retain >= 0) ctx.reply.Integer(spec.retain);
  else ctx.reply.Null();
  ctx.reply.Bulk("period-id");
  ctx.reply.Bulk(c.Id(at.index));
  ctx.reply.Bulk("period-offset");
  ctx.reply.Integer(at.index - at.current);
  ctx.reply.Bulk("period-start");
  ctx.reply.Integer(c.StartMs(at.index));
  ctx.reply.Bulk("period-end");
  ctx.reply.Integer(c.EndMs(at.index));
}

// One LB.PERIODS row.
void ReplyPeriod(ReplyBuilder& r, const PeriodCalendar& c, int64_t index, size_t members,
                 int64_t current) {
  r.ArrayHeader(5);
  r.Bulk(c.Id(index));
  r.Integer(c.StartMs(index));
  r.Integer(c.EndMs(index));
  r.Integer(static_cast<int64_t>(members));
  r.Integer(index - current);
}

void LbPeriods(CommandContext& ctx) {
  bool wrong_type;
  const SortedSet* z = FindBoardRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!z) return ctx.reply.EmptyArray();
  const PeriodicBoard* p = z->periodic();
  if (!p) return ctx.reply.Error(err::kLbNotPeriodic);
  const int64_t current = p->CurrentIndex(PeriodNowMs());
  // The current period always; then the stored ones still kept, newest
  // first (the open period is a closed one where it has not rolled yet).
  std::vector<std::pair<int64_t, size_t>> rows = {{current, 0}};
  if (p->open_index() == current) {
    rows[0].second = z->size();
  } else if (!z->empty() && p->Kept(p->open_index(), current)) {
    rows.emplace_back(p->open_index(), z->size());
  }
  p->ForEachClosed([&](int64_t index, const SortedSet& board) {
    if (p->Kept(index, current)) rows.emplace_back(index, board.size());
  });
  ctx.reply.ArrayHeader(rows.size());
  for (auto [index, members] : rows) ReplyPeriod(ctx.reply, p->calendar(), index, members, current);
}

void LbRoll(CommandContext& ctx) {
  Database::Entry* e = LookupWrite(ctx, ctx.arg(1));
  if (e && e->value.type() != ValueType::kZSet) return ctx.reply.Error(err::kWrongType);
  if (!e) return ctx.reply.Integer(0);
  SortedSet& z = e->value.zset();
  PeriodicBoard* p = z.periodic();
  if (!p) return ctx.reply.Error(err::kLbNotPeriodic);
  int64_t index;
  if (!p->calendar().ParseId(ctx.arg(2), &index)) return ctx.reply.Error(err::kLbPeriodRef);
  if (!p->RollTo(z, index)) return ctx.reply.Integer(0);
  ctx.db().SyncMemberExpire(e);
  KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyZset, "lb.roll");
  ctx.reply.Integer(1);
}

constexpr CommandSpec kLeaderboardPeriodCommands[] = {
    // name        arity flags                         first last step handler
    {"lb.create",  -2,   kWrite | kDenyOom | kFast,    1,    1,   1,   &LbCreate},
    {"lb.info",    -2,   kReadOnly | kFast,            1,    1,   1,   &LbInfo},
    {"lb.periods", 2,    kReadOnly,                    1,    1,   1,   &LbPeriods},
    {"lb.roll",    3,    kWrite | kFast,               1,    1,   1,   &LbRoll},
};

}  // namespace

std::span<const CommandSpec> LeaderboardPeriodCommands() { return kLeaderboardPeriodCommands; }

}  // namespace rankd
