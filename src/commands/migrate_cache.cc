// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "commands/migrate_cache.h"

#include <map>
#include <utility>

#include "base/clock.h"

namespace rankd {
namespace {

struct Cached {
  std::unique_ptr<SyncConnection> conn;
  int64_t last_use_ms = 0;
};

struct State {
  std::map<std::string, Cached> by_target;
  bool timer_armed = false;
};

State& Get() {
  static State* state = new State;  // never destroyed: outlives any server
  return *state;
}

void CloseIdle(int64_t now) {
  State& s = Get();
  for (auto it = s.by_target.begin(); it != s.by_target.end();) {
    if (now - it->second.last_use_ms > MigrateCache::kIdleMs) {
      it = s.by_target.erase(it);
    } else {
      ++it;
    }
  }
}

// Once a second while anything is cached, as Redis's cron.
void ArmTimer(EventLoop& loop) {
  State& s = Get();
  if (s.timer_armed) return;
  s.timer_armed = true;
  loop.AddTimer(1000, [&loop] {
    Get().timer_armed = false;
    CloseIdle(MonoMs());
    if (!Get().by_target.empty()) ArmTimer(loop);
  });
}

}  // namespace

std::unique_ptr<SyncConnection> MigrateCache::Take(const std::string& target) {
  State& s = Get();
  CloseIdle(MonoMs());
  auto it = s.by_target.find(target);
  if (it == s.by_target.end()) return nullptr;
  std::unique_ptr<SyncConnection> conn = std::move(it->second.conn);
  s.by_target.erase(it);
  return conn;
}

void MigrateCache::Put(EventLoop& loop, const std::string& target,
                       std::unique_ptr<SyncConnection> conn) {
  State& s = Get();
  if (s.by_target.size() >= kMaxSockets && !s.by_target.count(target)) {
    auto oldest = s.by_target.begin();
    for (auto it = s.by_target.begin(); it != s.by_target.end(); ++it) {
      if (it->second.last_use_ms < oldest->second.last_use_ms) oldest = it;
    }
    s.by_target.erase(oldest);
  }
  s.by_target[target] = Cached{std::move(conn), MonoMs()};
  ArmTimer(loop);
}

size_t MigrateCache::Count() { return Get().by_target.size(); }

}  // namespace rankd
