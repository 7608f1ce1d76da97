// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Evictor: maxmemory, as Redis 7.0's performEvictions. Before each command
// (and from CONFIG SET maxmemory) the server asks Perform(); while used
// memory (the allocator's own counters, base/memory.h) is above maxmemory,
// keys are evicted by maxmemory-policy until it is not:
//
//   allkeys-lru / volatile-lru   the longest idle of the sampled keys
//   allkeys-lfu / volatile-lfu   the least frequently used (db/lfu.h)
//   volatile-ttl                 the nearest deadline
//   allkeys-random / volatile-random
//   noeviction                   nothing: deny-oom commands get -OOM
//
// Each pick samples maxmemory-samples keys of every database (volatile-*:
// keys with a deadline only). Eviction has a time budget derived from
// maxmemory-eviction-tenacity (Redis evictionTimeLimitUs: 500 us at the
// default 10); past it, the rest continues as an event-loop timer so one
// command never stalls the server, and commands meanwhile run (kRunning).
// An evicted key touches WATCHers and tracking caches, publishes the
// "evicted" keyspace event, and is a DEL in the append-only log and to the
// replicas. With lazyfree-lazy-eviction a large evicted value is freed on
// the lazy freer's thread (db/lazy_free.h); its estimated bytes count as
// freed at once, so eviction does not overshoot while the thread works.

#pragma once

#include <cstdint>
#include <string_view>

namespace rankd {

class Server;

// maxmemory-policy, parsed once when the configuration changes.
enum class EvictPolicy : uint8_t {
  kNoEviction,
  kAllKeysLru,
  kVolatileLru,
  kAllKeysLfu,
  kVolatileLfu,
  kVolatileTtl,
  kAllKeysRandom,
  kVolatileRandom,
};
// The policy named `name` (a valid maxmemory-policy value); noeviction for
// anything else.
EvictPolicy ParseEvictPolicy(std::string_view name);

class Evictor {
 public:
  explicit Evictor(Server* server) : server_(server) {}
  Evictor(const Evictor&) = delete;
  Evictor& operator=(const Evictor&) = delete;

  enum class Result {
    kOk,       // under the limit (or no limit)
    kRunning,  // over it, and evicting across event-loop iterations
    kFail,     // over it, and nothing (more) can be evicted
  };
  Result Perform();
  // Set by the server from maxmemory-policy whenever the config changes.
  void set_policy(EvictPolicy p) { policy_ = p; }

  // Keys evicted since start (INFO evicted_keys).
  uint64_t evicted_keys() const { return evicted_; }
  void reset_stats() { evicted_ = 0; }

 private:
  // Evicts one key chosen by the policy; false when there is no candidate.
  bool EvictOne();
  // The memory eviction counts: allocated bytes less what the lazy freer
  // still holds (taken consistently while its thread frees).
  int64_t UsedMemory();
  uint64_t TimeLimitUs() const;

  Server* const server_;
  EvictPolicy policy_ = EvictPolicy::kNoEviction;
  uint64_t timer_ = 0;  // the continuation timer while evicting in steps
  uint64_t evicted_ = 0;
  int next_db_ = 0;  // random policies walk the databases in turn
  uint64_t lazy_seen_ = 0;  // the lazy freer's done_generation() last read
};

}  // namespace rankd
