// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// ZUNION, ZINTER, ZDIFF, their STORE forms and ZINTERCARD, following Redis
// 7.0's zunionInterDiffGenericCommand step for step where the order is
// visible: keys are looked up (WRONGTYPE) before the options are parsed;
// union and intersection visit the inputs smallest first (a stable sort, as
// glibc's merge-sort qsort is), which fixes the order of floating-point
// sums. The score arithmetic (NaN and infinity rules) is core/zset_algebra.h.
// Plain sets are inputs with score 1. A store into a leaderboard keeps it a
// board (server/lb_store.h).

#include <algorithm>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "base/numbers.h"
#include "base/str_hash.h"
#include "commands/lb_store.h"
#include "commands/zset_common.h"
#include "commands/zset_handlers.h"
#include "core/zset_algebra.h"
#include "server/errors.h"
#include "server/keys_common.h"
#include "server/server.h"

namespace rankd {
namespace {

enum class SetOp { kUnion, kInter, kDiff };

// One input: a sorted set, a plain set, or nothing (missing key).
struct Source {
  const SortedSet* z = nullptr;
  const PlainSet* s = nullptr;
  double weight = 1;

  size_t size() const { return z ? z->size() : s ? s->size() : 0; }
  bool same_object(const Source& o) const {
    return (z && z == o.z) || (s && s == o.s);
  }
  bool Find(std::string_view member, double* score) const {
    if (z) {
      std::optional<double> sc = z->Score(member);
      if (sc) *score = *sc;
      return sc.has_value();
    }
    *score = 1.0;
    return s && s->Contains(member);
  }
  // fn(member, score); the member view is valid during the call only.
  template <class Fn>
  void ForEach(Fn&& fn) const {
    if (z && !z->empty()) {
      z->ForEachInRankRange(0, z->size() - 1, false, fn);
    } else if (s) {
      s->ForEach([&](std::string_view m) { fn(m, 1.0); });
    }
  }
};

struct AlgebraArgs {
  std::vector<Source> sources;
  Aggregate aggregate = Aggregate::kSum;  // core/zset_algebra.h
  bool withscores = false;
  int64_t limit = 0;  // ZINTERCARD; 0: none
};

// Parses numkeys, looks the keys up, then parses the options. Replies and
// returns false on error. `numkeys_index` is 1 (ZUNION) or 2 (ZUNIONSTORE).
bool ParseAlgebra(CommandContext& ctx, size_t numkeys_index, SetOp op, bool store,
                  bool cardinality_only, AlgebraArgs* out) {
  int64_t numkeys;
  if (std::string e = ParseNumKeys(ctx.args, numkeys_index, &numkeys); !e.empty()) {
    ctx.reply.Error(e);
    return false;
  }
  size_t j = numkeys_index + 1;
  for (int64_t i = 0; i < numkeys; i++, j++) {
    Source src;
    if (Database::Entry* e = LookupRead(ctx, ctx.arg(j))) {
      if (e->value.type() == ValueType::kZSet) {
        src.z = &e->value.zset();
      } else if (e->value.type() == ValueType::kSet) {
        src.s = &e->value.set();
      } else {
        ctx.reply.Error(err::kWrongType);
        return false;
      }
    }
    out->sources.push_back(src);
  }
  const size_t n = out->sources.size();
  while (j < ctx.argc()) {
    const size_t remaining = ctx.argc() - j;
    std::string_view opt = ctx.arg(j);
    if (op != SetOp::kDiff && !cardinality_only && remaining >= n + 1 &&
        EqualsIgnoreCase(opt, "weights")) {
      j++;
      for (Source& src : out->sources) {
        if (!ParseDouble(ctx.arg(j++), &src.weight)) {
          ctx.reply.Error(err::kWeightNotFloat);
          return false;
        }
      }
    } else if (op != SetOp::kDiff && !cardinality_only && remaining >= 2 &&
               EqualsIgnoreCase(opt, "aggregate")) {
      std::string_view a = ctx.arg(j + 1);
      if (EqualsIgnoreCase(a, "sum")) {
        out->aggregate = Aggregate::kSum;
      } else if (EqualsIgnoreCase(a, "min")) {
        out->aggregate = Aggregate::kMin;
      } else if (EqualsIgnoreCase(a, "max")) {
        out->aggregate = Aggregate::kMax;
      } else {
        ctx.reply.Error(err::kSyntax);
        return false;
      }
      j += 2;
    } else if (!store && !cardinality_only && EqualsIgnoreCase(opt, "withscores")) {
      out->withscores = true;
      j++;
    } else if (cardinality_only && remaining >= 2 && EqualsIgnoreCase(opt, "limit")) {
      if (!ParseInt64(ctx.arg(j + 1), &out->limit) || out->limit < 0) {
        ctx.reply.Error(err::kLimitNegative);
        return false;
      }
      j += 2;
    } else {
      ctx.reply.Error(err::kSyntax);
      return false;
    }
  }
  if (op != SetOp::kDiff) {
    std::stable_sort(out->sources.begin(), out->sources.end(),
                     [](const Source& a, const Source& b) { return a.size() < b.size(); });
  }
  return true;
}

// The intersection, or with `count_only` just its size in *count (stopping
// at a.limit when non-zero).
ScoredMembers Intersect(const AlgebraArgs& a, bool count_only, uint64_t* count) {
  ScoredMembers out;
  *count = 0;
  const std::vector<Source>& src = a.sources;
  if (src[0].size() == 0) return out;
  bool stop = false;
  src[0].ForEach([&](std::string_view member, double s0) {
    if (stop) return;
    double score = WeightedScore(s0, src[0].weight);
    for (size_t j = 1; j < src.size(); j++) {
      double value = s0;  // an input repeated is not looked up in itself
      if (!src[j].same_object(src[0]) && !src[j].Find(member, &value)) return;
      AggregateInterInput(a.aggregate, &score, value, src[j].weight);
    }
    ++*count;
    if (count_only) {
      if (a.limit > 0 && *count >= static_cast<uint64_t>(a.limit)) stop = true;
      return;
    }
    out.emplace_back(member, score);
  });
  return out;
}

ScoredMembers Union(const AlgebraArgs& a) {
  absl::flat_hash_map<std::string, double, StrHash, StrEq> acc;
  for (const Source& src : a.sources) {
    src.ForEach([&](std::string_view member, double s) {
      auto it = acc.find(member);
      if (it == acc.end()) {
        acc.emplace(member, WeightedScore(s, src.weight));
      } else {
        AggregateUnionInput(a.aggregate, &it->second, s, src.weight);
      }
    });
  }
  ScoredMembers out(acc.begin(), acc.end());
  return out;
}

ScoredMembers Difference(const AlgebraArgs& a) {
  ScoredMembers out;
  const std::vector<Source>& src = a.sources;
  for (size_t j = 1; j < src.size(); j++) {
    if (src[j].same_object(src[0])) return out;
  }
  src[0].ForEach([&](std::string_view member, double s0) {
    double ignored;
    for (size_t j = 1; j < src.size(); j++) {
      if (src[j].Find(member, &ignored)) return;
    }
    out.emplace_back(member, s0);
  });
  return out;
}

void AlgebraGeneric(CommandContext& ctx, SetOp op, bool store) {
  AlgebraArgs a;
  if (!ParseAlgebra(ctx, store ? 2 : 1, op, store, false, &a)) return;
  ScoredMembers result;
  uint64_t ignored;
  switch (op) {
    case SetOp::kUnion:
      result = Union(a);
      break;
    case SetOp::kInter:
      result = Intersect(a, false, &ignored);
      break;
    case SetOp::kDiff:
      result = Difference(a);
      break;
  }
  if (!store) {
    std::sort(result.begin(), result.end(), [](const auto& x, const auto& y) {
      return x.second < y.second || (x.second == y.second && x.first < y.first);
    });
    return ReplyList(ctx.reply, result, MaybeScores(ctx.reply, a.withscores));
  }
  // The inputs are not used past this point: dst may be one of them.
  StoreZSetResult(ctx, ctx.arg(1),
                  op == SetOp::kUnion   ? "zunionstore"
                  : op == SetOp::kInter ? "zinterstore"
                                        : "zdiffstore",
                  result, BuildOrder::kWhole);
}

}  // namespace

// ZUNION numkeys key [key ...] [WEIGHTS w ...] [AGGREGATE SUM|MIN|MAX] [WITHSCORES]
void ZUnion(CommandContext& ctx) { AlgebraGeneric(ctx, SetOp::kUnion, false); }
void ZInter(CommandContext& ctx) { AlgebraGeneric(ctx, SetOp::kInter, false); }
// ZDIFF numkeys key [key ...] [WITHSCORES]
void ZDiff(CommandContext& ctx) { AlgebraGeneric(ctx, SetOp::kDiff, false); }
// ZUNIONSTORE dst numkeys key [key ...] [WEIGHTS w ...] [AGGREGATE SUM|MIN|MAX]
void ZUnionStore(CommandContext& ctx) { AlgebraGeneric(ctx, SetOp::kUnion, true); }
void ZInterStore(CommandContext& ctx) { AlgebraGeneric(ctx, SetOp::kInter, true); }
void ZDiffStore(CommandContext& ctx) { AlgebraGeneric(ctx, SetOp::kDiff, true); }

// ZINTERCARD numkeys key [key ...] [LIMIT limit]
void ZInterCard(CommandContext& ctx) {
  AlgebraArgs a;
  if (!ParseAlgebra(ctx, 1, SetOp::kInter, false, true, &a)) return;
  uint64_t count;
  (void)Intersect(a, true, &count);
  ctx.reply.Integer(static_cast<int64_t>(count));
}

}  // namespace rankd
