// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The set family (Redis 7.0 semantics, intset / hashtable encodings). Sets
// are here chiefly as inputs of ZUNION / ZINTER / ZDIFF (the friends-board
// pattern), with the everyday commands and the set algebra around them.
//
// Reply order: Redis lists an intset in ascending order and a hashtable in
// its own hash order; we list intsets the same way and hashtables in ours,
// so only small integer sets come out in the same order as Redis.
//
// Random picks (SRANDMEMBER, SPOP) gather the members first: O(n) per call,
// where Redis picks a random bucket. SPOP is logged as SREM of the members
// it took, so a replay removes exactly those.

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "base/glob.h"
#include "base/numbers.h"
#include "commands/families.h"
#include "commands/random_picks.h"
#include "commands/zset_args.h"
#include "commands/zset_common.h"
#include "server/errors.h"
#include "server/keys_common.h"
#include "server/server.h"

namespace rankd {
namespace {

std::mt19937_64& Rng() {
  static std::mt19937_64 rng{std::random_device{}()};
  return rng;
}

std::vector<std::string> Members(const PlainSet& s) {
  std::vector<std::string> out;
  out.reserve(s.size());
  s.ForEach([&](std::string_view m) { out.emplace_back(m); });
  return out;
}

// `count` distinct indexes below `size`, in random order. REQUIRES: count <= size.
std::vector<size_t> DistinctIndexes(size_t size, size_t count) {
  std::vector<size_t> idx(size);
  for (size_t i = 0; i < size; i++) idx[i] = i;
  for (size_t i = 0; i < count; i++) {
    std::uniform_int_distribution<size_t> d(i, size - 1);
    std::swap(idx[i], idx[d(Rng())]);
  }
  idx.resize(count);
  return idx;
}

// SADD key member [member ...]
void SAdd(CommandContext& ctx) {
  bool wrong_type;
  PlainSet* s = FindSetWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!s) s = &ctx.db().Insert(ctx.arg(1), Value(std::make_unique<PlainSet>()))->value.set();
  const PlainSetLimits limits = ctx.server.set_limits();
  int64_t added = 0;
  for (size_t i = 2; i < ctx.argc(); i++) added += s->Add(ctx.arg(i), limits);
  if (added) KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifySet, "sadd");
  ctx.reply.Integer(added);
}

// SREM key member [member ...]
void SRem(CommandContext& ctx) {
  bool wrong_type;
  PlainSet* s = FindSetWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!s) return ctx.reply.Integer(0);
  int64_t removed = 0;
  for (size_t i = 2; i < ctx.argc() && !s->empty(); i++) removed += s->Remove(ctx.arg(i));
  if (removed) ReportRemoval(ctx, ctx.arg(1), s->empty(), kNotifySet, "srem");
  ctx.reply.Integer(removed);
}

// SMOVE source destination member
void SMove(CommandContext& ctx) {
  bool src_wrong, dst_wrong;
  PlainSet* src = FindSetWrite(ctx, ctx.arg(1), &src_wrong);
  PlainSet* dst = FindSetWrite(ctx, ctx.arg(2), &dst_wrong);
  if (!src && !src_wrong) return ctx.reply.Integer(0);
  if (src_wrong || dst_wrong) return ctx.reply.Error(err::kWrongType);
  std::string_view member = ctx.arg(3);
  if (src == dst) return ctx.reply.Integer(src->Contains(member) ? 1 : 0);
  if (!src->Remove(member)) return ctx.reply.Integer(0);
  ReportRemoval(ctx, ctx.arg(1), src->empty(), kNotifySet, "srem");
  if (!dst) dst = &ctx.db().Insert(ctx.arg(2), Value(std::make_unique<PlainSet>()))->value.set();
  if (dst->Add(member, ctx.server.set_limits())) {
    KeyChanged(ctx, ctx.db(), ctx.arg(2), kNotifySet, "sadd");
  }
  ctx.reply.Integer(1);
}

// SCARD key
void SCard(CommandContext& ctx) {
  bool wrong_type;
  PlainSet* s = FindSetRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ctx.reply.Integer(s ? static_cast<int64_t>(s->size()) : 0);
}

