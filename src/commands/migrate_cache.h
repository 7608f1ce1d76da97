// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// MIGRATE's connections to its targets, kept for reuse as Redis 7.0 keeps
// them (migrateGetSocket): one per "host:port", closed once idle for 10 s,
// at most 64 (the oldest goes first). A connection is only cached after it
// served a MIGRATE, so a refused connect never is. INFO shows the count as
// migrate_cached_sockets. One cache per process (one server); not
// thread-safe: the server's thread only.

#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "net/event_loop.h"
#include "net/sync_client.h"

namespace rankd {

class MigrateCache {
 public:
  static constexpr int64_t kIdleMs = 10000;
  static constexpr size_t kMaxSockets = 64;

  // Removes and returns the cached connection to `target` ("host:port"),
  // nullptr when none (or it sat idle too long: it is closed).
  static std::unique_ptr<SyncConnection> Take(const std::string& target);
  // Caches `conn`, which just served a MIGRATE to `target`; a timer on
  // `loop` closes it once idle. REQUIRES: `loop` outlives the cache's use.
  static void Put(EventLoop& loop, const std::string& target, std::unique_ptr<SyncConnection> conn);
  // Connections cached now (INFO migrate_cached_sockets).
  static size_t Count();
};

}  // namespace rankd
