// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/keys_common.h"

#include <cctype>
#include <climits>

#include "base/clock.h"
#include "base/numbers.h"
#include "server/errors.h"
#include "server/notify.h"
#include "server/replication.h"
#include "server/server.h"

namespace rankd {

Database::Entry* LookupRead(CommandContext& ctx, std::string_view key, bool touch,
                            bool notify) {
  Database::Entry* e = ctx.db().Find(key, touch);
  ServerStats& stats = ctx.server.stats();
  if (e) {
    stats.keyspace_hits++;
  } else {
    stats.keyspace_misses++;
    if (notify) ctx.server.NotifyKeyspaceEvent(kNotifyKeyMiss, "keymiss", key, ctx.db().index());
  }
  return e;
}

Database::Entry* LookupWrite(CommandContext& ctx, std::string_view key) {
  return ctx.db().Find(key);
}

Database::Entry* LookupString(CommandContext& ctx, std::string_view key, bool* wrong_type) {
  *wrong_type = false;
  Database::Entry* e = LookupRead(ctx, key);
  if (e && e->value.type() != ValueType::kString) {
    *wrong_type = true;
    return nullptr;
  }
  return e;
}

bool ParseIntOrReply(CommandContext& ctx, std::string_view arg, int* out, std::string_view msg) {
  int64_t v;
  if (!ParseInt64(arg, &v)) {
    if (msg.empty()) {
      ctx.reply.Error(err::kNotInteger);
    } else {
      ctx.reply.Error("ERR " + std::string(msg));
    }
    return false;
  }
  if (v < INT_MIN || v > INT_MAX) {
    if (msg.empty()) {
      ctx.reply.Error("ERR value is out of range, value must between -2147483648 and 2147483647");
    } else {
      ctx.reply.Error("ERR " + std::string(msg));
    }
    return false;
  }
  *out = static_cast<int>(v);
  return true;
}

Database* DbByIndex(CommandContext& ctx, int64_t index) {
  if (index < 0 || index >= ctx.server.db_count()) return nullptr;
  return &ctx.server.db(static_cast<int>(index));
}

std::string InvalidExpireError(const CommandContext& ctx) {
  std::string name;
  for (char ch : ctx.args[0]) name.push_back(static_cast<char>(tolower(static_cast<unsigned char>(ch))));
  return "ERR invalid expire time in '" + name + "' command";
}

void PropagateExpireAt(CommandContext& ctx, std::string_view key, int64_t deadline_ms) {
  const std::string ms = FormatInt64(deadline_ms);
  const std::string_view args[] = {"PEXPIREAT", key, ms};
  ctx.server.Propagate(ctx.client, args);
}

bool DeletesAtOnce(CommandContext& ctx, int64_t deadline_ms) {
  return deadline_ms <= WallMs() && !ctx.client.obeyed && !ctx.server.replication().is_replica();
}

void PropagateDel(CommandContext& ctx, std::string_view key) {
  const std::string_view args[] = {"DEL", key};
  ctx.server.Propagate(ctx.client, args);
}

}  // namespace rankd
