// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The list family (Redis 7.0 semantics; the chunked encoding of
// core/quick_list.h, which OBJECT ENCODING reports as "quicklist" as 7.0
// does). Pushes, reads, and in-place edits are here; pops, moves and the
// blocking commands in list_pop.cc.
//
// Argument order follows Redis's for each command, which decides which
// error a malformed call gets: LRANGE / LTRIM / LREM parse their numbers
// before looking at the key, LINDEX / LSET after it.

#include <algorithm>
#include <string>
#include <vector>

#include "base/numbers.h"
#include "commands/families.h"
#include "commands/list_handlers.h"
#include "commands/type_lookup.h"
#include "commands/zset_common.h"
#include "server/errors.h"
#include "server/notify.h"
#include "server/server.h"

namespace rankd {
namespace {

// LPUSH / RPUSH / LPUSHX / RPUSHX key element [element ...]
void PushGeneric(CommandContext& ctx, bool front, bool only_existing) {
  bool wrong_type;
  QuickList* l = FindListWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  const ListLimits limits = ctx.server.list_limits();
  if (!l) {
    if (only_existing) return ctx.reply.Integer(0);
    l = &ctx.db().Insert(ctx.arg(1), Value(std::make_unique<QuickList>(limits.compress_depth)))
             ->value.list();
  }
  for (size_t i = 2; i < ctx.argc(); i++) {
    if (front) {
      l->PushFront(ctx.arg(i), limits);
    } else {
      l->PushBack(ctx.arg(i), limits);
    }
  }
  KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyList, front ? "lpush" : "rpush");
  ctx.reply.Integer(static_cast<int64_t>(l->size()));
}

void LPush(CommandContext& ctx) { PushGeneric(ctx, true, false); }
void RPush(CommandContext& ctx) { PushGeneric(ctx, false, false); }
void LPushX(CommandContext& ctx) { PushGeneric(ctx, true, true); }
void RPushX(CommandContext& ctx) { PushGeneric(ctx, false, true); }

// LLEN key
void LLen(CommandContext& ctx) {
  bool wrong_type;
  QuickList* l = FindListRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ctx.reply.Integer(l ? static_cast<int64_t>(l->size()) : 0);
}

// Redis's start/stop normalisation for LRANGE / LTRIM: false when empty.
bool Normalize(int64_t len, int64_t* start, int64_t* stop) {
  if (*start < 0) *start += len;
  if (*stop < 0) *stop += len;
  if (*start < 0) *start = 0;
  if (*start > *stop || *start >= len) return false;
  if (*stop >= len) *stop = len - 1;
  return true;
}

// LRANGE key start stop
void LRange(CommandContext& ctx) {
  int64_t start, stop;
  if (!ParseInt64(ctx.arg(2), &start) || !ParseInt64(ctx.arg(3), &stop)) {
    return ctx.reply.Error(err::kNotInteger);
  }
  bool wrong_type;
  QuickList* l = FindListRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!l || !Normalize(static_cast<int64_t>(l->size()), &start, &stop)) {
    return ctx.reply.EmptyArray();
  }
  const size_t n = static_cast<size_t>(stop - start + 1);
  ctx.reply.ArrayHeader(n);
  l->ForEach(static_cast<size_t>(start), n, false, [&](std::string_view v) { ctx.reply.Bulk(v); });
}

// An index argument against a list of `len` elements: false when out of range.
bool ResolveIndex(int64_t index, size_t len, size_t* out) {
  if (index < 0) index += static_cast<int64_t>(len);
  if (index < 0 || index >= static_cast<int64_t>(len)) return false;
  *out = static_cast<size_t>(index);
  return true;
}

// LINDEX key index
void LIndex(CommandContext& ctx) {
  bool wrong_type;
  QuickList* l = FindListRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!l) return ctx.reply.Null();
  int64_t index;
  size_t at;
  if (!ParseInt64(ctx.arg(2), &index)) return ctx.reply.Error(err::kNotInteger);
  if (!ResolveIndex(index, l->size(), &at)) return ctx.reply.Null();
  ctx.reply.Bulk(l->At(at));
}