// SISMEMBER key member
void SIsMember(CommandContext& ctx) {
  bool wrong_type;
  PlainSet* s = FindSetRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ctx.reply.Integer(s && s->Contains(ctx.arg(2)) ? 1 : 0);
}

// SMISMEMBER key member [member ...]
void SMIsMember(CommandContext& ctx) {
  bool wrong_type;
  PlainSet* s = FindSetRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ctx.reply.ArrayHeader(ctx.argc() - 2);
  for (size_t i = 2; i < ctx.argc(); i++) ctx.reply.Integer(s && s->Contains(ctx.arg(i)) ? 1 : 0);
}

// ---- Algebra: SMEMBERS, SINTER, SUNION, SDIFF, their STORE forms, SINTERCARD ----

enum class SetOp { kInter, kUnion, kDiff };

// Looks up `keys` (missing keys are nullptr). Replies WRONGTYPE and returns
// false if any key holds another type.
bool LookupSets(CommandContext& ctx, Args keys, std::vector<const PlainSet*>* out) {
  for (std::string_view key : keys) {
    bool wrong_type;
    const PlainSet* s = FindSetRead(ctx, key, &wrong_type);
    if (wrong_type) {
      ctx.reply.Error(err::kWrongType);
      return false;
    }
    out->push_back(s);
  }
  return true;
}

// The members of the result, in Redis's reply order where it is defined.
// Stops an intersection after `limit` members when limit > 0.
std::vector<std::string> Compute(std::vector<const PlainSet*> sets, SetOp op, size_t limit,
                                 const PlainSetLimits& limits) {
  std::vector<std::string> out;
  if (op == SetOp::kInter) {
    for (const PlainSet* s : sets) {
      if (!s) return out;  // an empty input empties the intersection
    }
    std::stable_sort(sets.begin(), sets.end(),
                     [](const PlainSet* a, const PlainSet* b) { return a->size() < b->size(); });
    sets[0]->ForEach([&](std::string_view m) {
      if (limit > 0 && out.size() >= limit) return;
      for (size_t j = 1; j < sets.size(); j++) {
        if (sets[j] != sets[0] && !sets[j]->Contains(m)) return;
      }
      out.emplace_back(m);
    });
    return out;
  }
  // Union and difference build the result set, then list it (Redis's order).
  PlainSet result;
  if (op == SetOp::kUnion) {
    for (const PlainSet* s : sets) {
      if (s) s->ForEach([&](std::string_view m) { result.Add(m, limits); });
    }
  } else if (sets[0]) {
    for (size_t j = 1; j < sets.size(); j++) {
      if (sets[j] == sets[0]) return out;
    }
    sets[0]->ForEach([&](std::string_view m) {
      for (size_t j = 1; j < sets.size(); j++) {
        if (sets[j] && sets[j]->Contains(m)) return;
      }
      result.Add(m, limits);
    });
  }
  return Members(result);
}

void ReplySet(ReplyBuilder& r, const std::vector<std::string>& members) {
  r.SetHeader(members.size());
  for (const std::string& m : members) r.Bulk(m);
}

// Writes `members` to `dst` (deleting it when empty) and replies the count.
void StoreSet(CommandContext& ctx, std::string_view dst, const std::vector<std::string>& members,
              std::string_view event) {
  Database& db = ctx.db();
  if (members.empty()) {
    if (db.Delete(dst)) KeyChanged(ctx, db, dst, kNotifyGeneric, "del");
    return ctx.reply.Integer(0);
  }
  auto s = std::make_unique<PlainSet>();
  const PlainSetLimits limits = ctx.server.set_limits();
  for (const std::string& m : members) s->Add(m, limits);
  db.Set(dst, Value(std::move(s)));
  KeyChanged(ctx, db, dst, kNotifySet, event);
  ctx.reply.Integer(static_cast<int64_t>(members.size()));
}

