// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE]
//         [AUTH password | AUTH2 username password] [KEYS key ...]
//
// As Redis 7.0 migrateCommand (cluster.c): the keys are DUMPed and sent as
// one pipeline of [AUTH,] SELECT db, RESTORE key ttl payload [REPLACE] to
// the target (a rankd or a redis-server), with the server blocked for at
// most `timeout` ms per step. Each key the target acknowledged is deleted
// here (unless COPY) and logged as one DEL. The connection stays cached for
// the next MIGRATE to the same target (migrate_cache.cc), which SELECTs
// only when the database changes.

#include <algorithm>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/dump_handlers.h"
#include "net/sync_client.h"
#include "persist/rdb_writer.h"
#include "server/errors.h"
#include "server/keys_common.h"
#include "server/notify.h"
#include "server/replication.h"
#include "server/server.h"

namespace rankd {
namespace {

struct MigrateArgs {
  bool copy = false, replace = false, auth = false;
  std::string_view username, password;
  size_t first_key = 3, num_keys = 1;
  int64_t timeout_ms = 0, db = 0;
};

bool ParseMigrate(CommandContext& ctx, MigrateArgs* a) {
  for (size_t j = 6; j < ctx.argc(); j++) {
    const size_t more = ctx.argc() - 1 - j;
    const std::string_view opt = ctx.arg(j);
    if (EqualsIgnoreCase(opt, "copy")) {
      a->copy = true;
    } else if (EqualsIgnoreCase(opt, "replace")) {
      a->replace = true;
    } else if (EqualsIgnoreCase(opt, "auth") && more >= 1) {
      a->auth = true;
      a->password = ctx.arg(++j);
    } else if (EqualsIgnoreCase(opt, "auth2") && more >= 2) {
      a->auth = true;
      a->username = ctx.arg(++j);
      a->auth = true;
      a->password = ctx.arg(++j);
    } else if (EqualsIgnoreCase(opt, "keys")) {
      if (!ctx.arg(3).empty()) {
        return ctx.reply.Error("ERR When using MIGRATE KEYS option, the key argument must be "
                               "set to the empty string"), false;
      }
      a->first_key = j + 1;
      a->num_keys = ctx.argc() - j - 1;
      break;
    } else {
      return ctx.reply.Error(err::kSyntax), false;
    }
  }
  if (!ParseInt64(ctx.arg(5), &a->timeout_ms) || !ParseInt64(ctx.arg(4), &a->db)) {
    return ctx.reply.Error(err::kNotInteger), false;
  }
  if (a->timeout_ms <= 0) a->timeout_ms = 1000;
  return true;
}

}  // namespace

void Migrate(CommandContext& ctx) {
  MigrateArgs a;
  if (!ParseMigrate(ctx, &a)) return;
  Database& db = ctx.db();
  // The keys that exist, looked up once (expiring those due, as Redis's
  // lookupKeyRead); entries stay where they are while this command runs.
  std::vector<std::pair<std::string_view, const Database::Entry*>> keys;
  for (size_t j = 0; j < a.num_keys; j++) {
    const std::string_view key = ctx.arg(a.first_key + j);
    if (const Database::Entry* e = LookupRead(ctx, key)) keys.emplace_back(key, e);
  }
  if (keys.empty()) return ctx.reply.SimpleString("NOKEY");
  int64_t port = 0;
  if (!ParseInt64(ctx.arg(2), &port)) port = 0;  // Redis atoi(): connecting fails
  const std::string host(ctx.arg(1));
  auto append = [](std::string* out, std::initializer_list<std::string_view> args) {
    Replication::EncodeCommand(std::span<const std::string_view>(args.begin(), args.size()), out);
  };
  std::string restores;
  const int64_t now = WallMs();
  const DumpOptions dump = CurrentDumpOptions(ctx);
  for (const auto& [key, e] : keys) {
    const int64_t deadline = db.ExpireMs(e);
    const int64_t ttl = deadline < 0 ? 0 : std::max<int64_t>(deadline - now, 1);
    const std::string payload = DumpPayload(e->value, dump), ttl_text = std::to_string(ttl);
    // In cluster mode the target may be importing the slot: RESTORE-ASKING,
    // as Redis 7.0 sends it.
    const std::string_view restore = ctx.server.cluster() ? "RESTORE-ASKING" : "RESTORE";
    if (a.replace) append(&restores, {restore, key, ttl_text, payload, "REPLACE"});
    else append(&restores, {restore, key, ttl_text, payload});
  }
  // A cached connection may have been closed by the target meanwhile: as
  // Redis, a write that fails (not by timing out), or a read that fails
  // before the first RESTORE's reply, is retried once on a new connection.
  MigrateSocket* sock = nullptr;
  SyncConnection* conn = nullptr;
  bool select = false;
  std::string auth_reply, select_reply, line, target_error;
  bool first_read = false;  // `line` holds the first RESTORE's reply
  for (int attempt = 0;; attempt++) {
    bool fresh;
    sock = AcquireMigrateSocket(ctx.server.loop(), host, static_cast<int>(port), a.timeout_ms,
                                &fresh);
    if (!sock) return ctx.reply.Error("IOERR error or timeout connecting to the client");
    conn = sock->conn.get();
    std::string cmd;
    if (a.auth) {
      if (a.username.empty()) append(&cmd, {"AUTH", a.password});
      else append(&cmd, {"AUTH", a.username, a.password});
    }
    select = sock->last_db != a.db;
    if (select) append(&cmd, {"SELECT", std::to_string(a.db)});
    cmd += restores;
    if (!conn->WriteAll(cmd, a.timeout_ms)) {
      const bool timed_out = conn->timed_out();
      CloseMigrateSocket(host, static_cast<int>(port));
      if (fresh || timed_out || attempt > 0) {
        return ctx.reply.Error("IOERR error or timeout writing to target instance");
      }
      continue;
    }
    auth_reply.clear();
    select_reply.clear();
    const bool head_ok = (!a.auth || conn->ReadLine(&auth_reply, a.timeout_ms)) &&
                         (!select || conn->ReadLine(&select_reply, a.timeout_ms));
    first_read = head_ok && conn->ReadLine(&line, a.timeout_ms);
    if (first_read) break;
    const bool retry = attempt == 0 && !conn->timed_out();
    CloseMigrateSocket(host, static_cast<int>(port));
    if (!retry) return ctx.reply.Error("IOERR error or timeout reading to target instance");
  }
  if (select && !select_reply.empty() && select_reply[0] != '-') sock->last_db = a.db;
  std::vector<std::string_view> effect = {"DEL"};
  bool socket_error = false;
  for (const auto& [key, e] : keys) {
    if (!first_read && !conn->ReadLine(&line, a.timeout_ms)) {
      socket_error = true;
      break;
    }
    const std::string* err = !auth_reply.empty() && auth_reply[0] == '-'       ? &auth_reply
                             : !select_reply.empty() && select_reply[0] == '-' ? &select_reply
                             : !line.empty() && line[0] == '-'                 ? &line
                                                                               : nullptr;
    first_read = false;
    if (err) {
      if (target_error.empty()) target_error = err->substr(1);
    } else if (!a.copy && db.Delete(key)) {
      effect.push_back(key);
      KeyChanged(ctx, db, key, kNotifyGeneric, "del");
    }
  }
  if (socket_error) CloseMigrateSocket(host, static_cast<int>(port));
  if (effect.size() > 1) ctx.server.Propagate(ctx.client, effect);
  if (!target_error.empty()) {
    return ctx.reply.Error("ERR Target instance replied with error: " + target_error);
  }
  if (socket_error) return ctx.reply.Error("IOERR error or timeout reading to target instance");
  ctx.reply.Ok();
}

}  // namespace rankd
