// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// DUMP and RESTORE (and MIGRATE, migrate_cmd.cc) with Redis's payload format (persist/rdb_writer.h), so
// values move between rankd and redis-server 7.0 both ways. Argument order,
// checks and error texts follow Redis 7.0 restoreCommand (cluster.c) step by
// step: options, BUSYKEY, TTL, payload footer, payload body.

#include <climits>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/logging.h"
#include "base/numbers.h"
#include "commands/dump_handlers.h"
#include "commands/families.h"
#include "db/lfu.h"
#include "persist/rdb_writer.h"
#include "server/errors.h"
#include "server/keys_common.h"
#include "server/notify.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr std::string_view kBusyKey = "BUSYKEY Target key name already exists.";
constexpr std::string_view kBadPayload = "ERR DUMP payload version or checksum are wrong";
constexpr std::string_view kBadFormat = "ERR Bad data format";

void Dump(CommandContext& ctx) {
  Database::Entry* e = LookupRead(ctx, ctx.arg(1));
  if (!e) return ctx.reply.Null();
  ctx.reply.Bulk(DumpPayload(e->value, CurrentDumpOptions(ctx)));
}

struct RestoreArgs {
  bool replace = false;
  bool absttl = false;
  int64_t idle_s = -1;  // IDLETIME seconds
  int64_t freq = -1;    // FREQ 0-255
};

// Redis parses IDLETIME and FREQ as exclusive: the second one given is a
// syntax error.
bool ParseRestoreOptions(CommandContext& ctx, RestoreArgs* a) {
  for (size_t j = 4; j < ctx.argc(); j++) {
    const std::string_view opt = ctx.arg(j);
    const bool has_value = j + 1 < ctx.argc();
    if (EqualsIgnoreCase(opt, "replace")) {
      a->replace = true;
    } else if (EqualsIgnoreCase(opt, "absttl")) {
      a->absttl = true;
    } else if (EqualsIgnoreCase(opt, "idletime") && has_value && a->freq == -1) {
      if (!ParseInt64(ctx.arg(++j), &a->idle_s)) return ctx.reply.Error(err::kNotInteger), false;
      if (a->idle_s < 0) return ctx.reply.Error("ERR Invalid IDLETIME value, must be >= 0"), false;
    } else if (EqualsIgnoreCase(opt, "freq") && has_value && a->idle_s == -1) {
      if (!ParseInt64(ctx.arg(++j), &a->freq)) return ctx.reply.Error(err::kNotInteger), false;
      if (a->freq < 0 || a->freq > 255) {
        return ctx.reply.Error("ERR Invalid FREQ value, must be >= 0 and <= 255"), false;
      }
    } else {
      return ctx.reply.Error(err::kSyntax), false;
    }
  }
  return true;
}

// Redis objectSetLRUOrLFU: FREQ under an LFU policy, IDLETIME otherwise;
// the other one is ignored.
void SetAccess(Database& db, Database::Entry* e, const RestoreArgs& a) {
  if (db.lfu().enabled) {
    if (a.freq >= 0) e->set_access(LfuPack(static_cast<uint8_t>(a.freq), LfuMinutes()));
  } else if (a.idle_s >= 0) {
    const int64_t clock = LruClock(), idle = a.idle_s % (int64_t{kLruClockMax} + 1);
    const int64_t stamp = clock >= idle ? clock - idle : clock - idle + kLruClockMax;
    e->set_access(static_cast<uint32_t>(stamp));
  }
}

// RESTORE key ttl payload [REPLACE] [ABSTTL] [IDLETIME s] [FREQ f]
void Restore(CommandContext& ctx) {
  RestoreArgs a;
  if (!ParseRestoreOptions(ctx, &a)) return;
  const std::string_view key = ctx.arg(1), payload = ctx.arg(3);
  Database& db = ctx.db();
  if (!a.replace && LookupWrite(ctx, key)) return ctx.reply.Error(kBusyKey);
  int64_t ttl;
  if (!ParseInt64(ctx.arg(2), &ttl)) return ctx.reply.Error(err::kNotInteger);
  if (ttl < 0) return ctx.reply.Error("ERR Invalid TTL value, must be >= 0");
  if (!DumpFooterOk(payload)) return ctx.reply.Error(kBadPayload);

  SnapshotLoadOptions opts;
  opts.zset_limits = ctx.server.zset_limits();
  opts.set_limits = ctx.server.set_limits();
  opts.hash_limits = ctx.server.hash_limits();
  opts.list_limits = ctx.server.list_limits();
  Value value;
  Status s = ReadDumpPayload(payload, opts, &value);
  if (s.code() == Status::Code::kInvalidArgument) {  // a stream or module value
    return ctx.reply.Error(std::string(kBadFormat) + " (" + s.message() + " by rankd)");
  }
  if (!s.ok()) {
    // The message names the encoding as Redis's "<encoding> integrity check
    // failed" lines do (log watchers grep them).
    LOG_WARNING("Bad DUMP payload in RESTORE: %s", s.message().c_str());
    return ctx.reply.Error(kBadFormat);
  }

  const bool deleted = a.replace && db.Delete(key);
  const int64_t now = WallMs();
  if (ttl && !a.absttl) ttl = ttl > LLONG_MAX - now ? LLONG_MAX : ttl + now;
  if (ttl && DeletesAtOnce(ctx, ttl)) {  // already expired: only the old key goes
    if (deleted) {
      PropagateDel(ctx, key);
      KeyChanged(ctx, db, key, kNotifyGeneric, "del");
    }
    return ctx.reply.Ok();
  }
  Database::Entry* e = db.Insert(key, std::move(value));
  if (ttl) db.SetExpire(e, ttl);
  SetAccess(db, e, a);
  // Logged with an absolute deadline, as Redis rewrites it, so that the
  // log and the replicas reach the same deadline.
  std::vector<std::string_view> effect(ctx.args.begin(), ctx.args.end());
  const std::string deadline = std::to_string(ttl);
  effect[2] = deadline;
  if (ttl && !a.absttl) effect.push_back("ABSTTL");
  ctx.server.Propagate(ctx.client, effect);
  KeyChanged(ctx, db, key, kNotifyGeneric, "restore");
  ctx.reply.Ok();
}

constexpr CommandSpec kDumpCommands[] = {
    // name      arity  flags               first last step handler
    {"dump",     2,     kReadOnly,          1,    1,   1,   &Dump},
    {"restore",  -4,    kWrite | kDenyOom,  1,    1,   1,   &Restore},
    // RESTORE on a slot being imported, without ASKING first (MIGRATE from
    // Redis 7.0 nodes sends it); cluster routing lets it in (router.cc).
    {"restore-asking", -4, kWrite | kDenyOom, 1,   1,   1,   &Restore},
    {"migrate",  -6,    kWrite,             3,    3,   1,   &Migrate},
};

}  // namespace

DumpOptions CurrentDumpOptions(CommandContext& ctx) {
  const Config& c = ctx.server.config();
  return DumpOptions{c.rdbcompression, c.list_max_listpack_size};
}

std::span<const CommandSpec> DumpCommands() { return kDumpCommands; }

}  // namespace rankd
