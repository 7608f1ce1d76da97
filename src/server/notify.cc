// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/notify.h"

#include "base/numbers.h"
#include "server/pubsub.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr struct {
  char ch;
  uint32_t bits;
} kFlagChars[] = {
    {'A', kNotifyAll},      {'g', kNotifyGeneric}, {'$', kNotifyString},   {'l', kNotifyList},
    {'s', kNotifySet},      {'h', kNotifyHash},    {'z', kNotifyZset},     {'x', kNotifyExpired},
    {'e', kNotifyEvicted},  {'K', kNotifyKeyspace}, {'E', kNotifyKeyevent}, {'t', kNotifyStream},
    {'m', kNotifyKeyMiss},  {'d', kNotifyModule},  {'n', kNotifyNew},
};

}  // namespace

bool ParseNotifyFlags(std::string_view s, int64_t* flags) {
  int64_t out = 0;
  for (char ch : s) {
    bool known = false;
    for (auto [c, bits] : kFlagChars) {
      if (c == ch) {
        out |= bits;
        known = true;
      }
    }
    if (!known) return false;
  }
  *flags = out;
  return true;
}

std::string FormatNotifyFlags(int64_t flags) {
  // Classes in Redis's order, "A" when all of A's are set; then K, E, m.
  static constexpr char kOrder[] = "g$lshzxetdn";
  char out[24];
  size_t n = 0;
  if ((flags & kNotifyAll) == kNotifyAll) {
    out[n++] = 'A';
  } else {
    for (char want : std::string_view(kOrder)) {
      for (auto [c, bits] : kFlagChars) {
        if (c == want && (flags & bits)) out[n++] = c;
      }
    }
  }
  if (flags & kNotifyKeyspace) out[n++] = 'K';
  if (flags & kNotifyKeyevent) out[n++] = 'E';
  if (flags & kNotifyKeyMiss) out[n++] = 'm';
  return std::string(out, n);
}

void KeyChanged(CommandContext& ctx, Database& db, std::string_view key, NotifyClass cls,
                std::string_view event) {
  db.Touch(key);
  // Most servers publish no keyspace events: skip the call.
  if (ctx.server.config().notify_keyspace_events & cls) {
    ctx.server.NotifyKeyspaceEvent(cls, event, key, db.index());
  }
}

void KeyEvent(CommandContext& ctx, Database& db, NotifyClass cls, std::string_view event,
              std::string_view key) {
  ctx.server.NotifyKeyspaceEvent(cls, event, key, db.index());
}

void Server::NotifyKeyspaceEvent(uint32_t cls, std::string_view event, std::string_view key,
                                 int db) {
  const int64_t flags = config_.notify_keyspace_events;
  if (!(flags & cls) || pubsub_.empty()) return;
  // "__keyspace@<db>__:<key>" / "__keyevent@<db>__:<event>"
  auto channel = [db](std::string_view prefix, std::string_view tail) {
    std::string ch;
    ch.reserve(prefix.size() + 24 + tail.size());
    ch.append(prefix);
    AppendInt64(&ch, db);
    ch.append("__:");
    ch.append(tail);
    return ch;
  };
  if (flags & kNotifyKeyspace) {
    pubsub_.Publish(PubSub::kChannel, channel("__keyspace@", key), event);
  }
  if (flags & kNotifyKeyevent) {
    pubsub_.Publish(PubSub::kChannel, channel("__keyevent@", event), key);
  }
}

}  // namespace rankd
