// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "commands/lb_read.h"

#include <algorithm>
#include <memory>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/lb_args.h"
#include "commands/zset_common.h"
#include "server/errors.h"

namespace rankd {
namespace {

// An empty board of each policy, read in place of a period nobody wrote.
const SortedSet& EmptyBoard(const BoardPolicy& p) {
  static const std::unique_ptr<SortedSet> boards[4] = {
      SortedSet::NewBoard({BoardOrder::kDesc, BoardTies::kFirst}),
      SortedSet::NewBoard({BoardOrder::kDesc, BoardTies::kLast}),
      SortedSet::NewBoard({BoardOrder::kAsc, BoardTies::kFirst}),
      SortedSet::NewBoard({BoardOrder::kAsc, BoardTies::kLast})};
  return *boards[2 * static_cast<int>(p.order) + static_cast<int>(p.ties)];
}

// Relative periods further back than this are never kept (and would
// overflow the index arithmetic).
constexpr int64_t kMaxPeriodsBack = int64_t{1} << 40;

}  // namespace

std::string_view ResolvePeriod(const SortedSet& z, std::string_view ref, const SortedSet** out,
                               PeriodAt* at) {
  const PeriodicBoard* p = z.periodic();
  if (!p) return err::kLbNotPeriodic;
  at->periodic = p;
  at->current = p->CurrentIndex(PeriodNowMs());
  int64_t back = 0;
  if (ref.data() == nullptr || (ParseInt64(ref, &back) && back <= 0)) {
    if (back < -kMaxPeriodsBack) return err::kLbNoSuchPeriod;
    at->index = at->current + back;
  } else if (!p->calendar().ParseId(ref, &at->index)) {
    return err::kLbPeriodRef;
  }
  if (!p->Kept(at->index, at->current)) return err::kLbNoSuchPeriod;
  const SortedSet* s = p->Period(z, at->index);
  *out = s ? s : &EmptyBoard(*z.board());
  return "";
}

std::optional<BoardView> OpenBoardForRead(CommandContext& ctx, BoardRead r, RankMode* mode,
                                          PeriodAt* at) {
  if (r.options_from != 0) {
    *mode = RankMode::kOrdinal;
    if (std::string_view e = ParseRankOptions(ctx.args, r.options_from, r.mode ? mode : nullptr,
                                              r.offset, r.with_meta, &r.period, &r.snapshot);
        !e.empty()) {
      ctx.reply.Error(e);
      return std::nullopt;
    }
  }
  bool wrong_type;
  const SortedSet* z = FindBoardRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) {
    ctx.reply.Error(err::kWrongType);
    return std::nullopt;
  }
  if (!z || r.selects_nothing) {
    switch (r.nothing) {
      case Nothing::kNull: ctx.reply.Null(); break;
      case Nothing::kEmptyArray: ctx.reply.EmptyArray(); break;
      case Nothing::kRankOne: ctx.reply.Integer(1); break;
      case Nothing::kNoSuchKey: ctx.reply.Error(err::kNoSuchKey); break;
    }
    return std::nullopt;
  }
  if (r.snapshot) {
    const BoardSnapshot* view = z->board_snapshot();
    // A view is of the open period; where it has ended but not rolled yet
    // (a replica), the current period has no view.
    const PeriodicBoard* p = z->periodic();
    if (p && p->CurrentIndex(PeriodNowMs()) != p->open_index()) view = nullptr;
    std::string_view e = r.period.data() != nullptr ? err::kLbSnapshotPeriod
                         : view == nullptr          ? err::kLbNoView
                                                    : "";
    if (!e.empty()) {
      ctx.reply.Error(e);
      return std::nullopt;
    }
    return BoardView(*z, view);
  }
  // A periodic board is always read at a period: PERIOD's, or the current
  // one (exact also where the open period has not rolled yet: a replica).
  if (z->periodic() || r.period.data() != nullptr) {
    PeriodAt local;
    if (std::string_view e = ResolvePeriod(*z, r.period, &z, at ? at : &local); !e.empty()) {
      ctx.reply.Error(e);
      return std::nullopt;
    }
  }
  BoardView v(*z);
  if (*mode == RankMode::kDense && !v.dense()) {
    ctx.reply.Error(err::kLbPlainDense);
    return std::nullopt;
  }
  return v;
}

void ReplyRow(ReplyBuilder& r, uint64_t rank, std::string_view member, double score,
              const BoardView* meta_of) {
  r.ArrayHeader(meta_of ? 4 : 3);
  r.Integer(static_cast<int64_t>(rank));
  r.Bulk(member);
  r.Double(score);
  if (!meta_of) return;
  if (std::optional<std::string_view> meta = meta_of->MetaOf(member)) {
    r.Bulk(*meta);
  } else {
    r.Null();
  }
}

void ReplyRows(ReplyBuilder& r, const BoardView& v, uint64_t first, uint64_t last, RankMode mode,
               bool with_meta) {
  if (v.size() == 0 || first > last || first >= v.size()) return r.EmptyArray();
  last = std::min(last, v.size() - 1);
  r.ArrayHeader(last - first + 1);
  v.ForEachRow(first, last, mode, [&](uint64_t rank, std::string_view m, double s) {
    ReplyRow(r, rank, m, s, with_meta ? &v : nullptr);
  });
}

}  // namespace rankd
