// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The sorted-set family: its command table, and the handlers for single-key
// writes and point reads. Ranges live in zset_range.cc, set algebra in
// zset_algebra_cmds.cc, pops in zset_pop.cc, option grammar in zset_args.cc.
// Every handler parses all of its arguments before it touches a key, in
// Redis 7.0's order, so the first error reported is Redis's.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "base/glob.h"
#include "base/numbers.h"
#include "commands/families.h"
#include "commands/lb_effects.h"
#include "commands/random_picks.h"
#include "commands/zset_args.h"
#include "commands/zset_common.h"
#include "commands/zset_handlers.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

std::mt19937_64& Rng() {
  static std::mt19937_64 rng{std::random_device{}()};
  return rng;
}

// ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...],
// and ZINCRBY key increment member (the same parser with INCR preset).
// INCR replies with the sum it computed (Redis's newscore: old + incr, or
// incr for a new member), which may differ from the stored bits in the sign
// of a zero. Add's result has what it takes: kUpdated stored exactly old +
// incr; kUnchanged kept the old bits (r.score) because old + incr compared
// equal to them, so the sum is recomputed from them; kAdded stored incr, or
// 0 for a -0 into a compact set. (Skipped and NaN results reply nil or an
// error, not a score.)
double IncrReply(const AddResult& r, double incr) {
  switch (r.kind) {
    case AddResult::Kind::kAdded: return incr;
    case AddResult::Kind::kUnchanged: return r.score + incr;
    default: return r.score;
  }
}

void ZAddGeneric(CommandContext& ctx, bool incr_command) {
  ZAddArgs a;
  if (std::string_view e = ParseZAddArgs(ctx.args, incr_command, &a); !e.empty()) {
    return ctx.reply.Error(e);
  }
  // All scores first: the command applies fully or not at all. A few
  // pairs (ZINCRBY, most ZADDs) need no heap.
  absl::InlinedVector<double, 4> scores(a.pairs);
  for (size_t i = 0; i < a.pairs; i++) {
    if (!ParseDouble(ctx.arg(a.first_pair + 2 * i), &scores[i])) {
      return ctx.reply.Error(err::kNotFloat);
    }
  }
  std::string_view key = ctx.arg(1);
  bool wrong_type;
  SortedSet* z = FindZSetWrite(ctx, key, &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  const SortedSetLimits limits = ctx.server.zset_limits();
  const bool created = !z;
  if (!z) {
    if (a.opts.xx) return a.opts.incr ? ctx.reply.Null() : ctx.reply.Integer(0);
    // As Redis 7.0: a tree from the start only when the first member is too
    // long for the compact form (or the entries limit is 0).
    Value v = Value::NewZSet(limits, 0, ctx.arg(a.first_pair + 1).size());
    z = &ctx.db().Insert(key, std::move(v))->value.zset();
  }
  int64_t added = 0, updated = 0, processed = 0;
  double score = 0;
  bool nan = false;
  for (size_t i = 0; i < a.pairs && !nan; i++) {
    std::string_view member = ctx.arg(a.first_pair + 2 * i + 1);
    // The old score matters only for a -0 (rare); INCR's reply is derived
    // from the result below, so the member is looked up once.
    const bool neg_zero = scores[i] == 0 && std::signbit(scores[i]);
    std::optional<double> old;
    if (neg_zero) old = z->Score(member);
    double stored = neg_zero ? ScoreToStore(*z, member, old.has_value(), scores[i], limits)
                             : scores[i];
    AddResult r = z->Add(member, stored, a.opts, limits);
    switch (r.kind) {
      case AddResult::Kind::kAdded:
        added++;
        processed++;
        break;
      case AddResult::Kind::kUpdated:
        updated++;
        processed++;
        break;
      case AddResult::Kind::kUnchanged:
        processed++;
        break;
      case AddResult::Kind::kSkipped:
        break;
      case AddResult::Kind::kNaN:
        nan = true;
        break;
    }
    score = a.opts.incr ? IncrReply(r, scores[i]) : r.score;
  }
  if (created && z->empty()) {
    ctx.db().Delete(key);  // never left behind, even by a failed first write
  } else if (added || updated) {
    KeyChanged(ctx, ctx.db(), key, kNotifyZset, a.opts.incr ? "zincr" : "zadd");
    if (z->board()) {  // a board's stamps carry the time: log the result (lb_effects.h)
      std::vector<std::string_view> members;
      for (size_t i = 0; i < a.pairs; i++) members.push_back(ctx.arg(a.first_pair + 2 * i + 1));
      PropagateBoardMembers(ctx, key, *z, members);
    }
  }
  if (nan) return ctx.reply.Error(err::kScoreNaN);
  if (a.opts.incr) return processed ? ctx.reply.Double(score) : ctx.reply.Null();
  ctx.reply.Integer(a.ch ? added + updated : added);
}

void ZIncrBy(CommandContext& ctx) { ZAddGeneric(ctx, true); }

}  // namespace

