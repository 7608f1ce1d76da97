// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Key expiry commands: EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT (NX, XX, GT, LT),
// TTL, PTTL, EXPIRETIME, PEXPIRETIME, PERSIST. Deadlines are unix
// milliseconds (Database::Entry::expire_ms); semantics follow Redis 7.0
// expire.c, including: a deadline already past deletes the key and replies 1
// (except while the log is replayed and on a replica, which keep the key
// with its past deadline: DeletesAtOnce), and GT treats "no deadline" as
// infinite.

#include <climits>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/families.h"
#include "server/errors.h"
#include "server/keys_common.h"
#include "server/notify.h"
#include "server/server.h"

namespace rankd {
namespace {

enum ExpireFlags : int { kNx = 1, kXx = 2, kGt = 4, kLt = 8 };

// Redis parseExtendedExpireArgumentsOrReply.
bool ParseExpireFlags(CommandContext& ctx, int* flags) {
  for (size_t i = 3; i < ctx.argc(); i++) {
    std::string_view opt = ctx.arg(i);
    if (EqualsIgnoreCase(opt, "nx")) {
      *flags |= kNx;
    } else if (EqualsIgnoreCase(opt, "xx")) {
      *flags |= kXx;
    } else if (EqualsIgnoreCase(opt, "gt")) {
      *flags |= kGt;
    } else if (EqualsIgnoreCase(opt, "lt")) {
      *flags |= kLt;
    } else {
      ctx.reply.Error("ERR Unsupported option " + std::string(opt));
      return false;
    }
  }
  if ((*flags & kNx) && (*flags & (kXx | kGt | kLt))) {
    ctx.reply.Error("ERR NX and XX, GT or LT options at the same time are not compatible");
    return false;
  }
  if ((*flags & kGt) && (*flags & kLt)) {
    ctx.reply.Error("ERR GT and LT options at the same time are not compatible");
    return false;
  }
  return true;
}

// Redis expireGenericCommand. `base_ms` is the current time for relative
// forms and 0 for absolute ones; `unit_ms` is 1000 for seconds.
void ExpireGeneric(CommandContext& ctx, int64_t base_ms, int64_t unit_ms) {
  int flags = 0;
  if (!ParseExpireFlags(ctx, &flags)) return;
  int64_t when;
  if (!ParseInt64(ctx.arg(2), &when)) return ctx.reply.Error(err::kNotInteger);
  if (unit_ms == 1000) {
    if (when > LLONG_MAX / 1000 || when < LLONG_MIN / 1000) {
      return ctx.reply.Error(InvalidExpireError(ctx));
    }
    when *= 1000;
  }
  if (when > LLONG_MAX - base_ms) return ctx.reply.Error(InvalidExpireError(ctx));
  when += base_ms;

  std::string_view key = ctx.arg(1);
  Database& db = ctx.db();
  Database::Entry* e = LookupWrite(ctx, key);
  if (!e) return ctx.reply.Integer(0);
  const int64_t current = db.ExpireMs(e);  // -1: none
  if ((flags & kNx) && current != -1) return ctx.reply.Integer(0);
  if ((flags & kXx) && current == -1) return ctx.reply.Integer(0);
  if ((flags & kGt) && (current == -1 || when <= current)) return ctx.reply.Integer(0);
  if ((flags & kLt) && current != -1 && when >= current) return ctx.reply.Integer(0);

  // Logged as an absolute deadline (or a DEL), which replays identically.
  if (DeletesAtOnce(ctx, when)) {
    db.DeleteExpired(key);
    PropagateDel(ctx, key);
    KeyChanged(ctx, db, key, kNotifyGeneric, "del");
  } else {
    db.SetExpire(e, when);
    PropagateExpireAt(ctx, key, when);
    KeyChanged(ctx, db, key, kNotifyGeneric, "expire");
  }
  ctx.reply.Integer(1);
}

void Expire(CommandContext& ctx) { ExpireGeneric(ctx, WallMs(), 1000); }
void PExpire(CommandContext& ctx) { ExpireGeneric(ctx, WallMs(), 1); }
void ExpireAt(CommandContext& ctx) { ExpireGeneric(ctx, 0, 1000); }
void PExpireAt(CommandContext& ctx) { ExpireGeneric(ctx, 0, 1); }

// Redis ttlGenericCommand: -2 missing, -1 no deadline, else the remaining
// time (or the absolute deadline), seconds rounded to nearest.
void TtlGeneric(CommandContext& ctx, bool in_ms, bool absolute) {
  Database::Entry* e = LookupRead(ctx, ctx.arg(1), /*touch=*/false);
  if (!e) return ctx.reply.Integer(-2);
  const int64_t expire_ms = ctx.db().ExpireMs(e);
  if (expire_ms < 0) return ctx.reply.Integer(-1);
  int64_t t = absolute ? expire_ms : expire_ms - WallMs();
  if (t < 0) t = 0;
  // Seconds rounded to nearest, without overflowing at INT64_MAX ms.
  ctx.reply.Integer(in_ms ? t : t / 1000 + (t % 1000 + 500) / 1000);
}

void Ttl(CommandContext& ctx) { TtlGeneric(ctx, false, false); }
void PTtl(CommandContext& ctx) { TtlGeneric(ctx, true, false); }
void ExpireTime(CommandContext& ctx) { TtlGeneric(ctx, false, true); }
void PExpireTime(CommandContext& ctx) { TtlGeneric(ctx, true, true); }

void Persist(CommandContext& ctx) {
  std::string_view key = ctx.arg(1);
  Database::Entry* e = LookupWrite(ctx, key);
  if (!e || ctx.db().ExpireMs(e) < 0) return ctx.reply.Integer(0);
  ctx.db().SetExpire(e, -1);
  KeyChanged(ctx, ctx.db(), key, kNotifyGeneric, "persist");
  ctx.reply.Integer(1);
}

// Arity follows Redis: N = exactly N args (incl. name), -N = at least N.
constexpr CommandSpec kExpireCommands[] = {
    // name          arity  flags               first last step handler
    {"expire",       -3,    kWrite | kFast,     1,    1,   1,   &Expire},
    {"pexpire",      -3,    kWrite | kFast,     1,    1,   1,   &PExpire},
    {"expireat",     -3,    kWrite | kFast,     1,    1,   1,   &ExpireAt},
    {"pexpireat",    -3,    kWrite | kFast,     1,    1,   1,   &PExpireAt},
    {"ttl",          2,     kReadOnly | kFast,  1,    1,   1,   &Ttl},
    {"pttl",         2,     kReadOnly | kFast,  1,    1,   1,   &PTtl},
    {"expiretime",   2,     kReadOnly | kFast,  1,    1,   1,   &ExpireTime},
    {"pexpiretime",  2,     kReadOnly | kFast,  1,    1,   1,   &PExpireTime},
    {"persist",      2,     kWrite | kFast,     1,    1,   1,   &Persist},
};

}  // namespace

std::span<const CommandSpec> ExpireCommands() { return kExpireCommands; }

}  // namespace rankd