void AlgebraGeneric(CommandContext& ctx, SetOp op, bool store) {
  Args keys = ctx.args.subspan(store ? 2 : 1);
  std::vector<const PlainSet*> sets;
  if (!LookupSets(ctx, keys, &sets)) return;
  std::vector<std::string> members = Compute(std::move(sets), op, 0, ctx.server.set_limits());
  if (store) {
    return StoreSet(ctx, ctx.arg(1), members,
                    op == SetOp::kInter   ? "sinterstore"
                    : op == SetOp::kUnion ? "sunionstore"
                                          : "sdiffstore");
  }
  ReplySet(ctx.reply, members);
}

void SMembers(CommandContext& ctx) { AlgebraGeneric(ctx, SetOp::kInter, false); }
void SInter(CommandContext& ctx) { AlgebraGeneric(ctx, SetOp::kInter, false); }
void SUnion(CommandContext& ctx) { AlgebraGeneric(ctx, SetOp::kUnion, false); }
void SDiff(CommandContext& ctx) { AlgebraGeneric(ctx, SetOp::kDiff, false); }
void SInterStore(CommandContext& ctx) { AlgebraGeneric(ctx, SetOp::kInter, true); }
void SUnionStore(CommandContext& ctx) { AlgebraGeneric(ctx, SetOp::kUnion, true); }
void SDiffStore(CommandContext& ctx) { AlgebraGeneric(ctx, SetOp::kDiff, true); }

// SINTERCARD numkeys key [key ...] [LIMIT limit]
void SInterCard(CommandContext& ctx) {
  int64_t numkeys, limit = 0;
  if (!ParseInt64(ctx.arg(1), &numkeys) || numkeys < 1) {
    return ctx.reply.Error(err::kNumKeysPositive);
  }
  if (numkeys > static_cast<int64_t>(ctx.argc() - 2)) return ctx.reply.Error(err::kNumKeysOverArgs);
  for (size_t j = 2 + numkeys; j < ctx.argc(); j++) {
    if (EqualsIgnoreCase(ctx.arg(j), "limit") && j + 1 < ctx.argc()) {
      j++;
      if (!ParseInt64(ctx.arg(j), &limit) || limit < 0) return ctx.reply.Error(err::kLimitNegative);
    } else {
      return ctx.reply.Error(err::kSyntax);
    }
  }
  std::vector<const PlainSet*> sets;
  if (!LookupSets(ctx, ctx.args.subspan(2, numkeys), &sets)) return;
  std::vector<std::string> members =
      Compute(std::move(sets), SetOp::kInter, static_cast<size_t>(limit), ctx.server.set_limits());
  ctx.reply.Integer(static_cast<int64_t>(members.size()));
}

// ---- Random picks ----

// SRANDMEMBER key [count]
void SRandMember(CommandContext& ctx) {
  if (ctx.argc() > 3) return ctx.reply.Error(err::kSyntax);
  int64_t l = 0;
  const bool with_count = ctx.argc() == 3;
  if (with_count) {
    if (!ParseInt64(ctx.arg(2), &l)) return ctx.reply.Error(err::kNotInteger);
    if (l == INT64_MIN) return ctx.reply.Error(err::kLongOutOfRange);
  }
  bool wrong_type;
  PlainSet* s = FindSetRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!s) return with_count ? ctx.reply.EmptyArray() : ctx.reply.Null();
  std::vector<std::string> members = Members(*s);
  std::uniform_int_distribution<size_t> pick(0, members.size() - 1);
  if (!with_count) return ctx.reply.Bulk(members[pick(Rng())]);
  if (l == 0) return ctx.reply.EmptyArray();
  if (l < 0) {
    // Not bounded by the set: capped (commands/random_picks.h).
    return ReplyRepeatedPicks(
        ctx.reply, static_cast<uint64_t>(-l), [&](uint64_t n) { ctx.reply.ArrayHeader(n); },
        [&] { ctx.reply.Bulk(members[pick(Rng())]); });
  }
  const size_t count = std::min<uint64_t>(static_cast<uint64_t>(l), members.size());
  if (count == members.size()) {
    ctx.reply.ArrayHeader(count);
    for (const std::string& m : members) ctx.reply.Bulk(m);
    return;
  }
  ctx.reply.ArrayHeader(count);
  for (size_t i : DistinctIndexes(members.size(), count)) ctx.reply.Bulk(members[i]);
}

