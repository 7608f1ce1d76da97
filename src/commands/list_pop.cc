// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// LPOP / RPOP / LMPOP / LMOVE / RPOPLPUSH and their blocking forms BLPOP,
// BRPOP, BLMPOP, BLMOVE, BRPOPLPUSH (Redis 7.0 semantics).
//
// Blocking follows Server::Block, as the sorted-set pops do (zset_pop.cc):
// when nothing can be served the handler blocks and returns without
// replying; when a key it waits on is touched the server retries the same
// command (retrying_blocked), clients of one key first come first served,
// and a retry that still cannot serve returns silently. While retrying, a
// key that now holds another type is skipped (Redis serves blocked list
// clients only from lists). Inside MULTI and scripts (no_block) the reply
// is the timeout's null.
//
// Effects: a pop or move served by a blocking command is logged as its
// non-blocking form (LPOP key / RPOP key count / LMOVE / RPOPLPUSH), as
// Redis rewrites them, so a replay never blocks.

#include <algorithm>
#include <string>
#include <vector>

#include "base/numbers.h"
#include "commands/list_handlers.h"
#include "commands/type_lookup.h"
#include "commands/zset_args.h"
#include "commands/zset_common.h"
#include "server/errors.h"
#include "server/notify.h"
#include "server/server.h"

namespace rankd {
namespace {

// Pops up to `n` elements from one end of `l` (the list at `key`). Deletes
// the key when emptied, else touches it.
std::vector<std::string> PopN(CommandContext& ctx, std::string_view key, QuickList* l, bool back,
                              size_t n) {
  std::vector<std::string> out;
  n = std::min(n, l->size());
  out.reserve(n);
  for (size_t i = 0; i < n; i++) out.push_back(back ? l->PopBack() : l->PopFront());
  if (n > 0) ReportRemoval(ctx, key, l->empty(), kNotifyList, back ? "rpop" : "lpop");
  return out;
}

// Logs "LPOP|RPOP key [count]".
void PropagatePop(CommandContext& ctx, std::string_view key, bool back, const size_t* count) {
  std::string n = count ? FormatInt64(static_cast<int64_t>(*count)) : std::string();
  std::vector<std::string_view> args = {back ? "RPOP" : "LPOP", key};
  if (count) args.push_back(n);
  ctx.server.Propagate(ctx.client, args);
}

// LPOP / RPOP key [count]
void PopGeneric(CommandContext& ctx, bool back) {
  if (ctx.argc() > 3) return ctx.reply.Error(WrongArityError(back ? "rpop" : "lpop"));
  int64_t count = -1;  // -1: no count (a bulk reply)
  if (ctx.argc() == 3 && (!ParseInt64(ctx.arg(2), &count) || count < 0)) {
    return ctx.reply.Error(err::kCountNegative);
  }
  bool wrong_type;
  QuickList* l = FindListWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!l) return count < 0 ? ctx.reply.Null() : ctx.reply.NullArray();
  if (count == 0) return ctx.reply.EmptyArray();
  std::vector<std::string> popped = PopN(ctx, ctx.arg(1), l, back, count < 0 ? 1 : count);
  if (count < 0) return ctx.reply.Bulk(popped[0]);
  ctx.reply.ArrayHeader(popped.size());
  for (const std::string& v : popped) ctx.reply.Bulk(v);
}

// Pops from the first key holding a non-empty list; false (no reply) when
// none does. `single` gives BLPOP's reply [key, element]; otherwise LMPOP's
// [key, [element, ...]].
bool ServeFirst(CommandContext& ctx, Args keys, bool back, int64_t count, bool single) {
  for (std::string_view key : ctx.ServeKeys(keys)) {
    bool wrong_type;
    QuickList* l = FindListWrite(ctx, key, &wrong_type);
    if (wrong_type) {
      if (ctx.retrying_blocked) continue;
      ctx.reply.Error(err::kWrongType);
      return true;
    }
    if (!l || l->empty()) continue;
    std::string key_copy(key);
    std::vector<std::string> popped = PopN(ctx, key_copy, l, back, static_cast<size_t>(count));
    ctx.reply.ArrayHeader(2);
    ctx.reply.Bulk(key_copy);
    if (single) {
      ctx.reply.Bulk(popped[0]);
      PropagatePop(ctx, key_copy, back, nullptr);
    } else {
      ctx.reply.ArrayHeader(popped.size());
      for (const std::string& v : popped) ctx.reply.Bulk(v);
      const size_t n = popped.size();
      PropagatePop(ctx, key_copy, back, &n);
    }
    return true;
  }
  return false;
}

// "LEFT" / "RIGHT" (any case) into *back; false for anything else.
bool ParseEnd(std::string_view arg, bool* back) {
  if (EqualsIgnoreCase(arg, "left")) {
    *back = false;
  } else if (EqualsIgnoreCase(arg, "right")) {
    *back = true;
  } else {
    return false;
  }
  return true;
}

// The move of LMOVE / RPOPLPUSH and their blocking forms. Returns false
// (no reply) when the source is missing; replies the element moved, or
// WRONGTYPE. A blocked retry whose source now holds another type waits on.
bool MoveOne(CommandContext& ctx, bool from_back, bool to_back, bool log_as_lmove) {
  std::string src(ctx.arg(1)), dst(ctx.arg(2));
  bool wrong_type;
  QuickList* s = FindListWrite(ctx, src, &wrong_type);
  if (wrong_type) {
    if (ctx.retrying_blocked) return false;
    ctx.reply.Error(err::kWrongType);
    return true;
  }
  if (!s || s->empty()) return false;
  QuickList* d = FindListWrite(ctx, dst, &wrong_type);
  if (wrong_type) {
    ctx.reply.Error(err::kWrongType);
    return true;
  }
  const ListLimits limits = ctx.server.list_limits();
  std::string value = from_back ? s->PopBack() : s->PopFront();
  const bool emptied = s->empty();
  if (src != dst && !d) {
    auto list = std::make_unique<QuickList>(limits.compress_depth);
    d = &ctx.db().Insert(dst, Value(std::move(list)))->value.list();
  }
  if (to_back) {
    d->PushBack(value, limits);
  } else {
    d->PushFront(value, limits);
  }
  // Redis's order: the push on the destination, then the pop on the source.
  KeyChanged(ctx, ctx.db(), dst, kNotifyList, to_back ? "rpush" : "lpush");
  const std::string_view pop_event = from_back ? "rpop" : "lpop";
  if (src != dst) {
    ReportRemoval(ctx, src, emptied, kNotifyList, pop_event);
  } else {
    KeyEvent(ctx, ctx.db(), kNotifyList, pop_event, src);
  }
  if (log_as_lmove) {
    const std::string_view effect[] = {"LMOVE", src, dst, from_back ? "RIGHT" : "LEFT",
                                       to_back ? "RIGHT" : "LEFT"};
    ctx.server.Propagate(ctx.client, effect);
  } else {
    const std::string_view effect[] = {"RPOPLPUSH", src, dst};
    ctx.server.Propagate(ctx.client, effect);
  }
  ctx.reply.Bulk(value);
  return true;
}

// Blocks, or inside MULTI / scripts replies at once: a null array, or a
// null bulk for the moves (`null_bulk`). A timeout replies a null array for
// every list command, moves included (Redis 7.0).
void BlockOrNull(CommandContext& ctx, Args keys, int64_t timeout_ms, bool null_bulk) {
  if (ctx.no_block) return null_bulk ? ctx.reply.Null() : ctx.reply.NullArray();
  ctx.server.Block(ctx, keys, timeout_ms);
}

// BLPOP / BRPOP key [key ...] timeout
void BPopGeneric(CommandContext& ctx, bool back) {
  int64_t timeout_ms;
  if (std::string_view e = ParseTimeout(ctx.args.back(), &timeout_ms); !e.empty()) {
    return ctx.reply.Error(e);
  }
  Args keys = ctx.args.subspan(1, ctx.argc() - 2);
  if (ServeFirst(ctx, keys, back, 1, true)) return;
  BlockOrNull(ctx, keys, timeout_ms, false);
}

}  // namespace

