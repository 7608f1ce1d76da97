// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The leaderboard family (issue 7, docs/leaderboards.md): LB.* commands over
// sorted sets in board mode. The ranks, rows and rank ranges are computed by
// core/leaderboard.h (BoardView); handlers parse, call it, and reply. Rows
// are [rank, member, score]; ranks are 1-based. On a plain sorted set the
// reads use the default policy with Redis's tie order (ZREVRANGE's); DENSE
// ranks, ORDINAL RANKFOR and writes need a board and say so.

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "base/clock.h"
#include "base/numbers.h"
#include "commands/families.h"
#include "commands/lb_args.h"
#include "commands/lb_effects.h"
#include "commands/lb_read.h"
#include "commands/zset_common.h"
#include "core/leaderboard.h"
#include "core/periodic_board.h"
#include "db/database.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

// Parses args[first, first + n) as integers >= `min` (a count, a rank) into
// out[0..n). Replies and returns false otherwise: every argument is checked
// for being an integer before any for its bound.
bool ParseIntArgs(CommandContext& ctx, size_t first, size_t n, int64_t min,
                  std::string_view below_min, int64_t* out) {
  for (size_t i = 0; i < n; ++i) {
    if (!ParseInt64(ctx.arg(first + i), &out[i])) {
      ctx.reply.Error(err::kNotInteger);
      return false;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (out[i] < min) {
      ctx.reply.Error(below_min);
      return false;
    }
  }
  return true;
}

// LB.ADD key [NX|XX] [SET|BEST|INCR] [AT unix-ms] score member [score member ...]
void LbAdd(CommandContext& ctx) {
  LbAddArgs a;
  if (std::string_view e = ParseLbAddArgs(ctx.args, &a); !e.empty()) return ctx.reply.Error(e);
  std::vector<double> scores(a.pairs);
  for (size_t i = 0; i < a.pairs; ++i) {
    if (!ParseDouble(ctx.arg(a.score_at[i]), &scores[i])) {
      return ctx.reply.Error(err::kNotFloat);
    }
  }
  const std::string_view key = ctx.arg(1);
  bool wrong_type;
  SortedSet* z = FindZSetWrite(ctx, key, &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (z && !z->board()) return ctx.reply.Error(err::kLbPlainWrite);
  // PERIOD (issue 33): late scores go into a closed period still kept.
  PeriodicBoard* periodic = nullptr;
  std::string period_id;
  if (!a.period.empty()) {
    if (!z || !z->periodic()) return ctx.reply.Error(err::kLbNotPeriodic);
    const SortedSet* unused;
    PeriodAt at;
    if (std::string_view e = ResolvePeriod(*z, a.period, &unused, &at); !e.empty()) {
      return ctx.reply.Error(e);
    }
    PeriodicBoard* p = z->periodic();
    if (at.index > p->open_index()) return ctx.reply.Error(err::kLbNoSuchPeriod);
    if (at.index < p->open_index()) {
      for (size_t i = 0; i < a.pairs; ++i) {
        if (a.meta_at[i] != 0) return ctx.reply.Error(err::kLbLateMeta);
      }
      periodic = p;
      period_id = p->calendar().Id(at.index);
      z = &p->ClosedForLoad(at.index, *z->board());
    }
  }
  auto member = [&](size_t i) { return ctx.arg(a.score_at[i] + 1); };
  // INCR applies all or nothing: find a NaN sum before writing anything.
  if (a.op == LbAddArgs::Op::kIncr) {
    absl::flat_hash_map<std::string_view, double> pending;
    for (size_t i = 0; i < a.pairs; ++i) {
      std::optional<double> cur;
      if (auto it = pending.find(member(i)); it != pending.end()) cur = it->second;
      else if (z) cur = z->Score(member(i));
      if (a.nx && cur) continue;
      if (a.xx && !cur) continue;
      const double next = cur.value_or(0) + scores[i];
      if (std::isnan(next)) return ctx.reply.Error(err::kScoreNaN);
      pending[member(i)] = next;
    }
  }
  bool created = false;
  if (!z) {
    if (a.xx) {  // nothing can be written: no board is created
      ctx.reply.ArrayHeader(a.pairs);
      for (size_t i = 0; i < a.pairs; ++i) ctx.reply.NullArray();
      return;
    }
    z = &ctx.db().Insert(key, Value(SortedSet::NewBoard({})))->value.zset();
    created = true;
  }
  const BoardPolicy policy = *z->board();
  AddOptions o;
  o.nx = a.nx;
  o.xx = a.xx;
  o.incr = a.op == LbAddArgs::Op::kIncr;
  if (a.op == LbAddArgs::Op::kBest) (policy.order == BoardOrder::kDesc ? o.gt : o.lt) = true;
  const int64_t ms = a.has_at ? a.at_ms : WallMs();
  const SortedSetLimits limits = ctx.server.zset_limits();
  std::vector<std::string_view> changed, with_meta;
  ctx.reply.ArrayHeader(a.pairs);
  for (size_t i = 0; i < a.pairs; ++i) {
    std::optional<uint64_t> before = BoardView(*z).PositionOf(member(i));
    AddResult r = z->Add(member(i), scores[i], o, limits, ms);
    if (r.kind == AddResult::Kind::kAdded || r.kind == AddResult::Kind::kUpdated) {
      changed.push_back(member(i));
    }
    // META applies to every member the pair leaves present, unless NX
    // skipped an existing one.
    if (a.meta_at[i] != 0 && z->Score(member(i)) && !(a.nx && before)) {
      z->SetMemberMeta(member(i), ctx.arg(a.meta_at[i]));
      with_meta.push_back(member(i));
    }
    std::optional<uint64_t> after = BoardView(*z).PositionOf(member(i));
    if (!after) {  // XX on an absent member
      ctx.reply.NullArray();
      continue;
    }
    ctx.reply.ArrayHeader(3);
    ctx.reply.Double(*z->Score(member(i)));
    ctx.reply.Integer(static_cast<int64_t>(*after + 1));
    if (before) ctx.reply.Integer(static_cast<int64_t>(*before + 1));
    else ctx.reply.Null();
  }
  if (periodic) {
    periodic->DropEmpty();  // XX into a period nobody wrote: nothing is stored
    if (changed.empty()) return;
    KeyChanged(ctx, ctx.db(), key, kNotifyZset, "lb.add");
    PropagateBoardMembers(ctx, key, *z, changed, period_id);
    return;
  }
  if (z->empty() && !z->periodic()) {  // a new board with nothing added: do not leave it
    ctx.db().Delete(key);
    return;
  }
  if (changed.empty() && with_meta.empty() && !created) return;
  KeyChanged(ctx, ctx.db(), key, kNotifyZset, "lb.add");
  if (!changed.empty() || created) PropagateBoardMembers(ctx, key, *z, changed);
  PropagateBoardMeta(ctx, key, *z, with_meta);
}

// LB.LOAD key ORDER o TIES t NEXTSEQ n [score member seq ms ...]
// The exact form of board writes in the log (server/lb_effects.h); also an
// import command. A seq already held by another member is the caller's bug.
void LbLoad(CommandContext& ctx) {
  // LB.LOAD key PERIOD id ... (issue 33): into a closed period (the log's
  // form of LB.ADD ... PERIOD): the arguments after it shift by two.
  const size_t base = ctx.argc() > 3 && EqualsIgnoreCase(ctx.arg(2), "PERIOD") ? 2 : 0;
  const size_t n = ctx.argc() - base;
  if (n < 8 || (n - 8) % 4 != 0 || !EqualsIgnoreCase(ctx.arg(base + 6), "NEXTSEQ")) {
    return ctx.reply.Error(err::kSyntax);
  }
  BoardPolicy policy;
  if (std::string_view e = ParseBoardPolicy(ctx.args.subspan(base, 6), 2, &policy);
      !e.empty()) {
    return ctx.reply.Error(e);
  }
  int64_t next_seq;
  if (!ParseInt64(ctx.arg(base + 7), &next_seq) || next_seq < 1) {
    return ctx.reply.Error(err::kNotInteger);
  }
  struct Item {
    double score;
    std::string_view member;
    int64_t seq, ms;
  };
  std::vector<Item> items;
  for (size_t i = base + 8; i < ctx.argc(); i += 4) {
    Item it{0, ctx.arg(i + 1), 0, 0};
    if (!ParseDouble(ctx.arg(i), &it.score)) return ctx.reply.Error(err::kNotFloat);
    if (!ParseInt64(ctx.arg(i + 2), &it.seq) || it.seq < 1 || !ParseInt64(ctx.arg(i + 3), &it.ms)) {
      return ctx.reply.Error(err::kNotInteger);
    }
    items.push_back(it);
  }
  const std::string_view key = ctx.arg(1);
  bool wrong_type;
  SortedSet* z = FindZSetWrite(ctx, key, &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (z && !z->board()) return ctx.reply.Error(err::kLbPlainWrite);
  if (z && *z->board() != policy) return ctx.reply.Error(err::kLbPolicyMismatch);
  PeriodicBoard* periodic = nullptr;
  if (base != 0) {
    periodic = z ? z->periodic() : nullptr;
    if (!periodic) return ctx.reply.Error(err::kLbNotPeriodic);
    int64_t index;
    if (!periodic->calendar().ParseId(ctx.arg(3), &index)) {
      return ctx.reply.Error(err::kLbPeriodRef);
    }
    // Only a closed period RETAIN still keeps (counted from the open one,
    // as the log replays it): an older one would be stored unlisted.
    const int64_t open = periodic->open_index();
    if (index >= open || !periodic->Kept(index, open)) {
      return ctx.reply.Error(err::kLbNoSuchPeriod);
    }
    z = &periodic->ClosedForLoad(index, policy);
  }
  if (!z) z = &ctx.db().Insert(key, Value(SortedSet::NewBoard(policy, items.size())))->value.zset();
  for (const Item& it : items) {
    z->BoardPut(it.member, it.score, {static_cast<uint64_t>(it.seq), it.ms});
  }
  z->BoardRaiseNextSeq(static_cast<uint64_t>(next_seq));
  if (base != 0 && z->empty()) periodic->DropEmpty();  // no empty closed period is kept
  KeyChanged(ctx, ctx.db(), key, kNotifyZset, "lb.load");
  ctx.reply.Integer(static_cast<int64_t>(items.size()));
}

// LB.RANK key member [MODE m] -> [rank, score] or nil
void LbRank(CommandContext& ctx) {
  RankMode mode;
  std::optional<BoardView> v = OpenBoardForRead(ctx, {.options_from = 3}, &mode);
  if (!v) return;
  std::optional<double> s = v->Score(ctx.arg(2));
  if (!s) return ctx.reply.Null();
  // Tied modes need only the score: one score search, no position search.
  uint64_t pos = 0;
  if (mode == RankMode::kOrdinal) pos = *v->PositionOf(ctx.arg(2));
  ctx.reply.ArrayHeader(2);
  ctx.reply.Integer(static_cast<int64_t>(v->RankAt(pos, *s, mode)));
  ctx.reply.Double(*s);
}

// LB.TOP key count [OFFSET n] [MODE m]
void LbTop(CommandContext& ctx) {
  int64_t count, offset = 0;
  if (!ParseIntArgs(ctx, 2, 1, 0, err::kCountNegative, &count)) return;
  RankMode mode;
  bool meta = false;
  std::optional<BoardView> v = OpenBoardForRead(ctx,
                                                {.options_from = 3,
                                                 .offset = &offset,
                                                 .with_meta = &meta,
                                                 .nothing = Nothing::kEmptyArray,
                                                 .selects_nothing = count == 0},
                                                &mode);
  if (!v) return;
  const uint64_t first = static_cast<uint64_t>(offset);
  ReplyRows(ctx.reply, *v, first, first + static_cast<uint64_t>(count) - 1, mode, meta);
}

// LB.RANGE key minrank maxrank [MODE m]: every member holding those ranks.
void LbRange(CommandContext& ctx) {
  int64_t ranks[2];
  if (!ParseIntArgs(ctx, 2, 2, 1, err::kLbRankPositive, ranks)) return;
  const auto [lo, hi] = ranks;
  RankMode mode;
  bool meta = false;
  std::optional<BoardView> v = OpenBoardForRead(ctx,
                                                {.options_from = 4,
                                                 .with_meta = &meta,
                                                 .nothing = Nothing::kEmptyArray,
                                                 .selects_nothing = lo > hi},
                                                &mode);
  if (!v) return;
  auto span = v->PositionsForRanks(static_cast<uint64_t>(lo), static_cast<uint64_t>(hi), mode);
  if (!span) return ctx.reply.EmptyArray();
  ReplyRows(ctx.reply, *v, span->first, span->second, mode, meta);
}

// LB.AROUND key member count [MODE m]: 2 * count + 1 rows around the member
// (fewer only when the board is smaller), filled from the other side at
// either end; an empty array when the member is absent.
void LbAround(CommandContext& ctx) {
  int64_t count;
  if (!ParseIntArgs(ctx, 3, 1, 0, err::kCountNegative, &count)) return;
  RankMode mode;
  bool meta = false;
  std::optional<BoardView> v = OpenBoardForRead(
      ctx, {.options_from = 4, .with_meta = &meta, .nothing = Nothing::kEmptyArray}, &mode);
  if (!v) return;
  std::optional<uint64_t> pos = v->PositionOf(ctx.arg(2));
  if (!pos) return ctx.reply.EmptyArray();
  const uint64_t c = static_cast<uint64_t>(count), n = v->size();
  const uint64_t window = std::min(2 * std::min(c, n) + 1, n);
  const uint64_t first = std::min(*pos > c ? *pos - c : 0, n - std::min(window, n));
  ReplyRows(ctx.reply, *v, first, first + window - 1, mode, meta);
}

// LB.RANKS key member [member ...] [MODE m]: rows in board order of the
// listed members present, [rank within the list, member, score, global rank].
void LbRanks(CommandContext& ctx) {
  size_t begin, end;
  RankMode mode = RankMode::kOrdinal;
  std::string_view period;
  bool snapshot = false;
  if (std::string_view e = ParseRanksArgs(ctx.args, &begin, &end, &mode, &period, &snapshot);
      !e.empty()) {
    return ctx.reply.Error(e);
  }
  std::optional<BoardView> v = OpenBoardForRead(
      ctx, {.nothing = Nothing::kEmptyArray, .period = period, .snapshot = snapshot}, &mode);
  if (!v) return;
  struct Found {
    uint64_t pos;
    std::string_view member;
    double score;
  };
  std::vector<Found> found;
  absl::flat_hash_map<std::string_view, bool> seen;
  for (size_t i = begin; i < end; ++i) {
    if (!seen.emplace(ctx.arg(i), true).second) continue;
    if (std::optional<uint64_t> pos = v->PositionOf(ctx.arg(i))) {
      found.push_back({*pos, ctx.arg(i), *v->Score(ctx.arg(i))});
    }
  }
  std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.pos < b.pos; });
  ctx.reply.ArrayHeader(found.size());
  uint64_t local = 0;
  for (size_t i = 0; i < found.size(); ++i) {
    if (i == 0 || mode == RankMode::kOrdinal || found[i].score != found[i - 1].score) {
      local = mode == RankMode::kDense ? local + 1 : i + 1;
    }
    ctx.reply.ArrayHeader(4);
    ctx.reply.Integer(static_cast<int64_t>(local));
    ctx.reply.Bulk(found[i].member);
    ctx.reply.Double(found[i].score);
    ctx.reply.Integer(static_cast<int64_t>(v->RankAt(found[i].pos, found[i].score, mode)));
  }
}

// LB.PERCENTILE key member -> percentile rank (0..100) or nil
void LbPercentile(CommandContext& ctx) {
  RankMode mode;  // options: PERIOD only
  std::optional<BoardView> v = OpenBoardForRead(ctx, {.options_from = 3, .mode = false}, &mode);
  if (!v) return;
  std::optional<double> s = v->Score(ctx.arg(2));
  if (!s) return ctx.reply.Null();
  ctx.reply.Double(v->Percentile(*s));
}

// LB.RANKFOR key score [MODE m] -> the rank a member reaching `score` now gets
void LbRankFor(CommandContext& ctx) {
  double score;
  if (!ParseDouble(ctx.arg(2), &score)) return ctx.reply.Error(err::kNotFloat);
  RankMode mode;
  std::optional<BoardView> v =
      OpenBoardForRead(ctx, {.options_from = 3, .nothing = Nothing::kRankOne}, &mode);
  if (!v) return;
  if (!v->dense() && mode == RankMode::kOrdinal) {
    return ctx.reply.Error(err::kLbPlainOrdinalRankFor);
  }
  ctx.reply.Integer(static_cast<int64_t>(v->RankFor(score, mode)));
}

// LB.SCOREAT key rank [MODE m] -> the score at that rank, or nil
void LbScoreAt(CommandContext& ctx) {
  int64_t rank;
  if (!ParseIntArgs(ctx, 2, 1, 1, err::kLbRankPositive, &rank)) return;
  RankMode mode;
  std::optional<BoardView> v = OpenBoardForRead(ctx, {.options_from = 3}, &mode);
  if (!v) return;
  std::optional<double> s = v->ScoreAt(static_cast<uint64_t>(rank), mode);
  if (!s) return ctx.reply.Null();
  ctx.reply.Double(*s);
}

// LB.STAMP key member -> [seq, unix-ms] of the member's current score, or nil
void LbStamp(CommandContext& ctx) {
  RankMode mode;  // options: PERIOD only
  std::optional<BoardView> v = OpenBoardForRead(ctx, {.options_from = 3, .mode = false}, &mode);
  if (!v) return;
  if (!v->is_board()) return ctx.reply.Error(err::kLbPlainWrite);
  std::optional<BoardStamp> st = v->StampOf(ctx.arg(2));
  if (!st) return ctx.reply.Null();
  ctx.reply.ArrayHeader(2);
  ctx.reply.Integer(static_cast<int64_t>(st->seq));
  ctx.reply.Integer(st->ms);
}

constexpr uint32_t kW = kWrite | kDenyOom;
constexpr uint32_t kR = kReadOnly;

constexpr CommandSpec kLeaderboardCommands[] = {
    // name            arity flags       first last step handler
    {"lb.add",         -4,   kW | kFast, 1,    1,   1,   &LbAdd},
    {"lb.load",        -8,   kW,         1,    1,   1,   &LbLoad},
    {"lb.rank",        -3,   kR | kFast, 1,    1,   1,   &LbRank},
    {"lb.top",         -3,   kR,         1,    1,   1,   &LbTop},
    {"lb.range",       -4,   kR,         1,    1,   1,   &LbRange},
    {"lb.around",      -4,   kR,         1,    1,   1,   &LbAround},
    {"lb.ranks",       -3,   kR,         1,    1,   1,   &LbRanks},
    {"lb.percentile",  -3,   kR | kFast, 1,    1,   1,   &LbPercentile},
    {"lb.rankfor",     -3,   kR | kFast, 1,    1,   1,   &LbRankFor},
    {"lb.scoreat",     -3,   kR | kFast, 1,    1,   1,   &LbScoreAt},
    {"lb.stamp",       -3,   kR | kFast, 1,    1,   1,   &LbStamp},
};

}  // namespace

std::span<const CommandSpec> LeaderboardCommands() { return kLeaderboardCommands; }

}  // namespace rankd