// LSET key index element
void LSet(CommandContext& ctx) {
  bool wrong_type;
  QuickList* l = FindListWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!l) return ctx.reply.Error(err::kNoSuchKey);
  int64_t index;
  size_t at;
  if (!ParseInt64(ctx.arg(2), &index)) return ctx.reply.Error(err::kNotInteger);
  if (!ResolveIndex(index, l->size(), &at)) return ctx.reply.Error(err::kOutOfRange);
  l->Replace(at, ctx.arg(3), ctx.server.list_limits());
  KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyList, "lset");
  ctx.reply.Ok();
}

// LINSERT key BEFORE|AFTER pivot element
void LInsert(CommandContext& ctx) {
  bool after;
  if (EqualsIgnoreCase(ctx.arg(2), "after")) {
    after = true;
  } else if (EqualsIgnoreCase(ctx.arg(2), "before")) {
    after = false;
  } else {
    return ctx.reply.Error(err::kSyntax);
  }
  bool wrong_type;
  QuickList* l = FindListWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!l) return ctx.reply.Integer(0);
  size_t i = 0, found = l->size();
  l->ForEach(0, l->size(), false, [&](std::string_view v) {
    if (found == l->size() && v == ctx.arg(3)) found = i;
    i++;
  });
  if (found == l->size()) return ctx.reply.Integer(-1);
  l->Insert(found + (after ? 1 : 0), ctx.arg(4), ctx.server.list_limits());
  KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyList, "linsert");
  ctx.reply.Integer(static_cast<int64_t>(l->size()));
}

// LREM key count element
void LRem(CommandContext& ctx) {
  int64_t count;
  if (!ParseInt64(ctx.arg(2), &count)) return ctx.reply.Error(err::kNotInteger);
  bool wrong_type;
  QuickList* l = FindListWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!l) return ctx.reply.Integer(0);
  const uint64_t limit = count == 0 ? UINT64_MAX
                         : count < 0 ? static_cast<uint64_t>(-(count + 1)) + 1
                                     : static_cast<uint64_t>(count);
  const std::string_view element = ctx.arg(3);
  const size_t removed =
      l->RemoveIf([&](std::string_view v) { return v == element; }, limit, count < 0);
  if (removed > 0) ReportRemoval(ctx, ctx.arg(1), l->empty(), kNotifyList, "lrem");
  ctx.reply.Integer(static_cast<int64_t>(removed));
}

// LTRIM key start stop
void LTrim(CommandContext& ctx) {
  int64_t start, stop;
  if (!ParseInt64(ctx.arg(2), &start) || !ParseInt64(ctx.arg(3), &stop)) {
    return ctx.reply.Error(err::kNotInteger);
  }
  bool wrong_type;
  QuickList* l = FindListWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!l) return ctx.reply.Ok();
  const int64_t len = static_cast<int64_t>(l->size());
  if (!Normalize(len, &start, &stop)) {
    start = len;  // remove everything
    stop = len - 1;
  }
  l->Erase(static_cast<size_t>(stop + 1), static_cast<size_t>(len - stop - 1));
  l->Erase(0, static_cast<size_t>(start));
  // Redis signals the key even when nothing moved.
  ReportRemoval(ctx, ctx.arg(1), l->empty(), kNotifyList, "ltrim");
  ctx.reply.Ok();
}

// LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]
void LPos(CommandContext& ctx) {
  int64_t rank = 1, count = -1, maxlen = 0;
  for (size_t j = 3; j < ctx.argc(); j++) {
    const bool more = j + 1 < ctx.argc();
    std::string_view opt = ctx.arg(j);
    if (EqualsIgnoreCase(opt, "rank") && more) {
      if (!ParseInt64(ctx.arg(++j), &rank)) return ctx.reply.Error(err::kNotInteger);
      if (rank == 0) return ctx.reply.Error(err::kRankZero);
    } else if (EqualsIgnoreCase(opt, "count") && more) {
      if (!ParseInt64(ctx.arg(++j), &count) || count < 0) {
        return ctx.reply.Error(err::kCountNegativeLPos);
      }
    } else if (EqualsIgnoreCase(opt, "maxlen") && more) {
      if (!ParseInt64(ctx.arg(++j), &maxlen) || maxlen < 0) {
        return ctx.reply.Error(err::kMaxLenNegative);
      }
    } else {
      return ctx.reply.Error(err::kSyntax);
    }
  }
  bool wrong_type;
  QuickList* l = FindListRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  const bool with_count = count >= 0;
  if (!l) return with_count ? ctx.reply.EmptyArray() : ctx.reply.Null();
  const bool reverse = rank < 0;
  // Redis 7.0 negates a LONG_MIN rank into itself: every match qualifies.
  const uint64_t skip = rank == INT64_MIN ? 0 : (reverse ? -(rank + 1) : rank - 1);
  const size_t n = l->size();
  const size_t scan = maxlen == 0 ? n : std::min<size_t>(n, static_cast<size_t>(maxlen));
  std::vector<int64_t> found;
  uint64_t matches = 0;
  const size_t want = count == 0 ? SIZE_MAX : (with_count ? static_cast<size_t>(count) : 1);
  size_t i = 0;
  l->ForEach(reverse ? n - scan : 0, scan, reverse, [&](std::string_view v) {
    const size_t index = reverse ? n - 1 - i : i;
    i++;
    if (found.size() >= want || v != ctx.arg(2)) return;
    if (matches++ >= skip) found.push_back(static_cast<int64_t>(index));
  });
  if (!with_count) return found.empty() ? ctx.reply.Null() : ctx.reply.Integer(found[0]);
  ctx.reply.ArrayHeader(found.size());
  for (int64_t x : found) ctx.reply.Integer(x);
}

constexpr CommandSpec kListCommands[] = {
    // name          arity  flags                                  first last step handler
    {"lpush",        -3,    kWrite | kDenyOom | kFast,             1,    1,   1,   &LPush},
    {"rpush",        -3,    kWrite | kDenyOom | kFast,             1,    1,   1,   &RPush},
    {"lpushx",       -3,    kWrite | kDenyOom | kFast,             1,    1,   1,   &LPushX},
    {"rpushx",       -3,    kWrite | kDenyOom | kFast,             1,    1,   1,   &RPushX},
    {"lpop",         -2,    kWrite | kFast,                        1,    1,   1,   &LPop},
    {"rpop",         -2,    kWrite | kFast,                        1,    1,   1,   &RPop},
    {"llen",         2,     kReadOnly | kFast,                     1,    1,   1,   &LLen},
    {"lrange",       4,     kReadOnly,                             1,    1,   1,   &LRange},
    {"lindex",       3,     kReadOnly,                             1,    1,   1,   &LIndex},
    {"lset",         4,     kWrite | kDenyOom,                     1,    1,   1,   &LSet},
    {"linsert",      5,     kWrite | kDenyOom,                     1,    1,   1,   &LInsert},
    {"lrem",         4,     kWrite,                                1,    1,   1,   &LRem},
    {"ltrim",        4,     kWrite,                                1,    1,   1,   &LTrim},
    {"lpos",         -3,    kReadOnly,                             1,    1,   1,   &LPos},
    {"lmove",        5,     kWrite | kDenyOom,                     1,    2,   1,   &LMove},
    {"rpoplpush",    3,     kWrite | kDenyOom,                     1,    2,   1,   &RPopLPush},
    {"lmpop",        -4,    kWrite,                                0,    0,   0,   &LMPop},
    {"blpop",        -3,    kWrite | kNoScript | kBlocking,        1,    -2,  1,   &BLPop},
    {"brpop",        -3,    kWrite | kNoScript | kBlocking,        1,    -2,  1,   &BRPop},
    {"blmove",       6,     kWrite | kDenyOom | kNoScript | kBlocking, 1,    2,   1,   &BLMove},
    {"brpoplpush",   4,     kWrite | kDenyOom | kNoScript | kBlocking, 1,    2,   1,   &BRPopLPush},
    {"blmpop",       -5,    kWrite | kBlocking,                    0,    0,   0,   &BLMPop},
};

}  // namespace

std::span<const CommandSpec> ListCommands() { return kListCommands; }

}  // namespace rankd
