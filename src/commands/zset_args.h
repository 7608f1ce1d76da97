// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Option grammar of the sorted-set commands, with Redis 7.0's exact rules
// and error texts: ZADD flags, score and lex bounds, the ZRANGE family's
// BYSCORE / BYLEX / REV / LIMIT / WITHSCORES, blocking timeouts and SCAN
// options. Pure parsing: nothing here looks at a key or writes a reply.
//
// Every parser returns an error text (an errors.h constant, "" when the
// arguments are valid). Parsed string_views point into the arguments and are
// valid only as long as they are (the running command).

#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/sorted_set.h"

namespace rankd {

using Args = std::span<const std::string_view>;

// ZADD / ZINCRBY: the flags before the first score (Redis zaddGenericCommand;
// ZINCRBY runs the same parser with incr preset, so "ZINCRBY k nx m" is a
// syntax error as in Redis).
struct ZAddArgs {
  AddOptions opts;
  bool ch = false;
  size_t first_pair = 2;  // index of the first score
  size_t pairs = 0;       // number of score/member pairs
};
// Checks the flags, the pair count and the flag conflicts (not the scores).
[[nodiscard]] std::string_view ParseZAddArgs(Args args, bool incr, ZAddArgs* out);

// A score bound pair as ZRANGEBYSCORE / ZCOUNT take it ("(" exclusive,
// -inf / +inf, any strtod number). False: "ERR min or max is not a float".
[[nodiscard]] bool ParseScoreRange(std::string_view min, std::string_view max, ScoreRange* out);

// A lex bound pair ("[x", "(x", "-", "+"). False: "ERR min or max not valid
// string range item". The bounds point into the arguments.
[[nodiscard]] bool ParseLexRange(std::string_view min, std::string_view max, LexRange* out);

// What a ZRANGE-family command asks for, once its options are parsed.
struct ZRangeArgs {
  enum class By { kRank, kScore, kLex };
  By by = By::kRank;
  bool reverse = false;
  bool withscores = false;
  int64_t offset = 0;
  int64_t limit = -1;  // negative: no limit
  int64_t start = 0, stop = 0;  // kRank
  ScoreRange score;             // kScore
  LexRange lex;                 // kLex
};
// How a command of the family fixes the grammar: ZRANGE and ZRANGESTORE leave
// both open; ZREVRANGEBYSCORE fixes kScore and reverse, etc.
struct ZRangeForm {
  bool by_fixed = false;
  ZRangeArgs::By by = ZRangeArgs::By::kRank;
  bool reverse_fixed = false;
  bool reverse = false;
  bool store = false;  // ZRANGESTORE: no WITHSCORES
};
// Parses args[key_index + 1 ..] (min, max, options) in Redis's order: options
// first (syntax, LIMIT integers), then the LIMIT/BYLEX conflicts, then the
// bounds (reverse forms take max before min).
[[nodiscard]] std::string_view ParseZRangeArgs(Args args, size_t key_index, const ZRangeForm& form,
                                               ZRangeArgs* out);

// Blocking timeout in seconds as Redis 7.0 reads it (long double, rounded up
// to milliseconds, 0 = forever). Errors: "ERR timeout is not a float or out
// of range", "ERR timeout is negative".
// The arguments of ZMPOP / LMPOP (and their blocking forms) from the
// numkeys at args[numkeys_index]: numkeys keys, then `first_word` (MIN,
// LEFT) or `last_word` (MAX, RIGHT), then [COUNT count]. Returns Redis's
// error text, or empty on success.
struct MPopArgs {
  Args keys;
  bool from_last = false;  // MAX / RIGHT
  int64_t count = 1;
};
[[nodiscard]] std::string_view ParseMPop(Args args, size_t numkeys_index,
                                         std::string_view first_word, std::string_view last_word,
                                         MPopArgs* out);

[[nodiscard]] std::string_view ParseTimeout(std::string_view arg, int64_t* timeout_ms);

// BZPOPDUE key [key ...] timeout [UNIT MS|S] (zset_due_family.cc): whether
// the line ends with the UNIT option, i.e. UNIT then a last argument that
// is not a number (a key named UNIT stays a key: its timeout is a number).
// The command and its key extraction (command_keys.cc) share this rule.
[[nodiscard]] bool DueTrailingUnit(Args args);

// A SCAN cursor (strtoul rules: "-1" wraps, as in Redis). False: "ERR
// invalid cursor".
[[nodiscard]] bool ParseScanCursor(std::string_view arg, uint64_t* cursor);

// ZSCAN / SSCAN options after the cursor: COUNT n (n >= 1) and MATCH pattern.
struct ScanArgs {
  size_t count = 10;
  std::string_view pattern;
  bool use_pattern = false;  // false for no MATCH and for MATCH *
};
[[nodiscard]] std::string_view ParseScanArgs(Args args, size_t first, ScanArgs* out);

// A "numkeys" argument followed by that many keys at args[index + 1 ..]
// (ZUNION / ZINTER / ZDIFF families): "ERR at least 1 input key is needed for
// '<cmd>' command" when < 1, syntax error when the keys would overrun. The
// error may be built from the command name, so it is returned by value.
[[nodiscard]] std::string ParseNumKeys(Args args, size_t index, int64_t* numkeys);

// The command name in lower case, as Redis prints it in errors.
std::string LowerName(std::string_view name);

}  // namespace rankd
