// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/evict.h"

#include <cmath>
#include <string>

#include "base/clock.h"
#include "base/memory.h"
#include "server/effect_targets.h"
#include "server/notify.h"
#include "server/repl_buffers.h"
#include "server/server.h"

namespace rankd {
namespace {

// What the last EvictOne's deletion alone freed. As Redis performEvictions,
// eviction counts only that: the signals after it (tracking invalidations
// queued to clients, the DEL for replicas) may grow memory again, and
// counting them would evict on and on (a feedback loop draining the
// database). Kept here rather than returned so evict.h (in server.h) stays.
int64_t g_freed_by_delete = 0;

}  // namespace

EvictPolicy ParseEvictPolicy(std::string_view name) {
  if (name == "allkeys-lru") return EvictPolicy::kAllKeysLru;
  if (name == "volatile-lru") return EvictPolicy::kVolatileLru;
  if (name == "allkeys-lfu") return EvictPolicy::kAllKeysLfu;
  if (name == "volatile-lfu") return EvictPolicy::kVolatileLfu;
  if (name == "volatile-ttl") return EvictPolicy::kVolatileTtl;
  if (name == "allkeys-random") return EvictPolicy::kAllKeysRandom;
  if (name == "volatile-random") return EvictPolicy::kVolatileRandom;
  return EvictPolicy::kNoEviction;
}

uint64_t Evictor::TimeLimitUs() const {
  // Redis evictionTimeLimitUs: 50 us per unit up to 10, then growing 15%
  // per unit; 100 means no limit.
  const int64_t tenacity = server_->config().maxmemory_eviction_tenacity;
  if (tenacity <= 10) return 50 * static_cast<uint64_t>(tenacity);
  if (tenacity < 100) return static_cast<uint64_t>(500.0 * std::pow(1.15, tenacity - 10.0));
  return UINT64_MAX;
}

int64_t Evictor::UsedMemory() {
  // Values the lazy freer holds are on their way out: not counted. Its
  // thread's frees are invisible to AllocatedBytesFast until a fresh
  // reading, taken whenever it has released a batch; the two figures are
  // read inside one even generation so that they agree (lazy_free.h).
  const LazyFreer& lazy = server_->lazy_free();
  for (;;) {
    const uint64_t g = lazy.done_generation();
    if (g & 1) continue;  // a batch's bytes are leaving pending_bytes(): one atomic op
    if (g != lazy_seen_) {
      lazy_seen_ = g;
      AllocatedBytes();
    }
    // Replicas' unsent stream is not counted, as Redis 7.0 (repl_buffers.h).
    const int64_t used = static_cast<int64_t>(AllocatedBytesFast()) -
                         static_cast<int64_t>(lazy.pending_bytes()) - ReplicaBufferBytes(*server_);
    if (lazy.done_generation() == g) return used;
  }
}

Evictor::Result Evictor::Perform() {
  const Config& cfg = server_->config();
  if (cfg.maxmemory <= 0) return Result::kOk;
  // As Redis isSafeToPerformEvictions: a replica is its primary's copy
  // (replica-ignore-maxmemory), and while clients are paused the dataset
  // stays still; neither evicts nor refuses with -OOM.
  if (cfg.replica_ignore_maxmemory && server_->replication().is_replica()) return Result::kOk;
  if (server_->pause_mode() != Server::PauseMode::kNone) return Result::kOk;
  const int64_t used = UsedMemory();
  if (used <= cfg.maxmemory) return Result::kOk;
  if (policy_ == EvictPolicy::kNoEviction) return Result::kFail;

  const int64_t to_free = used - cfg.maxmemory;
  int64_t freed = 0;
  const uint64_t limit_us = TimeLimitUs();
  const uint64_t start = CycleNow();
  uint64_t keys = 0;
  while (freed < to_free) {
    if (!EvictOne()) return Result::kFail;
    freed += g_freed_by_delete;
    if (++keys % 16 == 0 && static_cast<uint64_t>(CyclesToUs(CycleNow() - start)) > limit_us) {
      if (timer_ == 0) {
        timer_ = server_->loop().AddTimer(0, [this] {
          timer_ = 0;
          Perform();  // re-arms itself while still over the limit
        });
      }
      return Result::kRunning;
    }
  }
  return timer_ != 0 ? Result::kRunning : Result::kOk;
}

bool Evictor::EvictOne() {
  using P = EvictPolicy;
  const bool volatile_only = policy_ == P::kVolatileLru || policy_ == P::kVolatileLfu ||
                             policy_ == P::kVolatileTtl || policy_ == P::kVolatileRandom;
  const int dbs = server_->db_count();
  Database* best_db = nullptr;
  Database::Entry* best = nullptr;
  if (policy_ == P::kAllKeysRandom || policy_ == P::kVolatileRandom) {
    for (int i = 0; i < dbs && !best; i++) {
      Database& db = server_->db(next_db_);
      next_db_ = (next_db_ + 1) % dbs;
      best = volatile_only ? db.RandomVolatile() : db.Random();
      best_db = &db;
    }
  } else {
    // Higher score = better candidate.
    const bool lfu = policy_ == P::kAllKeysLfu || policy_ == P::kVolatileLfu;
    const bool ttl = policy_ == P::kVolatileTtl;
    int64_t best_score = INT64_MIN;
    const int64_t samples = server_->config().maxmemory_samples;
    for (int i = 0; i < dbs; i++) {
      Database& db = server_->db(i);
      if (volatile_only ? db.expires_size() == 0 : db.size() == 0) continue;
      for (int64_t s = 0; s < samples; s++) {
        Database::Entry* e = volatile_only ? db.RandomVolatile() : db.Random();
        if (!e) break;
        int64_t score = ttl   ? -db.ExpireMs(e)
                        : lfu ? 255 - db.LfuFrequency(e)
                              : Database::IdleMs(e);
        if (score > best_score) {
          best_score = score;
          best = e;
          best_db = &db;
        }
      }
    }
  }
  if (!best) return false;
  const std::string key(best->key());  // for the signals: the entry goes now
  const int64_t before = UsedMemory();
  best_db->DeleteEntry(best,
                       server_->config().lazyfree_lazy_eviction ? &server_->lazy_free() : nullptr);
  g_freed_by_delete = before - UsedMemory();
  // As Redis performEvictions: signalModifiedKey (WATCH fails, tracking
  // caches are invalidated; NOLOOP spares the client whose command caused
  // it, as server.current_client does in 7.0), the "evicted" event (class
  // e), and a DEL to the log and the replicas.
  best_db->Touch(key);
  evicted_++;
  server_->NotifyKeyspaceEvent(kNotifyEvicted, "evicted", key, best_db->index());
  std::string_view args[] = {"DEL", key};
  EffectTargetsScope all;  // not narrowed by a running script's redis.set_repl
  server_->EmitServerEffect(best_db->index(), args);
  return true;
}

}  // namespace rankd
