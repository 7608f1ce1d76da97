// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Hash field expiry, as Redis 7.4 (there is no 7.0 oracle; this follows
// Redis 7.4's documentation and source, see docs/commands.md):
//
//   HEXPIRE / HPEXPIRE / HEXPIREAT / HPEXPIREAT key time [NX|XX|GT|LT]
//       FIELDS numfields field ...
//     per field: -2 no such field (or no key), 0 condition not met,
//     1 deadline set, 2 field deleted (the time is already past)
//   HTTL / HPTTL / HEXPIRETIME / HPEXPIRETIME key FIELDS numfields field ...
//     per field: -2 no such field, -1 no deadline, else the time
//   HPERSIST key FIELDS numfields field ...
//     per field: -2 no such field, -1 no deadline, 1 deadline removed
//
// NX: only fields without a deadline; XX: only fields with one; GT / LT:
// only a later / earlier deadline (a field without one counts as infinite:
// GT fails, LT succeeds). A field whose deadline passes is removed before
// any command sees it, or by the cron (db/hash_fields.cc), and logged as
// HDEL. Deadlines are logged as HPEXPIREAT <absolute ms> per field, so a
// replay sets the same ones; a field deleted at once is logged as HDEL.

#include <climits>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/families.h"
#include "commands/item_expire_args.h"
#include "commands/type_lookup.h"
#include "commands/zset_common.h"
#include "server/errors.h"
#include "server/notify.h"
#include "server/keys_common.h"
#include "server/server.h"

