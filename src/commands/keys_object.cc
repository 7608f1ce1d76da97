// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "commands/keys_object.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/memory.h"
#include "base/numbers.h"
#include "server/errors.h"
#include "server/keys_common.h"
#include "server/server.h"

namespace rankd {
namespace {

// Redis keeps the integers 0..9999 as shared objects whose refcount is
// INT_MAX, unless an LRU/LFU maxmemory policy needs per-key access data.
constexpr int64_t kSharedIntegers = 10000;
constexpr int64_t kSharedRefcount = 2147483647;
// Redis's LFU counter of a new key (LFU_INIT_VAL).

bool LfuPolicy(Server& server) {
  return server.config().maxmemory_policy.find("lfu") != std::string::npos;
}

bool SharesIntegers(Server& server) {
  const std::string& policy = server.config().maxmemory_policy;
  return server.config().maxmemory == 0 ||
         (policy.find("lru") == std::string::npos && policy.find("lfu") == std::string::npos);
}


int64_t Refcount(Server& server, const Value& v) {
  if (v.type() == ValueType::kString && v.EncodingName() == "int" && SharesIntegers(server)) {
    int64_t n = 0;
    ParseInt64(v.str(), &n);
    if (n >= 0 && n < kSharedIntegers) return kSharedRefcount;
  }
  return 1;
}

}  // namespace

void Object(CommandContext& ctx) {
  std::string_view sub = ctx.arg(1);
  if (EqualsIgnoreCase(sub, "help")) {
    return ReplyHelp(ctx.reply, "object", {
        "ENCODING <key>",
        "    Return the kind of internal representation used in order to store the value",
        "    associated with a <key>.",
        "FREQ <key>",
        "    Return the access frequency index of the <key>. The returned integer is",
        "    proportional to the logarithm of the recent access frequency of the key.",
        "IDLETIME <key>",
        "    Return the idle time of the <key>, that is the approximated number of",
        "    seconds elapsed since the last access to the key.",
        "REFCOUNT <key>",
        "    Return the number of references of the value associated with the specified",
        "    <key>.",
    });
  }
  std::string full;
  if (EqualsIgnoreCase(sub, "encoding")) {
    full = "object|encoding";
  } else if (EqualsIgnoreCase(sub, "refcount")) {
    full = "object|refcount";
  } else if (EqualsIgnoreCase(sub, "idletime")) {
    full = "object|idletime";
  } else if (EqualsIgnoreCase(sub, "freq")) {
    full = "object|freq";
  } else {
    return ctx.reply.Error(UnknownSubcommandError(sub, "object"));
  }
  const Database::Entry* e = LookupRead(ctx, ctx.arg(2), /*touch=*/false, /*notify=*/false);
  if (!e) return ctx.reply.Null();
  const int64_t idle_ms = Database::IdleMs(e);
  if (full == "object|encoding") return ctx.reply.Bulk(e->value.EncodingName());
  if (full == "object|refcount") return ctx.reply.Integer(Refcount(ctx.server, e->value));
  if (full == "object|idletime") {
    if (LfuPolicy(ctx.server)) {
      return ctx.reply.Error(
          "ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that "
          "when switching between policies at runtime LRU and LFU data will take some time to "
          "adjust.");
    }
    return ctx.reply.Integer(idle_ms / 1000);
  }
  if (!LfuPolicy(ctx.server)) {
    return ctx.reply.Error(
        "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note "
        "that when switching between policies at runtime LRU and LFU data will take some time "
        "to adjust.");
  }
  ctx.reply.Integer(ctx.db().LfuFrequency(e));
}

namespace {

void MemoryUsage(CommandContext& ctx) {
  for (size_t i = 3; i < ctx.argc(); i++) {
    if (EqualsIgnoreCase(ctx.arg(i), "samples") && i + 1 < ctx.argc()) {
      int64_t samples;
      if (!ParseInt64(ctx.arg(i + 1), &samples)) return ctx.reply.Error(err::kNotInteger);
      if (samples < 0) return ctx.reply.Error(err::kSyntax);
      i++;
    } else {
      return ctx.reply.Error(err::kSyntax);
    }
  }
  const Database::Entry* e = ctx.db().Peek(ctx.arg(2));
  if (!e) return ctx.reply.Null();
  // The Value is embedded in the Entry, the key's bytes follow it.
  size_t usage = sizeof(Database::Entry) - sizeof(Value) + e->key().size() + e->value.MemoryUsage();
  ctx.reply.Integer(static_cast<int64_t>(usage));
}

// Redis's doctor speaks only above 5 MB allocated; below it says so.
void MemoryDoctor(CommandContext& ctx) {
  const bool empty = AllocatedBytes() < 5 * 1024 * 1024;
  ctx.reply.Verbatim(
      empty ? "Hi Sam, this instance is empty or is using very little memory, my issues "
              "detector can't be used in these conditions. Please, leave for your mission on "
              "Earth and fill it with some data. The new Sam and I will be back to our "
              "programming as soon as I finished rebooting.\n"
            : "Hi Sam, I can't find any memory issue in your instance. I can only account for "
              "what occurs on this base.\n");
}

// MEMORY STATS with Redis 7.0's field names and order. rankd tracks less
// than Redis: no peak (the current figure is reported), no startup baseline
// (0) and no per-client buffers (0); the hash-table overhead is estimated
// from the entry size.
void MemoryStats(CommandContext& ctx) {
  Server& server = ctx.server;
  const int64_t total = static_cast<int64_t>(AllocatedBytes());
  const int64_t rss = static_cast<int64_t>(ResidentBytes());
  const double ratio = total > 0 ? static_cast<double>(rss) / static_cast<double>(total) : 0;
  int nonempty = 0;
  int64_t keys = 0, overhead = 0;
  for (int i = 0; i < server.db_count(); i++) nonempty += server.db(i).size() > 0;
  ReplyBuilder& r = ctx.reply;
  r.MapHeader(27 + static_cast<size_t>(nonempty));
  auto field = [&](std::string_view name, int64_t v) {
    r.Bulk(name);
    r.Integer(v);
  };
  field("peak.allocated", total);
  field("total.allocated", total);
  field("startup.allocated", 0);
  for (std::string_view name : {"replication.backlog", "clients.slaves", "clients.normal",
                                "cluster.links", "aof.buffer", "lua.caches",
                                "functions.caches"}) {
    field(name, 0);
  }
  for (int i = 0; i < server.db_count(); i++) {
    const Database& db = server.db(i);
    if (db.size() == 0) continue;
    const int64_t main = static_cast<int64_t>(db.size() * (sizeof(Database::Entry) - sizeof(Value)));
    const int64_t expires = static_cast<int64_t>(db.expires_size() * sizeof(void*));
    r.Bulk("db." + std::to_string(i));
    r.MapHeader(2);
    field("overhead.hashtable.main", main);
    field("overhead.hashtable.expires", expires);
    keys += static_cast<int64_t>(db.size());
    overhead += main + expires;
  }
  field("overhead.total", overhead);
  field("keys.count", keys);
  field("keys.bytes-per-key", keys ? total / keys : 0);
  field("dataset.bytes", std::max<int64_t>(0, total - overhead));
  r.Bulk("dataset.percentage");
  r.Double(total > 0 ? 100.0 * static_cast<double>(total - overhead) / static_cast<double>(total)
                     : 0);
  r.Bulk("peak.percentage");
  r.Double(100.0);
  field("allocator.allocated", total);
  field("allocator.active", total);
  field("allocator.resident", rss);
  r.Bulk("allocator-fragmentation.ratio");
  r.Double(1.0);
  field("allocator-fragmentation.bytes", 0);
  r.Bulk("allocator-rss.ratio");
  r.Double(ratio);
  field("allocator-rss.bytes", rss - total);
  r.Bulk("rss-overhead.ratio");
  r.Double(1.0);
  field("rss-overhead.bytes", 0);
  r.Bulk("fragmentation");
  r.Double(ratio);
  field("fragmentation.bytes", rss - total);
}

}  // namespace

void Memory(CommandContext& ctx) {
  std::string_view sub = ctx.arg(1);
  if (EqualsIgnoreCase(sub, "help")) {
    return ReplyHelp(ctx.reply, "memory", {
        "DOCTOR",
        "    Return memory problems reports.",
        "MALLOC-STATS",
        "    Return internal statistics report from the memory allocator.",
        "PURGE",
        "    Attempt to purge dirty pages for reclamation by the allocator.",
        "STATS",
        "    Return information about the memory usage of the server.",
        "USAGE <key> [SAMPLES <count>]",
        "    Return memory in bytes used by <key> and its value. Nested values are",
        "    sampled up to <count> times (default: 5, 0 means sample all).",
    });
  }
  if (EqualsIgnoreCase(sub, "usage")) {
    MemoryUsage(ctx);
  } else if (EqualsIgnoreCase(sub, "doctor")) {
    MemoryDoctor(ctx);
  } else if (EqualsIgnoreCase(sub, "stats")) {
    MemoryStats(ctx);
  } else if (EqualsIgnoreCase(sub, "purge")) {
    ctx.reply.Ok();
  } else if (EqualsIgnoreCase(sub, "malloc-stats")) {
    ctx.reply.Bulk("Stats not supported for the current allocator");
  } else {
    ctx.reply.Error(UnknownSubcommandError(sub, "memory"));
  }
}

}  // namespace rankd
