// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Member expiry on sorted sets and leaderboards (issue 17), shaped as Redis
// 7.4's hash-field expiry (HEXPIRE ...), with MEMBERS in place of FIELDS:
//
//   ZEXPIRE / ZPEXPIRE / ZEXPIREAT / ZPEXPIREAT
//       key time [NX | XX | GT | LT] MEMBERS nummembers member [member ...]
//     One reply per member: -2 no such member (or key), 0 the condition
//     was not met, 1 the deadline was set, 2 the member was deleted because
//     the time is already past. NX: only members without a deadline; XX:
//     only with one; GT / LT: only if the new deadline is later / earlier
//     (no deadline counts as infinite).
//   ZTTL / ZPTTL / ZEXPIRETIME / ZPEXPIRETIME key MEMBERS nummembers member ...
//     -2 no such member, -1 no deadline, else the remaining time / the
//     absolute deadline (seconds rounded up, as HTTL).
//   ZPERSIST key MEMBERS nummembers member ...
//     -2 no such member, -1 no deadline, 1 deadline removed.
//
// The keyspace hides and reclaims expired members (db/database.h). The
// expire commands log their effect with absolute times (ZPEXPIREAT ...) and
// members deleted at once as ZREM, so a replay reaches the same state
// whatever the clock says then.

#include <string>
#include <vector>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/families.h"
#include "commands/item_expire_args.h"
#include "commands/zset_args.h"
#include "commands/zset_common.h"
#include "server/errors.h"
#include "server/keys_common.h"
#include "server/server.h"