void ZAdd(CommandContext& ctx) { ZAddGeneric(ctx, false); }

namespace {

// ZREM key member [member ...]
void ZRem(CommandContext& ctx) {
  bool wrong_type;
  SortedSet* z = FindZSetWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!z) return ctx.reply.Integer(0);
  int64_t deleted = 0;
  for (size_t i = 2; i < ctx.argc(); i++) {
    if (z->Remove(ctx.arg(i))) deleted++;
    if (z->empty()) break;
  }
  // A no-op ZREM leaves an empty board alone.
  if (deleted) ReportRemoval(ctx, ctx.arg(1), z->empty(), kNotifyZset, "zrem");
  ctx.reply.Integer(deleted);
}

// ZREMRANGEBYRANK / BYSCORE / BYLEX key min max
enum class RemoveBy { kRank, kScore, kLex };

void ZRemRangeGeneric(CommandContext& ctx, RemoveBy by) {
  int64_t start = 0, stop = 0;
  ScoreRange score;
  LexRange lex;
  switch (by) {
    case RemoveBy::kRank:
      if (!ParseInt64(ctx.arg(2), &start) || !ParseInt64(ctx.arg(3), &stop)) {
        return ctx.reply.Error(err::kNotInteger);
      }
      break;
    case RemoveBy::kScore:
      if (!ParseScoreRange(ctx.arg(2), ctx.arg(3), &score)) {
        return ctx.reply.Error(err::kMinMaxNotFloat);
      }
      break;
    case RemoveBy::kLex:
      if (!ParseLexRange(ctx.arg(2), ctx.arg(3), &lex)) {
        return ctx.reply.Error(err::kMinMaxNotLex);
      }
      break;
  }
  bool wrong_type;
  SortedSet* z = FindZSetWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!z) return ctx.reply.Integer(0);
  ZRangeArgs a;
  a.by = by == RemoveBy::kRank ? ZRangeArgs::By::kRank
         : by == RemoveBy::kScore ? ZRangeArgs::By::kScore
                                  : ZRangeArgs::By::kLex;
  a.start = start;
  a.stop = stop;
  a.score = score;
  a.lex = lex;
  RankSlice s = SelectRange(*z, a);
  if (s.count == 0) return ctx.reply.Integer(0);
  uint64_t deleted = z->RemoveRankRange(s.first, s.first + s.count - 1);
  ReportRemoval(ctx, ctx.arg(1), z->empty(), kNotifyZset,
                by == RemoveBy::kRank    ? "zremrangebyrank"
                : by == RemoveBy::kScore ? "zremrangebyscore"
                                         : "zremrangebylex");
  ctx.reply.Integer(static_cast<int64_t>(deleted));
}

void ZRemRangeByRank(CommandContext& ctx) { ZRemRangeGeneric(ctx, RemoveBy::kRank); }
void ZRemRangeByScore(CommandContext& ctx) { ZRemRangeGeneric(ctx, RemoveBy::kScore); }
void ZRemRangeByLex(CommandContext& ctx) { ZRemRangeGeneric(ctx, RemoveBy::kLex); }

// ZCARD key
void ZCard(CommandContext& ctx) {
  bool wrong_type;
  SortedSet* z = FindZSetRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ctx.reply.Integer(z ? static_cast<int64_t>(z->size()) : 0);
}