// SPOP key [count]
void SPop(CommandContext& ctx) {
  if (ctx.argc() > 3) return ctx.reply.Error(err::kSyntax);
  int64_t count = -1;  // -1: a single member, as a bulk string
  if (ctx.argc() == 3 && (!ParseInt64(ctx.arg(2), &count) || count < 0)) {
    return ctx.reply.Error(err::kCountNegative);
  }
  bool wrong_type;
  PlainSet* s = FindSetWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!s) return count < 0 ? ctx.reply.Null() : ctx.reply.SetHeader(0);
  if (count == 0) return ctx.reply.SetHeader(0);
  std::vector<std::string> members = Members(*s);
  std::vector<std::string> popped;
  if (count >= static_cast<int64_t>(members.size())) {
    popped = std::move(members);
  } else {
    for (size_t i : DistinctIndexes(members.size(), count < 0 ? 1 : count)) {
      popped.push_back(std::move(members[i]));
    }
  }
  for (const std::string& m : popped) s->Remove(m);
  std::vector<std::string_view> effect = {"SREM", ctx.arg(1)};
  for (const std::string& m : popped) effect.push_back(m);
  ctx.server.Propagate(ctx.client, effect);
  ReportRemoval(ctx, ctx.arg(1), s->empty(), kNotifySet, "spop");
  if (count < 0) return ctx.reply.Bulk(popped[0]);
  ReplySet(ctx.reply, popped);
}

// SSCAN key cursor [MATCH pattern] [COUNT count]
void SScan(CommandContext& ctx) {
  uint64_t cursor;
  ScanArgs scan;
  const PlainSet* s = OpenScan(ctx, &FindSetRead, &cursor, &scan);
  if (!s) return;
  std::vector<std::string> items;
  uint64_t next = s->Scan(cursor, scan.count, [&](std::string_view m) {
    if (!scan.use_pattern || GlobMatch(scan.pattern, m)) items.emplace_back(m);
  });
  ReplyScan(ctx.reply, next, items);
}

constexpr CommandSpec kSetCommands[] = {
    // name          arity  flags                      first last step handler
    {"sadd",         -3,    kWrite | kDenyOom | kFast, 1,    1,   1,   &SAdd},
    {"srem",         -3,    kWrite | kFast,            1,    1,   1,   &SRem},
    {"smove",        4,     kWrite | kFast,            1,    2,   1,   &SMove},
    {"scard",        2,     kReadOnly | kFast,         1,    1,   1,   &SCard},
    {"sismember",    3,     kReadOnly | kFast,         1,    1,   1,   &SIsMember},
    {"smismember",   -3,    kReadOnly | kFast,         1,    1,   1,   &SMIsMember},
    {"smembers",     2,     kReadOnly,                 1,    1,   1,   &SMembers},
    {"sinter",       -2,    kReadOnly,                 1,    -1,  1,   &SInter},
    {"sunion",       -2,    kReadOnly,                 1,    -1,  1,   &SUnion},
    {"sdiff",        -2,    kReadOnly,                 1,    -1,  1,   &SDiff},
    {"sinterstore",  -3,    kWrite | kDenyOom,         1,    -1,  1,   &SInterStore},
    {"sunionstore",  -3,    kWrite | kDenyOom,         1,    -1,  1,   &SUnionStore},
    {"sdiffstore",   -3,    kWrite | kDenyOom,         1,    -1,  1,   &SDiffStore},
    {"sintercard",   -3,    kReadOnly,                 0,    0,   0,   &SInterCard},
    {"srandmember",  -2,    kReadOnly,                 1,    1,   1,   &SRandMember},
    {"spop",         -2,    kWrite | kFast,            1,    1,   1,   &SPop},
    {"sscan",        -3,    kReadOnly,                 1,    1,   1,   &SScan},
};

}  // namespace

std::span<const CommandSpec> SetCommands() { return kSetCommands; }

}  // namespace rankd