namespace rankd {
namespace {

// The key's entry when it holds a sorted set; nullptr when missing. Replies
// WRONGTYPE (and sets *failed) for another type.
Database::Entry* LookupZSet(CommandContext& ctx, bool write, bool* failed) {
  Database::Entry* e = write ? LookupWrite(ctx, ctx.arg(1)) : LookupRead(ctx, ctx.arg(1));
  *failed = e && e->value.type() != ValueType::kZSet;
  if (*failed) ctx.reply.Error(err::kWrongType);
  return *failed ? nullptr : e;
}

// Parses "MEMBERS nummembers member ..." at args[i..]; replies the error and
// returns false on bad input.
bool ParseMembers(CommandContext& ctx, size_t i, Args* members) {
  if (i >= ctx.argc() || !EqualsIgnoreCase(ctx.arg(i), "members")) {
    ctx.reply.Error("ERR Mandatory argument MEMBERS is missing or not at the right position");
    return false;
  }
  int64_t n;
  if (i + 1 >= ctx.argc() || !ParseInt64(ctx.arg(i + 1), &n) || n <= 0) {
    ctx.reply.Error("ERR Parameter `nummembers` should be greater than 0");
    return false;
  }
  if (static_cast<uint64_t>(n) != ctx.argc() - i - 2) {
    ctx.reply.Error("ERR The `nummembers` parameter must match the number of arguments");
    return false;
  }
  *members = ctx.args.subspan(i + 2);
  return true;
}

void ReplyCodes(CommandContext& ctx, const std::vector<int64_t>& codes) {
  ctx.reply.ArrayHeader(codes.size());
  for (int64_t c : codes) ctx.reply.Integer(c);
}

// Logs the effect: deadlines set as one ZPEXPIREAT, deletions as one ZREM.
void PropagateExpire(CommandContext& ctx, std::string_view key, int64_t deadline,
                     const std::vector<std::string_view>& set,
                     const std::vector<std::string_view>& removed) {
  if (!removed.empty()) {
    std::vector<std::string_view> args = {"ZREM", key};
    args.insert(args.end(), removed.begin(), removed.end());
    ctx.server.Propagate(ctx.client, args);
  }
  if (!set.empty()) {
    const std::string ms = FormatInt64(deadline), n = FormatInt64(set.size());
    std::vector<std::string_view> args = {"ZPEXPIREAT", key, ms, "MEMBERS", n};
    args.insert(args.end(), set.begin(), set.end());
    ctx.server.Propagate(ctx.client, args);
  }
}

void ExpireGeneric(CommandContext& ctx, bool ms, bool absolute) {
  bool failed;
  Database::Entry* e = LookupZSet(ctx, /*write=*/true, &failed);
  if (failed) return;
  const int64_t now = WallMs();
  int64_t deadline = 0;
  if (std::string bad = ParseItemDeadline(ctx, ms, absolute, now, &deadline); !bad.empty()) {
    return ctx.reply.Error(bad);
  }
  size_t i = 3;
  const ItemExpireCond cond = ParseItemExpireCond(ctx.arg(i));  // arity: args[3] exists
  if (cond != ItemExpireCond::kNone) i++;
  Args members;
  if (!ParseMembers(ctx, i, &members)) return;
  std::vector<int64_t> codes(members.size(), -2);
  if (!e) return ReplyCodes(ctx, codes);
  SortedSet& z = e->value.zset();
  std::vector<std::string_view> set, removed;
  for (size_t j = 0; j < members.size(); j++) {
    std::string_view m = members[j];
    if (!z.Score(m)) continue;
    if (!ItemExpireCondMet(cond, z.MemberExpire(m), deadline)) {
      codes[j] = 0;
    } else if (deadline <= now) {
      z.Remove(m);
      removed.push_back(m);
      codes[j] = 2;
    } else {
      z.SetMemberExpire(m, deadline);
      set.push_back(m);
      codes[j] = 1;
    }
  }
  if (!set.empty() || !removed.empty()) {
    const std::string key(ctx.arg(1));
    PropagateExpire(ctx, key, deadline, set, removed);
    // Events as Redis 7.4's HEXPIRE (hexpire / hdel): zexpire, zrem, del.
    if (z.empty()) {
      ReportRemoval(ctx, key, true, kNotifyZset, "zrem");
    } else {
      ctx.db().SyncMemberExpire(e);
      KeyChanged(ctx, ctx.db(), key, kNotifyZset, set.empty() ? "zrem" : "zexpire");
      if (!set.empty() && !removed.empty()) KeyEvent(ctx, ctx.db(), kNotifyZset, "zrem", key);
    }
  }
  ReplyCodes(ctx, codes);
}

void ZExpire(CommandContext& ctx) { ExpireGeneric(ctx, false, false); }
void ZPExpire(CommandContext& ctx) { ExpireGeneric(ctx, true, false); }
void ZExpireAt(CommandContext& ctx) { ExpireGeneric(ctx, false, true); }
void ZPExpireAt(CommandContext& ctx) { ExpireGeneric(ctx, true, true); }

// ZTTL and friends: `absolute` answers the deadline, else the time left.
void TtlGeneric(CommandContext& ctx, bool ms, bool absolute) {
  bool failed;
  const Database::Entry* e = LookupZSet(ctx, /*write=*/false, &failed);
  if (failed) return;
  Args members;
  if (!ParseMembers(ctx, 2, &members)) return;
  std::vector<int64_t> codes(members.size(), -2);
  if (e) {
    const SortedSet& z = e->value.zset();
    const int64_t now = WallMs();
    for (size_t j = 0; j < members.size(); j++) {
      if (!z.Score(members[j])) continue;
      const int64_t t = z.MemberExpire(members[j]);
      if (t < 0) {
        codes[j] = -1;
        continue;
      }
      const int64_t v = absolute ? t : t - now;
      codes[j] = ms ? v : (v + 999) / 1000;
    }
  }
  ReplyCodes(ctx, codes);
}

void ZTtl(CommandContext& ctx) { TtlGeneric(ctx, false, false); }
void ZPTtl(CommandContext& ctx) { TtlGeneric(ctx, true, false); }
void ZExpireTime(CommandContext& ctx) { TtlGeneric(ctx, false, true); }
void ZPExpireTime(CommandContext& ctx) { TtlGeneric(ctx, true, true); }

void ZPersist(CommandContext& ctx) {
  bool failed;
  Database::Entry* e = LookupZSet(ctx, /*write=*/true, &failed);
  if (failed) return;
  Args members;
  if (!ParseMembers(ctx, 2, &members)) return;
  std::vector<int64_t> codes(members.size(), -2);
  bool changed = false;
  if (e) {
    SortedSet& z = e->value.zset();
    for (size_t j = 0; j < members.size(); j++) {
      if (!z.Score(members[j])) continue;
      if (z.MemberExpire(members[j]) < 0) {
        codes[j] = -1;
        continue;
      }
      z.SetMemberExpire(members[j], -1);
      codes[j] = 1;
      changed = true;
    }
  }
  if (changed) {
    ctx.db().SyncMemberExpire(e);
    KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyZset, "zpersist");
  }
  ReplyCodes(ctx, codes);
}

constexpr CommandSpec kZSetExpireCommands[] = {
    //  name          arity  flags                      first last step handler
    {"zexpire",       -6,    kWrite | kDenyOom | kFast, 1,    1,   1,   &ZExpire},
    {"zpexpire",      -6,    kWrite | kDenyOom | kFast, 1,    1,   1,   &ZPExpire},
    {"zexpireat",     -6,    kWrite | kDenyOom | kFast, 1,    1,   1,   &ZExpireAt},
    {"zpexpireat",    -6,    kWrite | kDenyOom | kFast, 1,    1,   1,   &ZPExpireAt},
    {"zttl",          -5,    kReadOnly | kFast,         1,    1,   1,   &ZTtl},
    {"zpttl",         -5,    kReadOnly | kFast,         1,    1,   1,   &ZPTtl},
    {"zexpiretime",   -5,    kReadOnly | kFast,         1,    1,   1,   &ZExpireTime},
    {"zpexpiretime",  -5,    kReadOnly | kFast,         1,    1,   1,   &ZPExpireTime},
    {"zpersist",      -5,    kWrite | kFast,            1,    1,   1,   &ZPersist},
};

}  // namespace

std::span<const CommandSpec> ZSetExpireCommands() { return kZSetExpireCommands; }

}  // namespace rankd
