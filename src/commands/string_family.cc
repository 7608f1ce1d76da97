// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// String commands, part one: whole-value reads and writes (GET, SET and its
// variants, GETDEL, GETEX, GETSET, MGET, MSET, MSETNX) and the family's
// command table. Counters and in-place edits (INCR*, DECR*, APPEND, STRLEN,
// GETRANGE, SETRANGE) are in string_edit.cc. Semantics follow Redis 7.0
// t_string.c: a write replaces the value and drops any deadline unless
// KEEPTTL; GET-style reads of another type reply WRONGTYPE, except MGET,
// which replies null for them.

#include <string>
#include <vector>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/families.h"
#include "commands/string_args.h"
#include "commands/string_edit.h"
#include "server/errors.h"
#include "server/keys_common.h"
#include "server/notify.h"
#include "server/server.h"

namespace rankd {
namespace {

// Logs SET with a relative or absolute expiry as "SET key value PXAT ms",
// as Redis does, so that replaying it yields the same deadline.
void PropagateSetPxAt(CommandContext& ctx, std::string_view key, std::string_view value,
                      int64_t deadline_ms) {
  const std::string ms = FormatInt64(deadline_ms);
  const std::string_view args[] = {"SET", key, value, "PXAT", ms};
  ctx.server.Propagate(ctx.client, args);
}

// Replies to an ExpireParse failure. Returns true if there was one.
bool ReplyExpireError(CommandContext& ctx, ExpireParse r) {
  if (r == ExpireParse::kNotInteger) ctx.reply.Error(err::kNotInteger);
  if (r == ExpireParse::kInvalid) ctx.reply.Error(InvalidExpireError(ctx));
  return r != ExpireParse::kOk;
}

// Redis getGenericCommand: replies the string value of `key` (null when
// missing). Returns false after replying WRONGTYPE.
bool ReplyGet(CommandContext& ctx, std::string_view key) {
  bool wrong_type;
  Database::Entry* e = LookupString(ctx, key, &wrong_type);
  if (wrong_type) {
    ctx.reply.Error(err::kWrongType);
    return false;
  }
  if (e) {
    ctx.reply.Bulk(e->value.str());
  } else {
    ctx.reply.Null();
  }
  return true;
}

void Get(CommandContext& ctx) { ReplyGet(ctx, ctx.arg(1)); }

// Redis setGenericCommand. `deadline_ms` < 0: none. With GET the reply is
// the old value, written before the write happens; otherwise `ok` or, when
// NX/XX stops the write, `abort`.
void SetGeneric(CommandContext& ctx, const StringOptions& opts, int64_t deadline_ms,
                void (*ok)(ReplyBuilder&), void (*abort)(ReplyBuilder&)) {
  using O = StringOptions;
  std::string_view key = ctx.arg(1), value = ctx.arg(2);
  if (opts.has(O::kGet) && !ReplyGet(ctx, key)) return;
  const bool found = LookupWrite(ctx, key) != nullptr;
  if ((opts.has(O::kNx) && found) || (opts.has(O::kXx) && !found)) {
    if (!opts.has(O::kGet)) abort(ctx.reply);
    return;
  }
  Database& db = ctx.db();
  Database::Entry* e = db.Set(key, Value::Str(value), opts.has(O::kKeepTtl));
  if (deadline_ms >= 0) {
    db.SetExpire(e, deadline_ms);
    PropagateSetPxAt(ctx, key, value, deadline_ms);
  } else if (opts.has(O::kGet)) {
    // As Redis 7.0: replicated without GET (the reply is not the effect).
    std::vector<std::string_view> args;
    for (size_t i = 0; i < ctx.argc(); i++) {
      if (i < 3 || !EqualsIgnoreCase(ctx.arg(i), "get")) args.push_back(ctx.arg(i));
    }
    ctx.server.Propagate(ctx.client, args);
  }
  KeyChanged(ctx, db, key, kNotifyString, "set");
  if (deadline_ms >= 0) KeyEvent(ctx, db, kNotifyGeneric, "expire", key);
  if (!opts.has(O::kGet)) ok(ctx.reply);
}

void ReplyOk(ReplyBuilder& r) { r.Ok(); }
void ReplyNull(ReplyBuilder& r) { r.Null(); }
void ReplyOne(ReplyBuilder& r) { r.Integer(1); }
void ReplyZero(ReplyBuilder& r) { r.Integer(0); }

void Set(CommandContext& ctx) {
  StringOptions opts;
  if (!ParseStringOptions(ctx.args, 3, StringCommand::kSet, &opts)) {
    return ctx.reply.Error(err::kSyntax);
  }
  int64_t deadline = -1;
  if (opts.has_expire() && ReplyExpireError(ctx, ExpireDeadline(opts, WallMs(), &deadline))) {
    return;
  }
  SetGeneric(ctx, opts, deadline, &ReplyOk, &ReplyNull);
}

void SetNx(CommandContext& ctx) {
  StringOptions opts;
  opts.flags = StringOptions::kNx;
  SetGeneric(ctx, opts, -1, &ReplyOne, &ReplyZero);
}

// SETEX key seconds value / PSETEX key milliseconds value.
void SetExGeneric(CommandContext& ctx, bool seconds) {
  int64_t deadline;
  if (ReplyExpireError(ctx, RelativeDeadline(ctx.arg(2), seconds, WallMs(), &deadline))) return;
  Database& db = ctx.db();
  Database::Entry* e = db.Set(ctx.arg(1), Value::Str(ctx.arg(3)));
  db.SetExpire(e, deadline);
  PropagateSetPxAt(ctx, ctx.arg(1), ctx.arg(3), deadline);
  KeyChanged(ctx, db, ctx.arg(1), kNotifyString, "set");
  KeyEvent(ctx, db, kNotifyGeneric, "expire", ctx.arg(1));
  ctx.reply.Ok();
}

void SetEx(CommandContext& ctx) { SetExGeneric(ctx, true); }
void PSetEx(CommandContext& ctx) { SetExGeneric(ctx, false); }

void GetSet(CommandContext& ctx) {
  std::string_view key = ctx.arg(1);
  if (!ReplyGet(ctx, key)) return;
  ctx.db().Set(key, Value::Str(ctx.arg(2)));
  // As Redis 7.0: replicated (and logged) as SET.
  const std::string_view args[] = {"SET", key, ctx.arg(2)};
  ctx.server.Propagate(ctx.client, args);
  KeyChanged(ctx, ctx.db(), key, kNotifyString, "set");
}

void GetDel(CommandContext& ctx) {
  std::string_view key = ctx.arg(1);
  if (!ReplyGet(ctx, key)) return;
  if (!ctx.db().Delete(key)) return;
  // As Redis 7.0: replicated (and logged) as DEL.
  const std::string_view args[] = {"DEL", key};
  ctx.server.Propagate(ctx.client, args);
  KeyChanged(ctx, ctx.db(), key, kNotifyGeneric, "del");
}

void GetEx(CommandContext& ctx) {
  using O = StringOptions;
  StringOptions opts;
  if (!ParseStringOptions(ctx.args, 2, StringCommand::kGetEx, &opts)) {
    return ctx.reply.Error(err::kSyntax);
  }
  std::string_view key = ctx.arg(1);
  bool wrong_type;
  Database::Entry* e = LookupString(ctx, key, &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!e) return ctx.reply.Null();
  const int64_t now = WallMs();
  int64_t deadline = -1;
  if (opts.has_expire() && ReplyExpireError(ctx, ExpireDeadline(opts, now, &deadline))) return;
  ctx.reply.Bulk(e->value.str());
  Database& db = ctx.db();
  if (opts.has_expire() && DeletesAtOnce(ctx, deadline)) {  // only EXAT/PXAT can be past
    db.DeleteExpired(key);
    PropagateDel(ctx, key);
    KeyChanged(ctx, db, key, kNotifyGeneric, "del");
  } else if (opts.has_expire()) {
    db.SetExpire(e, deadline);
    PropagateExpireAt(ctx, key, deadline);
    KeyChanged(ctx, db, key, kNotifyGeneric, "expire");
  } else if (opts.has(O::kPersist) && db.ExpireMs(e) >= 0) {
    db.SetExpire(e, -1);
    // As Redis 7.0: replicated (and logged) as PERSIST.
    const std::string_view args[] = {"PERSIST", key};
    ctx.server.Propagate(ctx.client, args);
    KeyChanged(ctx, db, key, kNotifyGeneric, "persist");
  }
}

void MGet(CommandContext& ctx) {
  ctx.reply.ArrayHeader(ctx.argc() - 1);
  for (size_t i = 1; i < ctx.argc(); i++) {
    Database::Entry* e = LookupRead(ctx, ctx.arg(i));
    if (e && e->value.type() == ValueType::kString) {
      ctx.reply.Bulk(e->value.str());
    } else {
      ctx.reply.Null();
    }
  }
}

void MSetGeneric(CommandContext& ctx, bool nx) {
  if (ctx.argc() % 2 == 0) return ctx.reply.Error(WrongArityError(ctx.arg(0)));
  if (nx) {
    for (size_t i = 1; i < ctx.argc(); i += 2) {
      if (LookupWrite(ctx, ctx.arg(i))) return ctx.reply.Integer(0);
    }
  }
  Database& db = ctx.db();
  for (size_t i = 1; i < ctx.argc(); i += 2) {
    db.Set(ctx.arg(i), Value::Str(ctx.arg(i + 1)));
    KeyChanged(ctx, db, ctx.arg(i), kNotifyString, "set");
  }
  nx ? ctx.reply.Integer(1) : ctx.reply.Ok();
}

void MSet(CommandContext& ctx) { MSetGeneric(ctx, false); }
void MSetNx(CommandContext& ctx) { MSetGeneric(ctx, true); }

// Arity follows Redis: N = exactly N args (incl. name), -N = at least N.
constexpr CommandSpec kStringCommands[] = {
    // name         arity  flags                         first last step handler
    {"get",         2,     kReadOnly | kFast,            1,    1,   1,   &Get},
    {"set",         -3,    kWrite | kDenyOom,            1,    1,   1,   &Set},
    {"setnx",       3,     kWrite | kDenyOom | kFast,    1,    1,   1,   &SetNx},
    {"setex",       4,     kWrite | kDenyOom,            1,    1,   1,   &SetEx},
    {"psetex",      4,     kWrite | kDenyOom,            1,    1,   1,   &PSetEx},
    {"getset",      3,     kWrite | kDenyOom | kFast,    1,    1,   1,   &GetSet},
    {"getdel",      2,     kWrite | kFast,               1,    1,   1,   &GetDel},
    {"getex",       -2,    kWrite | kFast,               1,    1,   1,   &GetEx},
    {"mget",        -2,    kReadOnly | kFast,            1,    -1,  1,   &MGet},
    {"mset",        -3,    kWrite | kDenyOom,            1,    -1,  2,   &MSet},
    {"msetnx",      -3,    kWrite | kDenyOom,            1,    -1,  2,   &MSetNx},
    {"incr",        2,     kWrite | kDenyOom | kFast,    1,    1,   1,   &Incr},
    {"decr",        2,     kWrite | kDenyOom | kFast,    1,    1,   1,   &Decr},
    {"incrby",      3,     kWrite | kDenyOom | kFast,    1,    1,   1,   &IncrBy},
    {"decrby",      3,     kWrite | kDenyOom | kFast,    1,    1,   1,   &DecrBy},
    {"incrbyfloat", 3,     kWrite | kDenyOom | kFast,    1,    1,   1,   &IncrByFloat},
    {"append",      3,     kWrite | kDenyOom | kFast,    1,    1,   1,   &Append},
    {"strlen",      2,     kReadOnly | kFast,            1,    1,   1,   &StrLen},
    {"getrange",    4,     kReadOnly,                    1,    1,   1,   &GetRange},
    {"substr",      4,     kReadOnly,                    1,    1,   1,   &GetRange},
    {"setrange",    4,     kWrite | kDenyOom,            1,    1,   1,   &SetRange},
    {"lcs",         -3,    kReadOnly,                    1,    1,   1,   &LcsCmd},
};

}  // namespace

std::span<const CommandSpec> StringCommands() { return kStringCommands; }

}  // namespace rankd
