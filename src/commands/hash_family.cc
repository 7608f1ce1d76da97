// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The hash family (Redis 7.0 semantics; listpack / hashtable encodings, see
// core/hash.h). Field expiry (HEXPIRE & co., Redis 7.4) is in
// hash_expire.cc.
//
// Reply order: a listpack hash replies in insertion order, as Redis; a
// hashtable in its own table order (Redis's is its dict's), so HGETALL /
// HKEYS / HVALS of a large hash match Redis only as sets.
//
// HINCRBYFLOAT is logged as HSET of the resulting value (as Redis
// replicates it): float addition may not replay exactly. HRANDFIELD
// gathers the pairs first: O(n) per call.

#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/glob.h"
#include "base/numbers.h"
#include "commands/families.h"
#include "commands/random_picks.h"
#include "commands/type_lookup.h"
#include "commands/zset_args.h"
#include "commands/zset_common.h"
#include "server/errors.h"
#include "server/notify.h"
#include "server/server.h"

namespace rankd {
namespace {

std::mt19937_64& Rng() {
  static std::mt19937_64 rng{std::random_device{}()};
  return rng;
}

// Redis hashTypeTryConversion: a listpack meets an argument longer than
// hash-max-listpack-value before anything is written.
void TryConversion(Hash* h, Args args, const HashLimits& limits) {
  if (!h->is_listpack()) return;
  for (std::string_view a : args) {
    if (a.size() > limits.max_listpack_value) return h->ConvertToHashtable();
  }
}

// Hash::Set that keeps the field's deadline, as HINCRBY / HINCRBYFLOAT do
// in Redis 7.4 (HSET clears it). Returns the deadline (-1: none).
int64_t SetKeepTtl(Hash* h, std::string_view field, std::string_view value,
                   const HashLimits& limits) {
  const int64_t deadline = h->Contains(field) ? h->FieldExpire(field) : -1;
  h->Set(field, value, limits);
  if (deadline >= 0) h->SetFieldExpire(field, deadline);
  return deadline;
}

// HSET / HMSET key field value [field value ...]
void HSetGeneric(CommandContext& ctx, bool hmset) {
  if (ctx.argc() % 2 == 1) return ctx.reply.Error(WrongArityError(hmset ? "hmset" : "hset"));
  bool wrong_type;
  Hash* h = HashForWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  const HashLimits limits = ctx.server.hash_limits();
  TryConversion(h, ctx.args.subspan(2), limits);
  int64_t created = 0;
  for (size_t i = 2; i < ctx.argc(); i += 2) created += h->Set(ctx.arg(i), ctx.arg(i + 1), limits);
  KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyHash, "hset");
  if (hmset) return ctx.reply.Ok();
  ctx.reply.Integer(created);
}

void HSet(CommandContext& ctx) { HSetGeneric(ctx, false); }
void HMSet(CommandContext& ctx) { HSetGeneric(ctx, true); }

// HSETNX key field value
void HSetNx(CommandContext& ctx) {
  bool wrong_type;
  Hash* h = HashForWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (h->Contains(ctx.arg(2))) return ctx.reply.Integer(0);
  const HashLimits limits = ctx.server.hash_limits();
  TryConversion(h, ctx.args.subspan(2), limits);
  h->Set(ctx.arg(2), ctx.arg(3), limits);
  KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyHash, "hset");
  ctx.reply.Integer(1);
}

// HGET key field
void HGet(CommandContext& ctx) {
  bool wrong_type;
  Hash* h = FindHashRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  std::optional<std::string_view> v = h ? h->Get(ctx.arg(2)) : std::nullopt;
  if (!v) return ctx.reply.Null();
  ctx.reply.Bulk(*v);
}

// HMGET key field [field ...]
void HMGet(CommandContext& ctx) {
  bool wrong_type;
  Hash* h = FindHashRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ctx.reply.ArrayHeader(ctx.argc() - 2);
  for (size_t i = 2; i < ctx.argc(); i++) {
    std::optional<std::string_view> v = h ? h->Get(ctx.arg(i)) : std::nullopt;
    if (v) {
      ctx.reply.Bulk(*v);
    } else {
      ctx.reply.Null();
    }
  }
}

// HDEL key field [field ...]
void HDel(CommandContext& ctx) {
  bool wrong_type;
  Hash* h = FindHashWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!h) return ctx.reply.Integer(0);
  int64_t deleted = 0;
  for (size_t i = 2; i < ctx.argc() && !h->empty(); i++) deleted += h->Delete(ctx.arg(i));
  if (deleted) ReportRemoval(ctx, ctx.arg(1), h->empty(), kNotifyHash, "hdel");
  ctx.reply.Integer(deleted);
}

