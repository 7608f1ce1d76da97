// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/client_eviction.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "base/logging.h"
#include "base/numbers.h"
#include "server/client.h"
#include "server/config.h"
#include "server/server.h"

namespace rankd {
namespace {

// What one entry costs beyond its name: the client's own record of it plus
// the server-side index entry that points back at the client.
constexpr int64_t kWatchedKeyBytes = 64;
constexpr int64_t kSubscriptionBytes = 64;
constexpr int64_t kTrackingPrefixBytes = 64;

// Counted toward maxmemory-clients: a client with a connection that is not
// a replication link nor a MONITOR (Redis's normal and pub/sub types).
bool Counted(Server& server, const Client& c) {
  return c.conn && !c.conn->closing() && !c.monitor && c.repl_role == Client::ReplRole::kNone &&
         !server.replication().IsReplicaClient(c);
}

}  // namespace

int64_t ClientMemory(const Client& c) {
  int64_t total = static_cast<int64_t>(sizeof(Client));
  if (c.conn) {
    total += static_cast<int64_t>(sizeof(Connection) + c.conn->query_buffer_capacity() +
                                  c.conn->output_buffer_capacity());
  }
  for (const auto& cmd : c.queued) {
    for (const std::string& a : cmd) total += static_cast<int64_t>(a.size());
  }
  total += static_cast<int64_t>(c.watched.size()) * kWatchedKeyBytes;
  total += static_cast<int64_t>(c.all_subscription_count()) * kSubscriptionBytes;
  total += static_cast<int64_t>(c.tracking.prefixes.size()) * kTrackingPrefixBytes;
  return total;
}

int64_t ClientEvictionLimit(std::string_view setting, int64_t maxmemory) {
  int64_t n = 0;
  if (setting.ends_with('%')) {
    if (!ParseInt64(setting.substr(0, setting.size() - 1), &n) || n <= 0) return 0;
    return static_cast<int64_t>(static_cast<double>(maxmemory) * static_cast<double>(n) / 100.0);
  }
  return ParseMemory(setting, &n) && n > 0 ? n : 0;
}

int64_t ClientEvictionLimit(const Config& config) {
  auto it = config.compat_strings.find("maxmemory-clients");
  return it == config.compat_strings.end() ? 0 : ClientEvictionLimit(it->second, config.maxmemory);
}

int64_t EvictClients(Server& server, int64_t limit) {
  if (limit <= 0) return 0;
  int64_t total = 0;
  std::vector<std::pair<int64_t, Client*>> evictable;
  server.ForEachClient([&](Client& c) {
    // A reply past its hard limit: the connection is closed at this flush.
    if (!Counted(server, c) || c.conn->reply()->overflowed()) return;
    const int64_t mem = ClientMemory(c);
    total += mem;
    if (!c.no_evict) evictable.emplace_back(mem, &c);
  });
  if (total <= limit) return 0;
  std::sort(evictable.begin(), evictable.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  int64_t evicted = 0;
  for (auto& [mem, c] : evictable) {
    if (total <= limit) break;
    LOG_NOTICE("Evicting client: id=%llu addr=%s name=%s tot-mem=%lld (maxmemory-clients %lld)",
               static_cast<unsigned long long>(c->id), c->conn->peer().c_str(), c->name.c_str(),
               static_cast<long long>(mem), static_cast<long long>(limit));
    c->conn->Kill();
    total -= mem;
    evicted++;
    server.stats().evicted_clients++;
  }
  return evicted;
}

}  // namespace rankd
