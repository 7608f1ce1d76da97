// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "commands/zset_args.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "base/numbers.h"
#include "server/command.h"
#include "server/errors.h"

namespace rankd {
namespace {

// Redis's zslParseRange for one bound.
bool ParseScoreBound(std::string_view s, double* value, bool* exclusive) {
  *exclusive = !s.empty() && s[0] == '(';
  if (*exclusive) s.remove_prefix(1);
  return ParseDoubleLoose(s, value);
}

// Redis's zslParseLexRangeItem.
bool ParseLexBound(std::string_view s, LexBound* out) {
  if (s.empty()) return false;
  switch (s[0]) {
    case '+':
      if (s.size() != 1) return false;
      out->kind = LexBound::Kind::kPlusInf;
      return true;
    case '-':
      if (s.size() != 1) return false;
      out->kind = LexBound::Kind::kMinusInf;
      return true;
    case '(':
      out->kind = LexBound::Kind::kExclusive;
      out->value = s.substr(1);
      return true;
    case '[':
      out->kind = LexBound::Kind::kInclusive;
      out->value = s.substr(1);
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string LowerName(std::string_view name) {
  std::string s(name);
  for (char& ch : s) ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
  return s;
}

std::string_view ParseZAddArgs(Args args, bool incr, ZAddArgs* out) {
  *out = ZAddArgs{};
  out->opts.incr = incr;
  size_t i = 2;
  for (; i < args.size(); i++) {
    std::string_view opt = args[i];
    if (EqualsIgnoreCase(opt, "nx")) {
      out->opts.nx = true;
    } else if (EqualsIgnoreCase(opt, "xx")) {
      out->opts.xx = true;
    } else if (EqualsIgnoreCase(opt, "ch")) {
      out->ch = true;
    } else if (EqualsIgnoreCase(opt, "incr")) {
      out->opts.incr = true;
    } else if (EqualsIgnoreCase(opt, "gt")) {
      out->opts.gt = true;
    } else if (EqualsIgnoreCase(opt, "lt")) {
      out->opts.lt = true;
    } else {
      break;
    }
  }
  out->first_pair = i;
  size_t elements = args.size() - i;
  if (elements == 0 || elements % 2 != 0) return err::kSyntax;
  out->pairs = elements / 2;
  const AddOptions& o = out->opts;
  if (o.nx && o.xx) return err::kXXandNX;
  if ((o.gt && o.nx) || (o.lt && o.nx) || (o.gt && o.lt)) return err::kGTLTNX;
  if (o.incr && out->pairs > 1) return err::kIncrPair;
  return {};
}

bool ParseScoreRange(std::string_view min, std::string_view max, ScoreRange* out) {
  return ParseScoreBound(min, &out->min, &out->min_exclusive) &&
         ParseScoreBound(max, &out->max, &out->max_exclusive);
}

bool ParseLexRange(std::string_view min, std::string_view max, LexRange* out) {
  return ParseLexBound(min, &out->min) && ParseLexBound(max, &out->max);
}

std::string_view ParseZRangeArgs(Args args, size_t key_index, const ZRangeForm& form,
                                 ZRangeArgs* out) {
  *out = ZRangeArgs{};
  bool by_set = form.by_fixed, reverse_set = form.reverse_fixed;
  out->by = form.by;
  out->reverse = form.reverse;
  for (size_t j = key_index + 3; j < args.size(); j++) {
    std::string_view opt = args[j];
    size_t left = args.size() - j - 1;
    if (!form.store && EqualsIgnoreCase(opt, "withscores")) {
      out->withscores = true;
    } else if (EqualsIgnoreCase(opt, "limit") && left >= 2) {
      if (!ParseInt64(args[j + 1], &out->offset) || !ParseInt64(args[j + 2], &out->limit)) {
        return err::kNotInteger;
      }
      j += 2;
    } else if (!reverse_set && EqualsIgnoreCase(opt, "rev")) {
      out->reverse = reverse_set = true;
    } else if (!by_set && EqualsIgnoreCase(opt, "bylex")) {
      out->by = ZRangeArgs::By::kLex;
      by_set = true;
    } else if (!by_set && EqualsIgnoreCase(opt, "byscore")) {
      out->by = ZRangeArgs::By::kScore;
      by_set = true;
    } else {
      return err::kSyntax;
    }
  }
  // Redis tests "limit != -1", so "LIMIT 0 -1" is accepted in rank mode.
  if (out->limit != -1 && out->by == ZRangeArgs::By::kRank) return err::kLimitNeedsByScoreOrLex;
  if (out->withscores && out->by == ZRangeArgs::By::kLex) return err::kWithScoresByLex;

  std::string_view min = args[key_index + 1], max = args[key_index + 2];
  if (out->reverse && out->by != ZRangeArgs::By::kRank) std::swap(min, max);
  switch (out->by) {
    case ZRangeArgs::By::kRank:
      if (!ParseInt64(min, &out->start) || !ParseInt64(max, &out->stop)) return err::kNotInteger;
      break;
    case ZRangeArgs::By::kScore:
      if (!ParseScoreRange(min, max, &out->score)) return err::kMinMaxNotFloat;
      break;
    case ZRangeArgs::By::kLex:
      if (!ParseLexRange(min, max, &out->lex)) return err::kMinMaxNotLex;
      break;
  }
  return {};
}

std::string_view ParseTimeout(std::string_view arg, int64_t* timeout_ms) {
  long double v;
  if (!ParseLongDouble(arg, &v)) return err::kTimeoutNotFloat;  // Redis string2ld
  long double ms = ceill(v * 1000.0L);
  // Redis casts to long long; on x86 anything out of range becomes LLONG_MIN,
  // which it then reports as negative.
  int64_t t = (ms >= 9223372036854775807.0L || ms < -9223372036854775807.0L)
                  ? INT64_MIN
                  : static_cast<int64_t>(ms);
  if (t < 0) return err::kTimeoutNegative;
  *timeout_ms = t;
  return {};
}

bool DueTrailingUnit(Args args) {
  double number;
  return args.size() >= 5 && EqualsIgnoreCase(args[args.size() - 2], "unit") &&
         !ParseDouble(args.back(), &number);
}

bool ParseScanCursor(std::string_view arg, uint64_t* cursor) {
  std::string buf(arg);
  if (!buf.empty() && isspace(static_cast<unsigned char>(buf[0]))) return false;
  errno = 0;
  char* end;
  unsigned long long v = strtoull(buf.c_str(), &end, 10);
  if (*end != '\0' || static_cast<size_t>(end - buf.c_str()) != buf.size() || errno == ERANGE) {
    return false;
  }
  *cursor = v;
  return true;
}

std::string_view ParseScanArgs(Args args, size_t first, ScanArgs* out) {
  *out = ScanArgs{};
  for (size_t i = first; i < args.size();) {
    size_t left = args.size() - i;
    if (EqualsIgnoreCase(args[i], "count") && left >= 2) {
      int64_t count;
      if (!ParseInt64(args[i + 1], &count)) return err::kNotInteger;
      if (count < 1) return err::kSyntax;
      out->count = static_cast<size_t>(count);
      i += 2;
    } else if (EqualsIgnoreCase(args[i], "match") && left >= 2) {
      out->pattern = args[i + 1];
      out->use_pattern = out->pattern != "*";
      i += 2;
    } else {
      return err::kSyntax;
    }
  }
  return {};
}

std::string ParseNumKeys(Args args, size_t index, int64_t* numkeys) {
  if (!ParseInt64(args[index], numkeys)) return std::string(err::kNotInteger);
  if (*numkeys < 1) {
    return "ERR at least 1 input key is needed for '" + LowerName(args[0]) + "' command";
  }
  if (*numkeys > static_cast<int64_t>(args.size() - index - 1)) return std::string(err::kSyntax);
  return {};
}

std::string_view ParseMPop(Args args, size_t numkeys_index, std::string_view first_word,
                           std::string_view last_word, MPopArgs* out) {
  int64_t numkeys;
  if (!ParseInt64(args[numkeys_index], &numkeys) || numkeys < 1) return err::kNumKeysPositive;
  // The direction word must follow the keys.
  if (numkeys >= static_cast<int64_t>(args.size() - numkeys_index - 1)) return err::kSyntax;
  out->keys = args.subspan(numkeys_index + 1, numkeys);
  const size_t where = numkeys_index + 1 + numkeys;
  if (EqualsIgnoreCase(args[where], first_word)) {
    out->from_last = false;
  } else if (EqualsIgnoreCase(args[where], last_word)) {
    out->from_last = true;
  } else {
    return err::kSyntax;
  }
  bool count_seen = false;
  for (size_t j = where + 1; j < args.size(); j++) {
    if (!count_seen && EqualsIgnoreCase(args[j], "count") && j + 1 < args.size()) {
      j++;
      if (!ParseInt64(args[j], &out->count) || out->count < 1) return err::kCountPositive;
      count_seen = true;
    } else {
      return err::kSyntax;
    }
  }
  return {};
}

}  // namespace rankd