// ZSCORE key member
void ZScore(CommandContext& ctx) {
  bool wrong_type;
  SortedSet* z = FindZSetRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  std::optional<double> score = z ? z->Score(ctx.arg(2)) : std::nullopt;
  if (!score) return ctx.reply.Null();
  ctx.reply.Double(*score);
}

// ZMSCORE key member [member ...]
void ZMScore(CommandContext& ctx) {
  bool wrong_type;
  SortedSet* z = FindZSetRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ctx.reply.ArrayHeader(ctx.argc() - 2);
  for (size_t i = 2; i < ctx.argc(); i++) {
    std::optional<double> score = z ? z->Score(ctx.arg(i)) : std::nullopt;
    score ? ctx.reply.Double(*score) : ctx.reply.Null();
  }
}

// ZRANK / ZREVRANK key member [WITHSCORE]. WITHSCORE is Redis 7.2's; Redis
// 7.0 answers it with a wrong-arity error.
void ZRankGeneric(CommandContext& ctx, bool reverse) {
  if (ctx.argc() > 4) return ctx.reply.Error(WrongArityError(ctx.arg(0)));
  bool withscore = false;
  if (ctx.argc() == 4) {
    if (!EqualsIgnoreCase(ctx.arg(3), "withscore")) return ctx.reply.Error(err::kSyntax);
    withscore = true;
  }
  bool wrong_type;
  SortedSet* z = FindZSetRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  std::optional<uint64_t> rank = z ? z->Rank(ctx.arg(2)) : std::nullopt;
  if (!rank) return withscore ? ctx.reply.NullArray() : ctx.reply.Null();
  const int64_t r = static_cast<int64_t>(reverse ? z->size() - 1 - *rank : *rank);
  if (!withscore) return ctx.reply.Integer(r);
  ctx.reply.ArrayHeader(2);
  ctx.reply.Integer(r);
  ctx.reply.Double(*z->Score(ctx.arg(2)));
}

void ZRank(CommandContext& ctx) { ZRankGeneric(ctx, false); }
void ZRevRank(CommandContext& ctx) { ZRankGeneric(ctx, true); }

// ZCOUNT key min max
void ZCount(CommandContext& ctx) {
  ScoreRange range;
  if (!ParseScoreRange(ctx.arg(2), ctx.arg(3), &range)) {
    return ctx.reply.Error(err::kMinMaxNotFloat);
  }
  bool wrong_type;
  SortedSet* z = FindZSetRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!z) return ctx.reply.Integer(0);
  auto [lo, hi] = ScoreRankBounds(*z, range);
  ctx.reply.Integer(static_cast<int64_t>(hi - lo));
}

// ZLEXCOUNT key min max
void ZLexCount(CommandContext& ctx) {
  LexRange range;
  if (!ParseLexRange(ctx.arg(2), ctx.arg(3), &range)) {
    return ctx.reply.Error(err::kMinMaxNotLex);
  }
  bool wrong_type;
  SortedSet* z = FindZSetRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!z) return ctx.reply.Integer(0);
  ZRangeArgs a;
  a.by = ZRangeArgs::By::kLex;
  a.lex = range;
  ctx.reply.Integer(static_cast<int64_t>(SelectRange(*z, a).count));
}

// `count` distinct ascending ranks of a set of `size`, in random order.
// REQUIRES: count < size.
std::vector<uint64_t> DistinctRanks(uint64_t size, uint64_t count) {
  std::vector<uint64_t> ranks;
  if (count * 3 > size) {
    // Close to the whole set: shuffle all ranks and keep a prefix (Redis
    // removes random members from a copy; the outcome is the same law).
    ranks.resize(size);
    for (uint64_t i = 0; i < size; i++) ranks[i] = i;
    for (uint64_t i = 0; i < count; i++) {
      std::uniform_int_distribution<uint64_t> d(i, size - 1);
      std::swap(ranks[i], ranks[d(Rng())]);
    }
    ranks.resize(count);
    return ranks;
  }
  absl::flat_hash_set<uint64_t> seen;
  std::uniform_int_distribution<uint64_t> d(0, size - 1);
  while (ranks.size() < count) {
    uint64_t r = d(Rng());
    if (seen.insert(r).second) ranks.push_back(r);
  }
  return ranks;
}

