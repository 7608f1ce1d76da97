// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// LazyFreer: frees large values off the event loop, as Redis's lazyfree.c.
// Destroying a sorted set of millions of members takes as long as building
// it; UNLINK and eviction with `lazyfree-lazy-eviction yes` hand such values
// here instead, and a background thread destroys them. Values whose free
// effort (elements; 1 for a string) is at most kThreshold (Redis
// LAZYFREE_THRESHOLD, 64) are freed at once: queueing costs more.
//
// Memory: a value handed over still counts in used_memory until the thread
// has freed it (the allocator's own counters never lie). pending_bytes() is
// its estimate (twice Value::MemoryUsage at hand-over: an over-estimate on
// purpose; only for values eviction hands over) of what is about to be freed, so the evictor does not evict more keys for memory already on its
// way out; done_generation() changes after each batch is freed, so the event
// loop knows when to take a fresh allocator reading.
//
// FreeObjects takes anything else to destroy there (FLUSHALL ASYNC hands over
// a whole keyspace) and counts it as that many objects, as Redis's
// emptyDbAsync counts a database's keys.
//
// LazyFreePolicy says which deletions a database makes on its own go here
// (the server keeps it in step with the lazyfree-* configs).
//
// Thread-safety: Free() from the event-loop thread; the counters from any.

#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "db/value.h"

namespace rankd {

class LazyFreer {
 public:
  static constexpr size_t kThreshold = 64;

  LazyFreer() = default;
  ~LazyFreer();  // frees what is still queued, then joins
  LazyFreer(const LazyFreer&) = delete;
  LazyFreer& operator=(const LazyFreer&) = delete;

  // Redis lazyfreeGetFreeEffort: a collection's size in its table encoding,
  // a list's chunks, 1 for a string or a compact (listpack, intset) value.
  static size_t FreeEffort(const Value& v);

  // Takes `v` and frees it: on the background thread if its effort passes
  // kThreshold (true), else at once (false).
  // `count_bytes`: estimate its size for pending_bytes() (eviction needs
  // it; the estimate walks a set or hash, O(n), so other callers skip it).
  bool Free(Value v, bool count_bytes = false);

  // Destroys `owner` on the background thread, counted as `objects` in
  // pending_objects() until then and in freed_objects() after (Redis
  // lazyfreeFreeDatabase). Always queued, even when small.
  void FreeObjects(std::shared_ptr<void> owner, size_t objects);

  // Blocks until everything handed over so far is freed (tests, shutdown).
  void Drain();

  uint64_t pending_objects() const { return pending_objects_.load(std::memory_order_relaxed); }
  uint64_t freed_objects() const { return freed_objects_.load(std::memory_order_relaxed); }
  // The bytes handed over and not yet freed (Free with count_bytes), and a
  // counter that is odd while a freed batch's bytes leave that sum. The
  // thread frees a batch, flushes its allocator cache (so the frees are in
  // a fresh AllocatedBytes()), then, inside an odd generation, subtracts
  // the batch's bytes: a reader that saw an even generation G, refreshed
  // its allocator reading after it, read pending_bytes() and then found G
  // again has two figures that agree (each freed batch counted out of
  // both, or out of neither). Evictor::UsedMemory does exactly that.
  uint64_t pending_bytes() const { return pending_bytes_.load(std::memory_order_acquire); }
  uint64_t done_generation() const { return done_generation_.load(std::memory_order_acquire); }

 private:
  struct Job {
    Value value;
    std::shared_ptr<void> owner;  // FreeObjects
    size_t bytes;
    size_t objects = 1;
  };
  void Enqueue(Job job);
  void Run();

  std::mutex mu_;
  std::condition_variable wake_, idle_;
  std::vector<Job> queue_;  // guarded by mu_
  bool stop_ = false;       // guarded by mu_
  bool busy_ = false;       // guarded by mu_: the thread holds a batch
  std::thread thread_;      // started by the first background Free
  std::atomic<uint64_t> pending_objects_{0}, pending_bytes_{0}, freed_objects_{0};
  std::atomic<uint64_t> done_generation_{0};
};

// Which deletions a database makes on its own are freed lazily: expired keys
// (lazyfree-lazy-expire) and implicit deletes and overwrites
// (lazyfree-lazy-server-del: RENAME, SET over a value, a STORE destination).
// `freer` nullptr: none.
struct LazyFreePolicy {
  LazyFreer* freer = nullptr;
  bool expire = false;
  bool server_del = false;
};

}  // namespace rankd
