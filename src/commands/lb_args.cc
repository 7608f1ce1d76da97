// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "commands/lb_args.h"

#include "base/numbers.h"
#include "server/command.h"
#include "server/errors.h"

namespace rankd {
namespace {

bool ParseMode(std::string_view s, RankMode* out) {
  if (EqualsIgnoreCase(s, "ORDINAL")) return *out = RankMode::kOrdinal, true;
  if (EqualsIgnoreCase(s, "COMPETITION")) return *out = RankMode::kCompetition, true;
  if (EqualsIgnoreCase(s, "DENSE")) return *out = RankMode::kDense, true;
  return false;
}

}  // namespace

std::string_view ParseBoardPolicy(std::span<const std::string_view> args, size_t from,
                                  BoardPolicy* out) {
  for (size_t i = from; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return err::kSyntax;
    std::string_view opt = args[i], v = args[i + 1];
    if (EqualsIgnoreCase(opt, "ORDER") && EqualsIgnoreCase(v, "DESC")) {
      out->order = BoardOrder::kDesc;
    } else if (EqualsIgnoreCase(opt, "ORDER") && EqualsIgnoreCase(v, "ASC")) {
      out->order = BoardOrder::kAsc;
    } else if (EqualsIgnoreCase(opt, "TIES") && EqualsIgnoreCase(v, "FIRST")) {
      out->ties = BoardTies::kFirst;
    } else if (EqualsIgnoreCase(opt, "TIES") && EqualsIgnoreCase(v, "LAST")) {
      out->ties = BoardTies::kLast;
    } else {
      return err::kSyntax;
    }
  }
  return "";
}

std::string_view ParseLbCreateArgs(std::span<const std::string_view> args, LbCreateArgs* out) {
  bool has_zone = false, has_weekstart = false, has_retain = false;
  for (size_t i = 2; i < args.size(); i += 2) {
    if (EqualsIgnoreCase(args[i], "ADOPT")) {  // a flag: one word
      out->adopt = true;
      i--;
      continue;
    }
    if (i + 1 >= args.size()) return err::kSyntax;
    const std::string_view opt = args[i], v = args[i + 1];
    if (EqualsIgnoreCase(opt, "SNAPSHOT")) {  // SNAPSHOT EVERY seconds: three words
      if (!EqualsIgnoreCase(v, "EVERY") || i + 2 >= args.size()) return err::kSyntax;
      int64_t& every = out->snapshot_every_s;
      if (!ParseInt64(args[++i + 1], &every) || every < 0 || every > kMaxPeriodSeconds) {
        return err::kLbSnapshotEvery;
      }
    } else if (EqualsIgnoreCase(opt, "ORDER") || EqualsIgnoreCase(opt, "TIES")) {
      if (std::string_view e = ParseBoardPolicy(args.subspan(i, 2), 0, &out->policy); !e.empty()) {
        return e;
      }
    } else if (EqualsIgnoreCase(opt, "PERIOD")) {
      out->periodic = true;
      PeriodSpec& p = out->period;
      if (EqualsIgnoreCase(v, "DAILY")) {
        p.unit = PeriodUnit::kDay;
      } else if (EqualsIgnoreCase(v, "WEEKLY")) {
        p.unit = PeriodUnit::kWeek;
      } else if (EqualsIgnoreCase(v, "MONTHLY")) {
        p.unit = PeriodUnit::kMonth;
      } else if (ParseInt64(v, &p.seconds) && p.seconds >= 1 && p.seconds <= kMaxPeriodSeconds) {
        p.unit = PeriodUnit::kSeconds;
      } else {
        return err::kLbPeriodUnit;
      }
    } else if (EqualsIgnoreCase(opt, "TZ")) {
      has_zone = true;
      out->period.zone.assign(v);
    } else if (EqualsIgnoreCase(opt, "WEEKSTART")) {
      has_weekstart = true;
      if (EqualsIgnoreCase(v, "SUN")) {
        out->period.week_starts_sunday = true;
      } else if (EqualsIgnoreCase(v, "MON")) {
        out->period.week_starts_sunday = false;
      } else {
        return err::kSyntax;
      }
    } else if (EqualsIgnoreCase(opt, "RETAIN")) {
      has_retain = true;
      if (!ParseInt64(v, &out->period.retain) || out->period.retain < 0 ||
          out->period.retain > 1000000) {
        return err::kLbRetain;
      }
    } else if (EqualsIgnoreCase(opt, "NOW")) {
      out->has_now = true;
      if (!ParseInt64(v, &out->now_ms)) return err::kNotInteger;
    } else {
      return err::kSyntax;
    }
  }
  if (out->adopt && out->periodic) return err::kLbAdoptPeriodic;
  if (!out->periodic) {
    if (has_zone || has_weekstart || has_retain || out->has_now) return err::kLbNeedsPeriod;
    return "";
  }
  if (has_zone && out->period.unit == PeriodUnit::kSeconds) return err::kLbZoneNeedsCalendar;
  if (has_weekstart && out->period.unit != PeriodUnit::kWeek) return err::kLbWeekstartNeedsWeekly;
  return "";
}

std::string_view ParseRankOptions(std::span<const std::string_view> args, size_t from,
                                  RankMode* mode, int64_t* offset, bool* with_meta,
                                  std::string_view* period, bool* snapshot) {
  for (size_t i = from; i < args.size(); i += 2) {
    bool* flag = nullptr;
    if (with_meta != nullptr && EqualsIgnoreCase(args[i], "WITHMETA")) flag = with_meta;
    if (snapshot != nullptr && EqualsIgnoreCase(args[i], "SNAPSHOT")) flag = snapshot;
    if (flag != nullptr) {
      *flag = true;
      i--;  // a flag: one argument
      continue;
    }
    if (i + 1 >= args.size()) return err::kSyntax;
    if (mode != nullptr && EqualsIgnoreCase(args[i], "MODE")) {
      if (!ParseMode(args[i + 1], mode)) return err::kSyntax;
    } else if (period != nullptr && EqualsIgnoreCase(args[i], "PERIOD")) {
      *period = args[i + 1];
    } else if (offset != nullptr && EqualsIgnoreCase(args[i], "OFFSET")) {
      if (!ParseInt64(args[i + 1], offset)) return err::kNotInteger;
      if (*offset < 0) return err::kValueOutOfRange;
    } else {
      return err::kSyntax;
    }
  }
  return "";
}

std::string_view ParseRanksArgs(std::span<const std::string_view> args, size_t* members_begin,
                                size_t* members_end, RankMode* mode, std::string_view* period,
                                bool* snapshot) {
  // LB.RANKS key MEMBERS n member ... [options]: counted, so any member name
  // is a member.
  int64_t count;
  if (args.size() >= 5 && EqualsIgnoreCase(args[2], "MEMBERS") && ParseInt64(args[3], &count) &&
      count >= 1 && static_cast<uint64_t>(count) <= args.size() - 4) {
    *members_begin = 4;
    *members_end = 4 + static_cast<size_t>(count);
    return ParseRankOptions(args, *members_end, mode, nullptr, nullptr, period, snapshot);
  }
  *members_begin = 2;
  size_t n = args.size();
  bool seen_mode = false, seen_period = false;
  while (n >= 4) {
    if (!*snapshot && EqualsIgnoreCase(args[n - 1], "SNAPSHOT")) {
      *snapshot = true;
      n -= 1;
      continue;
    }
    if (n < 5) break;
    if (!seen_mode && EqualsIgnoreCase(args[n - 2], "MODE")) {
      if (!ParseMode(args[n - 1], mode)) return err::kSyntax;
      seen_mode = true;
    } else if (!seen_period && EqualsIgnoreCase(args[n - 2], "PERIOD")) {
      *period = args[n - 1];
      seen_period = true;
    } else {
      break;
    }
    n -= 2;
  }
  *members_end = n;
  return "";
}

std::string_view ParseLbAddArgs(std::span<const std::string_view> args, LbAddArgs* out) {
  size_t i = 2;
  bool op_set = false;
  for (; i < args.size(); ++i) {
    std::string_view a = args[i];
    LbAddArgs::Op op;
    if (EqualsIgnoreCase(a, "NX")) {
      out->nx = true;
      continue;
    } else if (EqualsIgnoreCase(a, "XX")) {
      out->xx = true;
      continue;
    } else if (EqualsIgnoreCase(a, "PERIOD")) {
      if (!out->period.empty() || i + 1 >= args.size() || args[i + 1].empty()) {
        return err::kSyntax;
      }
      out->period = args[++i];
      continue;
    } else if (EqualsIgnoreCase(a, "AT")) {
      if (out->has_at || i + 1 >= args.size()) return err::kSyntax;
      if (!ParseInt64(args[++i], &out->at_ms)) return err::kNotInteger;
      if (out->at_ms < 0 || out->at_ms > err::kLbMaxAtMs) return err::kLbAtRange;
      out->has_at = true;
      continue;
    } else if (EqualsIgnoreCase(a, "SET")) {
      op = LbAddArgs::Op::kSet;
    } else if (EqualsIgnoreCase(a, "BEST")) {
      op = LbAddArgs::Op::kBest;
    } else if (EqualsIgnoreCase(a, "INCR")) {
      op = LbAddArgs::Op::kIncr;
    } else {
      break;
    }
    if (op_set) return err::kSyntax;  // one of SET / BEST / INCR
    op_set = true;
    out->op = op;
  }
  if (i == args.size()) return err::kSyntax;
  while (i < args.size()) {
    if (i + 1 >= args.size()) return err::kSyntax;
    out->score_at.push_back(i);
    i += 2;
    size_t meta = 0;
    if (i < args.size() && EqualsIgnoreCase(args[i], "META")) {
      if (i + 1 >= args.size()) return err::kSyntax;
      meta = i + 1;
      i += 2;
    }
    out->meta_at.push_back(meta);
  }
  out->pairs = out->score_at.size();
  if (out->nx && out->xx) return err::kXXandNX;
  return "";
}

}  // namespace rankd