// ZRANDMEMBER key [count [WITHSCORES]]
void ZRandMember(CommandContext& ctx) {
  int64_t l = 0;
  bool withscores = false;
  const bool with_count = ctx.argc() >= 3;
  if (with_count) {
    if (!ParseInt64(ctx.arg(2), &l)) return ctx.reply.Error(err::kNotInteger);
    if (l == INT64_MIN) return ctx.reply.Error(err::kLongOutOfRange);
    if (ctx.argc() > 4 || (ctx.argc() == 4 && !EqualsIgnoreCase(ctx.arg(3), "withscores"))) {
      return ctx.reply.Error(err::kSyntax);
    }
    withscores = ctx.argc() == 4;
    // The RESP2 reply holds 2 * count entries.
    if (withscores && (l < -INT64_MAX / 2 || l > INT64_MAX / 2)) {
      return ctx.reply.Error(err::kValueOutOfRange);
    }
  }
  bool wrong_type;
  SortedSet* z = FindZSetRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!with_count) {
    if (!z) return ctx.reply.Null();
    std::uniform_int_distribution<uint64_t> d(0, z->size() - 1);
    return ctx.reply.Bulk(z->At(d(Rng())).first);
  }
  if (!z || l == 0) return ctx.reply.EmptyArray();
  const ListShape shape = MaybeScores(ctx.reply, withscores);
  const uint64_t size = z->size();
  const bool unique = l > 0;
  const uint64_t count = unique ? static_cast<uint64_t>(l) : static_cast<uint64_t>(-l);
  if (!unique || count == 1) {
    // Independent picks, repeats allowed.
    std::uniform_int_distribution<uint64_t> d(0, size - 1);
    // Not bounded by the set: capped (commands/random_picks.h).
    return ReplyRepeatedPicks(
        ctx.reply, count, [&](uint64_t n) { ReplyListHeader(ctx.reply, n, shape); },
        [&] {
          auto [m, s] = z->At(d(Rng()));
          ReplyListItem(ctx.reply, m, s, shape);
        });
  }
  if (count >= size) {
    // The whole set, in the order Redis's iterator visits it (from the top).
    return ReplyRankRange(ctx.reply, *z, 0, size, true, shape);
  }
  std::vector<uint64_t> ranks = DistinctRanks(size, count);
  ReplyListHeader(ctx.reply, ranks.size(), shape);
  for (uint64_t r : ranks) {
    auto [m, s] = z->At(r);
    ReplyListItem(ctx.reply, m, s, shape);
  }
}

// How ZSCAN prints a score: a compact (listpack) set stores integral scores
// within +-2^62 as integers, so Redis prints them without an exponent (and
// -0 as 0); a tree prints "%.17g".
std::string ScanScore(double score, bool compact) {
  if (compact && score >= -4611686018427387903.0 && score <= 4611686018427387903.0) {
    int64_t ll = static_cast<int64_t>(score);
    if (static_cast<double>(ll) == score) return FormatInt64(ll);
  }
  return FormatDouble(score);
}

// ZSCAN key cursor [MATCH pattern] [COUNT count]
void ZScan(CommandContext& ctx) {
  uint64_t cursor;
  ScanArgs scan;
  const SortedSet* z = OpenScan(ctx, &FindZSetRead, &cursor, &scan);
  if (!z) return;
  const bool compact = z->encoding() == SortedSet::Encoding::kCompact;
  std::vector<std::string> items;
  uint64_t next = z->Scan(cursor, scan.count, [&](std::string_view m, double s) {
    if (scan.use_pattern && !GlobMatch(scan.pattern, m)) return;
    items.emplace_back(m);
    items.push_back(ScanScore(s, compact));
  });
  ReplyScan(ctx.reply, next, items);
}