// HLEN key
void HLen(CommandContext& ctx) {
  bool wrong_type;
  Hash* h = FindHashRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ctx.reply.Integer(h ? static_cast<int64_t>(h->size()) : 0);
}

// HSTRLEN key field
void HStrLen(CommandContext& ctx) {
  bool wrong_type;
  Hash* h = FindHashRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  std::optional<std::string_view> v = h ? h->Get(ctx.arg(2)) : std::nullopt;
  ctx.reply.Integer(v ? static_cast<int64_t>(v->size()) : 0);
}

// HEXISTS key field
void HExists(CommandContext& ctx) {
  bool wrong_type;
  Hash* h = FindHashRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ctx.reply.Integer(h && h->Contains(ctx.arg(2)) ? 1 : 0);
}

enum class Part { kKeys, kValues, kBoth };

// HKEYS / HVALS / HGETALL key
void HGetAllGeneric(CommandContext& ctx, Part part) {
  bool wrong_type;
  Hash* h = FindHashRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  const size_t n = h ? h->size() : 0;
  if (part == Part::kBoth) {
    ctx.reply.MapHeader(n);
  } else {
    ctx.reply.ArrayHeader(n);
  }
  if (!h) return;
  h->ForEach([&](std::string_view f, std::string_view v) {
    if (part != Part::kValues) ctx.reply.Bulk(f);
    if (part != Part::kKeys) ctx.reply.Bulk(v);
  });
}

void HKeys(CommandContext& ctx) { HGetAllGeneric(ctx, Part::kKeys); }
void HVals(CommandContext& ctx) { HGetAllGeneric(ctx, Part::kValues); }
void HGetAll(CommandContext& ctx) { HGetAllGeneric(ctx, Part::kBoth); }

// HINCRBY key field increment
void HIncrBy(CommandContext& ctx) {
  int64_t incr, value = 0;
  if (!ParseInt64(ctx.arg(3), &incr)) return ctx.reply.Error(err::kNotInteger);
  bool wrong_type;
  Hash* h = HashForWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (std::optional<std::string_view> v = h->Get(ctx.arg(2))) {
    if (!ParseInt64(*v, &value)) return ctx.reply.Error(err::kHashNotInteger);
  }
  if ((incr < 0 && value < 0 && incr < INT64_MIN - value) ||
      (incr > 0 && value > 0 && incr > INT64_MAX - value)) {
    return ctx.reply.Error(err::kIncrOverflow);
  }
  value += incr;
  SetKeepTtl(h, ctx.arg(2), FormatInt64(value), ctx.server.hash_limits());
  KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyHash, "hincrby");
  ctx.reply.Integer(value);
}

// HINCRBYFLOAT key field increment
void HIncrByFloat(CommandContext& ctx) {
  long double incr, value = 0;
  if (!ParseLongDouble(ctx.arg(3), &incr)) return ctx.reply.Error(err::kNotFloat);
  if (std::isnan(incr) || std::isinf(incr)) return ctx.reply.Error(err::kNaNOrInfinity);
  bool wrong_type;
  Hash* h = HashForWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (std::optional<std::string_view> v = h->Get(ctx.arg(2))) {
    if (!ParseLongDouble(*v, &value)) return ctx.reply.Error(err::kHashNotFloat);
  }
  value += incr;
  if (std::isnan(value) || std::isinf(value)) return ctx.reply.Error(err::kIncrFloatNaN);
  std::string s = FormatLongDouble(value);
  const int64_t deadline = SetKeepTtl(h, ctx.arg(2), s, ctx.server.hash_limits());
  KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyHash, "hincrbyfloat");
  const std::string_view effect[] = {"HSET", ctx.arg(1), ctx.arg(2), s};
  ctx.server.Propagate(ctx.client, effect);
  if (deadline >= 0) {  // HSET clears a field's deadline: log it again
    const std::string ms = FormatInt64(deadline);
    const std::string_view again[] = {"HPEXPIREAT", ctx.arg(1), ms, "FIELDS", "1", ctx.arg(2)};
    ctx.server.Propagate(ctx.client, again);
  }
  ctx.reply.Bulk(s);
}