void LPop(CommandContext& ctx) { PopGeneric(ctx, false); }
void RPop(CommandContext& ctx) { PopGeneric(ctx, true); }
void BLPop(CommandContext& ctx) { BPopGeneric(ctx, false); }
void BRPop(CommandContext& ctx) { BPopGeneric(ctx, true); }

// LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count]
void LMPop(CommandContext& ctx) {
  MPopArgs a;
  if (std::string_view e = ParseMPop(ctx.args, 1, "left", "right", &a); !e.empty()) {
    return ctx.reply.Error(e);
  }
  if (!ServeFirst(ctx, a.keys, a.from_last, a.count, false)) ctx.reply.NullArray();
}

// BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count]
void BLMPop(CommandContext& ctx) {
  MPopArgs a;
  if (std::string_view e = ParseMPop(ctx.args, 2, "left", "right", &a); !e.empty()) {
    return ctx.reply.Error(e);
  }
  int64_t timeout_ms;
  if (std::string_view e = ParseTimeout(ctx.arg(1), &timeout_ms); !e.empty()) {
    return ctx.reply.Error(e);
  }
  if (ServeFirst(ctx, a.keys, a.from_last, a.count, false)) return;
  BlockOrNull(ctx, a.keys, timeout_ms, false);
}

// LMOVE source destination LEFT|RIGHT LEFT|RIGHT
void LMove(CommandContext& ctx) {
  bool from_back, to_back;
  if (!ParseEnd(ctx.arg(3), &from_back) || !ParseEnd(ctx.arg(4), &to_back)) {
    return ctx.reply.Error(err::kSyntax);
  }
  if (!MoveOne(ctx, from_back, to_back, true)) ctx.reply.Null();
}

// RPOPLPUSH source destination
void RPopLPush(CommandContext& ctx) {
  if (!MoveOne(ctx, true, false, false)) ctx.reply.Null();
}

// BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout
void BLMove(CommandContext& ctx) {
  bool from_back, to_back;
  if (!ParseEnd(ctx.arg(3), &from_back) || !ParseEnd(ctx.arg(4), &to_back)) {
    return ctx.reply.Error(err::kSyntax);
  }
  int64_t timeout_ms;
  if (std::string_view e = ParseTimeout(ctx.arg(5), &timeout_ms); !e.empty()) {
    return ctx.reply.Error(e);
  }
  if (MoveOne(ctx, from_back, to_back, true)) return;
  BlockOrNull(ctx, ctx.args.subspan(1, 1), timeout_ms, true);
}

// BRPOPLPUSH source destination timeout
void BRPopLPush(CommandContext& ctx) {
  int64_t timeout_ms;
  if (std::string_view e = ParseTimeout(ctx.arg(3), &timeout_ms); !e.empty()) {
    return ctx.reply.Error(e);
  }
  if (MoveOne(ctx, true, false, false)) return;
  BlockOrNull(ctx, ctx.args.subspan(1, 1), timeout_ms, true);
}

}  // namespace rankd