// Arity follows Redis: N = exactly N args (incl. name), -N = at least N.
// ZRANK / ZREVRANK take -3 for the 7.2 WITHSCORE option.
constexpr CommandSpec kZSetCommands[] = {
    // name               arity  flags                                   first last step handler
    {"zadd",              -4,    kWrite | kDenyOom | kFast,              1,    1,   1,   &ZAdd},
    {"zincrby",           4,     kWrite | kDenyOom | kFast,              1,    1,   1,   &ZIncrBy},
    {"zrem",              -3,    kWrite | kFast,                         1,    1,   1,   &ZRem},
    {"zremrangebyrank",   4,     kWrite,                                 1,    1,   1,   &ZRemRangeByRank},
    {"zremrangebyscore",  4,     kWrite,                                 1,    1,   1,   &ZRemRangeByScore},
    {"zremrangebylex",    4,     kWrite,                                 1,    1,   1,   &ZRemRangeByLex},
    {"zunionstore",       -4,    kWrite | kDenyOom,                      1,    1,   1,   &ZUnionStore},
    {"zinterstore",       -4,    kWrite | kDenyOom,                      1,    1,   1,   &ZInterStore},
    {"zdiffstore",        -4,    kWrite | kDenyOom,                      1,    1,   1,   &ZDiffStore},
    {"zunion",            -3,    kReadOnly,                              0,    0,   0,   &ZUnion},
    {"zinter",            -3,    kReadOnly,                              0,    0,   0,   &ZInter},
    {"zdiff",             -3,    kReadOnly,                              0,    0,   0,   &ZDiff},
    {"zintercard",        -3,    kReadOnly,                              0,    0,   0,   &ZInterCard},
    {"zrange",            -4,    kReadOnly,                              1,    1,   1,   &ZRange},
    {"zrangestore",       -5,    kWrite | kDenyOom,                      1,    2,   1,   &ZRangeStore},
    {"zrangebyscore",     -4,    kReadOnly,                              1,    1,   1,   &ZRangeByScore},
    {"zrevrangebyscore",  -4,    kReadOnly,                              1,    1,   1,   &ZRevRangeByScore},
    {"zrangebylex",       -4,    kReadOnly,                              1,    1,   1,   &ZRangeByLex},
    {"zrevrangebylex",    -4,    kReadOnly,                              1,    1,   1,   &ZRevRangeByLex},
    {"zrevrange",         -4,    kReadOnly,                              1,    1,   1,   &ZRevRange},
    {"zcount",            4,     kReadOnly | kFast,                      1,    1,   1,   &ZCount},
    {"zlexcount",         4,     kReadOnly | kFast,                      1,    1,   1,   &ZLexCount},
    {"zcard",             2,     kReadOnly | kFast,                      1,    1,   1,   &ZCard},
    {"zscore",            3,     kReadOnly | kFast,                      1,    1,   1,   &ZScore},
    {"zmscore",           -3,    kReadOnly | kFast,                      1,    1,   1,   &ZMScore},
    {"zrank",             -3,    kReadOnly | kFast,                      1,    1,   1,   &ZRank},
    {"zrevrank",          -3,    kReadOnly | kFast,                      1,    1,   1,   &ZRevRank},
    {"zrandmember",       -2,    kReadOnly,                              1,    1,   1,   &ZRandMember},
    {"zscan",             -3,    kReadOnly,                              1,    1,   1,   &ZScan},
    {"zpopmin",           -2,    kWrite | kFast,                         1,    1,   1,   &ZPopMin},
    {"zpopmax",           -2,    kWrite | kFast,                         1,    1,   1,   &ZPopMax},
    {"zmpop",             -4,    kWrite,                                 0,    0,   0,   &ZMPop},
    {"bzpopmin",          -3,    kWrite | kNoScript | kFast | kBlocking, 1,    -2,  1,   &BZPopMin},
    {"bzpopmax",          -3,    kWrite | kNoScript | kFast | kBlocking, 1,    -2,  1,   &BZPopMax},
    {"bzmpop",            -5,    kWrite | kBlocking,                     0,    0,   0,   &BZMPop},
};

}  // namespace

std::span<const CommandSpec> ZSetCommands() { return kZSetCommands; }

}  // namespace rankd