// HRANDFIELD key [count [WITHVALUES]]
void HRandField(CommandContext& ctx) {
  int64_t l = 0;
  bool withvalues = false;
  if (ctx.argc() >= 3) {
    if (!ParseInt64(ctx.arg(2), &l)) return ctx.reply.Error(err::kNotInteger);
    if (l == INT64_MIN) return ctx.reply.Error(err::kLongOutOfRange);
    if (ctx.argc() > 4 || (ctx.argc() == 4 && !EqualsIgnoreCase(ctx.arg(3), "withvalues"))) {
      return ctx.reply.Error(err::kSyntax);
    }
    withvalues = ctx.argc() == 4;
    if (withvalues && (l < -INT64_MAX / 2 || l > INT64_MAX / 2)) {
      return ctx.reply.Error(err::kValueOutOfRange);
    }
  }
  bool wrong_type;
  Hash* h = FindHashRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!h) return ctx.argc() >= 3 ? ctx.reply.EmptyArray() : ctx.reply.Null();
  std::vector<std::pair<std::string_view, std::string_view>> pairs;
  pairs.reserve(h->size());
  h->ForEach([&](std::string_view f, std::string_view v) { pairs.emplace_back(f, v); });
  std::uniform_int_distribution<size_t> pick(0, pairs.size() - 1);
  if (ctx.argc() < 3) return ctx.reply.Bulk(pairs[pick(Rng())].first);
  if (l == 0) return ctx.reply.EmptyArray();
  const bool unique = l > 0;
  const uint64_t count = unique ? static_cast<uint64_t>(l) : static_cast<uint64_t>(-l);
  auto item = [&](const std::pair<std::string_view, std::string_view>& p) {
    if (withvalues && ctx.reply.resp3()) ctx.reply.ArrayHeader(2);
    ctx.reply.Bulk(p.first);
    if (withvalues) ctx.reply.Bulk(p.second);
  };
  auto header = [&](uint64_t n) {
    ctx.reply.ArrayHeader(withvalues && !ctx.reply.resp3() ? 2 * n : n);
  };
  if (!unique) {  // not bounded by the hash: capped (commands/random_picks.h)
    return ReplyRepeatedPicks(ctx.reply, count, header, [&] { item(pairs[pick(Rng())]); });
  }
  if (count == 1) {
    header(count);
    item(pairs[pick(Rng())]);
    return;
  }
  if (count >= pairs.size()) {
    header(pairs.size());
    for (const auto& p : pairs) item(p);
    return;
  }
  for (size_t i = 0; i < count; i++) {
    std::uniform_int_distribution<size_t> d(i, pairs.size() - 1);
    std::swap(pairs[i], pairs[d(Rng())]);
  }
  header(count);
  for (size_t i = 0; i < count; i++) item(pairs[i]);
}

// HSCAN key cursor [MATCH pattern] [COUNT count]
void HScan(CommandContext& ctx) {
  uint64_t cursor;
  ScanArgs scan;
  const Hash* h = OpenScan(ctx, &FindHashRead, &cursor, &scan);
  if (!h) return;
  std::vector<std::string> items;
  uint64_t next = h->Scan(cursor, scan.count, [&](std::string_view f, std::string_view v) {
    if (scan.use_pattern && !GlobMatch(scan.pattern, f)) return;
    items.emplace_back(f);
    items.emplace_back(v);
  });
  ReplyScan(ctx.reply, next, items);
}

constexpr CommandSpec kHashCommands[] = {
    // name           arity  flags                      first last step handler
    {"hset",          -4,    kWrite | kDenyOom | kFast, 1,    1,   1,   &HSet},
    {"hmset",         -4,    kWrite | kDenyOom | kFast, 1,    1,   1,   &HMSet},
    {"hsetnx",        4,     kWrite | kDenyOom | kFast, 1,    1,   1,   &HSetNx},
    {"hget",          3,     kReadOnly | kFast,         1,    1,   1,   &HGet},
    {"hmget",         -3,    kReadOnly | kFast,         1,    1,   1,   &HMGet},
    {"hdel",          -3,    kWrite | kFast,            1,    1,   1,   &HDel},
    {"hlen",          2,     kReadOnly | kFast,         1,    1,   1,   &HLen},
    {"hstrlen",       3,     kReadOnly | kFast,         1,    1,   1,   &HStrLen},
    {"hexists",       3,     kReadOnly | kFast,         1,    1,   1,   &HExists},
    {"hkeys",         2,     kReadOnly,                 1,    1,   1,   &HKeys},
    {"hvals",         2,     kReadOnly,                 1,    1,   1,   &HVals},
    {"hgetall",       2,     kReadOnly,                 1,    1,   1,   &HGetAll},
    {"hincrby",       4,     kWrite | kDenyOom | kFast, 1,    1,   1,   &HIncrBy},
    {"hincrbyfloat",  4,     kWrite | kDenyOom | kFast, 1,    1,   1,   &HIncrByFloat},
    {"hrandfield",    -2,    kReadOnly,                 1,    1,   1,   &HRandField},
    {"hscan",         -3,    kReadOnly,                 1,    1,   1,   &HScan},
};

}  // namespace

std::span<const CommandSpec> HashCommands() { return kHashCommands; }

}  // namespace rankd
