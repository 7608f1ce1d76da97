// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// MIGRATE's connection cache, as Redis 7.0 keeps one: a connection per
// target "host:port" stays open after a MIGRATE for the next one, with the
// database it last SELECTed, and is closed after 10 s unused (a once-a-
// second sweep) or at once on an I/O error. At most 64 are kept; a new
// target over that closes one at random. INFO migrate_cached_sockets
// counts them. Main thread only.

#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "base/clock.h"
#include "commands/dump_handlers.h"
#include "net/event_loop.h"

namespace rankd {
namespace {

constexpr size_t kMaxSockets = 64;       // Redis's MIGRATE_SOCKET_CACHE_ITEMS
constexpr int64_t kIdleCloseMs = 10000;  // Redis's MIGRATE_SOCKET_CACHE_TTL

std::map<std::string, MigrateSocket>& Cache() {
  static auto* cache = new std::map<std::string, MigrateSocket>();
  return *cache;
}
uint64_t g_sweep_timer = 0;

std::string Target(const std::string& host, int port) { return host + ":" + std::to_string(port); }

// Closes the sockets unused for kIdleCloseMs; runs every second while any
// is cached.
void Sweep(EventLoop* loop) {
  g_sweep_timer = 0;
  const int64_t now = MonoMs();
  std::erase_if(Cache(), [now](const auto& kv) { return now - kv.second.last_use_ms > kIdleCloseMs; });
  if (!Cache().empty()) g_sweep_timer = loop->AddTimer(1000, [loop] { Sweep(loop); });
}

}  // namespace

MigrateSocket* AcquireMigrateSocket(EventLoop& loop, const std::string& host, int port,
                                    int64_t timeout_ms, bool* fresh) {
  auto& cache = Cache();
  const std::string target = Target(host, port);
  auto it = cache.find(target);
  *fresh = it == cache.end();
  if (*fresh) {
    std::string why;
    std::unique_ptr<SyncConnection> conn = SyncConnection::Connect(host, port, timeout_ms, &why);
    if (!conn) return nullptr;
    if (cache.size() >= kMaxSockets) {
      static std::mt19937_64 rng(0x6d696772);
      cache.erase(std::next(cache.begin(), static_cast<long>(rng() % cache.size())));
    }
    it = cache.emplace(target, MigrateSocket{std::move(conn), -1, 0}).first;
  }
  it->second.last_use_ms = MonoMs();
  if (!g_sweep_timer) g_sweep_timer = loop.AddTimer(1000, [l = &loop] { Sweep(l); });
  return &it->second;
}

void CloseMigrateSocket(const std::string& host, int port) { Cache().erase(Target(host, port)); }

size_t MigrateCachedSockets() { return Cache().size(); }

}  // namespace rankd
