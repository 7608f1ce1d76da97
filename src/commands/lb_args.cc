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

std::string_view ParseRankOptions(std::span<const std::string_view> args, size_t from,
                                  RankMode* mode, int64_t* offset, bool* with_meta) {
  for (size_t i = from; i < args.size(); i += 2) {
    if (with_meta != nullptr && EqualsIgnoreCase(args[i], "WITHMETA")) {
      *with_meta = true;
      i--;  // a flag: one argument
      continue;
    }
    if (i + 1 >= args.size()) return err::kSyntax;
    if (EqualsIgnoreCase(args[i], "MODE")) {
      if (!ParseMode(args[i + 1], mode)) return err::kSyntax;
    } else if (offset != nullptr && EqualsIgnoreCase(args[i], "OFFSET")) {
      if (!ParseInt64(args[i + 1], offset)) return err::kNotInteger;
      if (*offset < 0) return err::kValueOutOfRange;
    } else {
      return err::kSyntax;
    }
  }
  return "";
}

std::string_view ParseRanksArgs(std::span<const std::string_view> args, size_t* members_end,
                                RankMode* mode) {
  *members_end = args.size();
  const size_t n = args.size();
  if (n >= 5 && EqualsIgnoreCase(args[n - 2], "MODE")) {
    if (!ParseMode(args[n - 1], mode)) return err::kSyntax;
    *members_end = n - 2;
  }
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
    } else if (EqualsIgnoreCase(a, "AT")) {
      if (out->has_at || i + 1 >= args.size()) return err::kSyntax;
      if (!ParseInt64(args[++i], &out->at_ms)) return err::kNotInteger;
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