namespace rankd {
namespace {

// FIELDS numfields field... starting at args[at]: the fields, or an error
// reply (returns false).
bool ParseFields(CommandContext& ctx, size_t at, Args* fields) {
  if (at >= ctx.argc() || !EqualsIgnoreCase(ctx.arg(at), "fields")) {
    ctx.reply.Error("ERR Mandatory argument FIELDS is missing or not at the right position");
    return false;
  }
  int64_t n;
  if (at + 1 >= ctx.argc() || !ParseInt64(ctx.arg(at + 1), &n) || n < 1) {
    ctx.reply.Error("ERR Number of fields must be a positive integer");
    return false;
  }
  if (n != static_cast<int64_t>(ctx.argc() - at - 2)) {
    ctx.reply.Error("ERR The `numfields` parameter must match the number of arguments");
    return false;
  }
  *fields = ctx.args.subspan(at + 2);
  return true;
}

// HEXPIRE family. `ms`: the time is in milliseconds; `absolute`: *AT forms.
void HExpireGeneric(CommandContext& ctx, bool ms, bool absolute) {
  bool wrong_type;
  Hash* h = FindHashWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  const int64_t now = WallMs();
  int64_t deadline = 0;
  if (std::string bad = ParseItemDeadline(ctx, ms, absolute, now, &deadline); !bad.empty()) {
    return ctx.reply.Error(bad);
  }
  size_t at = 3;
  const ItemExpireCond cond = ParseItemExpireCond(ctx.arg(at));  // arity: args[3] exists
  if (cond != ItemExpireCond::kNone) at++;
  Args fields;
  if (!ParseFields(ctx, at, &fields)) return;
  ctx.reply.ArrayHeader(fields.size());
  if (!h) {
    for (size_t i = 0; i < fields.size(); i++) ctx.reply.Integer(-2);
    return;
  }
  std::string key(ctx.arg(1));
  const std::string deadline_text = FormatInt64(deadline);
  std::vector<std::string_view> deleted = {"HDEL", key};
  bool set_any = false;
  for (std::string_view f : fields) {
    if (h->empty() || !h->Contains(f)) {
      ctx.reply.Integer(-2);
      continue;
    }
    const int64_t prev = h->FieldExpire(f);
    if (!ItemExpireCondMet(cond, prev, deadline)) {
      ctx.reply.Integer(0);
      continue;
    }
    if (deadline <= now) {
      h->Delete(f);
      deleted.push_back(f);
      ctx.reply.Integer(2);
      continue;
    }
    h->SetFieldExpire(f, deadline);
    set_any = true;
    const std::string_view effect[] = {"HPEXPIREAT", key, deadline_text, "FIELDS", "1", f};
    ctx.server.Propagate(ctx.client, effect);
    ctx.reply.Integer(1);
  }
  if (deleted.size() > 2) ctx.server.Propagate(ctx.client, deleted);
  if (set_any) ctx.db().NoteFieldDeadlines(key);
  if (h->empty()) {
    ReportRemoval(ctx, key, true, kNotifyHash, "hdel");
  } else if (set_any || deleted.size() > 2) {
    // Redis 7.4: "hdel" when a past deadline deleted fields, else "hexpire".
    KeyChanged(ctx, ctx.db(), key, kNotifyHash, deleted.size() > 2 ? "hdel" : "hexpire");
  }
}

void HExpire(CommandContext& ctx) { HExpireGeneric(ctx, false, false); }
void HPExpire(CommandContext& ctx) { HExpireGeneric(ctx, true, false); }
void HExpireAt(CommandContext& ctx) { HExpireGeneric(ctx, false, true); }
void HPExpireAt(CommandContext& ctx) { HExpireGeneric(ctx, true, true); }

enum class TtlKind { kTtl, kPTtl, kExpireTime, kPExpireTime };

// HTTL / HPTTL / HEXPIRETIME / HPEXPIRETIME key FIELDS numfields field ...
void HTtlGeneric(CommandContext& ctx, TtlKind kind) {
  bool wrong_type;
  Hash* h = FindHashRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  Args fields;
  if (!ParseFields(ctx, 2, &fields)) return;
  ctx.reply.ArrayHeader(fields.size());
  const int64_t now = WallMs();
  for (std::string_view f : fields) {
    if (!h || !h->Contains(f)) {
      ctx.reply.Integer(-2);
      continue;
    }
    const int64_t d = h->FieldExpire(f);
    if (d < 0) {
      ctx.reply.Integer(-1);
      continue;
    }
    switch (kind) {
      case TtlKind::kTtl: ctx.reply.Integer((d - now + 999) / 1000); break;
      case TtlKind::kPTtl: ctx.reply.Integer(d - now); break;
      case TtlKind::kExpireTime: ctx.reply.Integer(d / 1000); break;
      case TtlKind::kPExpireTime: ctx.reply.Integer(d); break;
    }
  }
}

void HTtl(CommandContext& ctx) { HTtlGeneric(ctx, TtlKind::kTtl); }
void HPTtl(CommandContext& ctx) { HTtlGeneric(ctx, TtlKind::kPTtl); }
void HExpireTime(CommandContext& ctx) { HTtlGeneric(ctx, TtlKind::kExpireTime); }
void HPExpireTime(CommandContext& ctx) { HTtlGeneric(ctx, TtlKind::kPExpireTime); }

// HPERSIST key FIELDS numfields field ...
void HPersist(CommandContext& ctx) {
  bool wrong_type;
  Hash* h = FindHashWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  Args fields;
  if (!ParseFields(ctx, 2, &fields)) return;
  ctx.reply.ArrayHeader(fields.size());
  bool changed = false;
  for (std::string_view f : fields) {
    if (!h || !h->Contains(f)) {
      ctx.reply.Integer(-2);
    } else if (h->FieldExpire(f) < 0) {
      ctx.reply.Integer(-1);
    } else {
      h->SetFieldExpire(f, -1);
      changed = true;
      ctx.reply.Integer(1);
    }
  }
  if (changed) KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyHash, "hpersist");
}

constexpr CommandSpec kHashExpireCommands[] = {
    // name           arity  flags                      first last step handler
    {"hexpire",       -6,    kWrite | kDenyOom | kFast, 1,    1,   1,   &HExpire},
    {"hpexpire",      -6,    kWrite | kDenyOom | kFast, 1,    1,   1,   &HPExpire},
    {"hexpireat",     -6,    kWrite | kDenyOom | kFast, 1,    1,   1,   &HExpireAt},
    {"hpexpireat",    -6,    kWrite | kDenyOom | kFast, 1,    1,   1,   &HPExpireAt},
    {"httl",          -5,    kReadOnly | kFast,         1,    1,   1,   &HTtl},
    {"hpttl",         -5,    kReadOnly | kFast,         1,    1,   1,   &HPTtl},
    {"hexpiretime",   -5,    kReadOnly | kFast,         1,    1,   1,   &HExpireTime},
    {"hpexpiretime",  -5,    kReadOnly | kFast,         1,    1,   1,   &HPExpireTime},
    {"hpersist",      -5,    kWrite | kFast,            1,    1,   1,   &HPersist},
};

}  // namespace

std::span<const CommandSpec> HashExpireCommands() { return kHashExpireCommands; }

}  // namespace rankd
