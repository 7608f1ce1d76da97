// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "db/lazy_free.h"

#include <utility>

#include "base/memory.h"
#include "core/hash.h"
#include "core/plain_set.h"
#include "core/quick_list.h"
#include "core/sorted_set.h"

namespace rankd {

LazyFreer::~LazyFreer() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  queue_.clear();
}

size_t LazyFreer::FreeEffort(const Value& v) {
  // Redis lazyfreeGetFreeEffort: a compact encoding (listpack, intset) is
  // one allocation; a list counts its chunks (quicklist nodes).
  const std::string_view enc = v.EncodingName();
  if (enc == "listpack" || enc == "intset" || enc == "embstr" || enc == "int" || enc == "raw") {
    return 1;
  }
  switch (v.type()) {
    case ValueType::kString:
      return 1;
    case ValueType::kZSet:
      return v.zset().size();
    case ValueType::kSet:
      return v.set().size();
    case ValueType::kHash:
      return v.hash().size();
    case ValueType::kList:
      return v.list().chunk_count();
    case ValueType::kStream: {  // as Redis: nodes, then each group and its PEL
      size_t n = v.stream().node_count();
      for (const auto& [name, g] : v.stream().groups()) n += 1 + g.pel.size();
      return n;
    }
  }
  return 1;
}

bool LazyFreer::Free(Value v, bool count_bytes) {
  if (FreeEffort(v) <= kThreshold) return false;  // `v` dies here, at once
  // MemoryUsage leaves out allocator overhead (a 20,000-member sorted set
  // reports ~60% of what freeing it returns): doubled, the estimate errs
  // high, which only delays further eviction until the batch is freed and a
  // fresh reading is taken; erring low would evict keys for nothing.
  const size_t bytes = count_bytes ? 2 * v.MemoryUsage() : 0;
  Enqueue(Job{std::move(v), nullptr, bytes, 1});
  return true;
}

void LazyFreer::FreeObjects(std::shared_ptr<void> owner, size_t objects) {
  Enqueue(Job{Value(), std::move(owner), 0, objects});
}

void LazyFreer::Enqueue(Job job) {
  pending_objects_.fetch_add(job.objects, std::memory_order_relaxed);
  pending_bytes_.fetch_add(job.bytes, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(job));
    if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
  }
  wake_.notify_one();
}

void LazyFreer::Drain() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

void LazyFreer::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stop_, nothing left
    std::vector<Job> batch;
    batch.swap(queue_);
    busy_ = true;
    lock.unlock();
    size_t bytes = 0;
    for (Job& job : batch) {
      bytes += job.bytes;
      job.value = Value();  // the slow part: destroys the collection
      job.owner.reset();    // or the keyspace
      freed_objects_.fetch_add(job.objects, std::memory_order_relaxed);
      pending_objects_.fetch_sub(job.objects, std::memory_order_relaxed);
    }
    batch.clear();
    FlushThreadCache();  // hand this thread's cached frees back to the allocator
    // The batch's bytes leave pending_bytes() only now that its frees are in
    // the allocator's totals, inside an odd generation (see the header).
    done_generation_.fetch_add(1, std::memory_order_acq_rel);
    pending_bytes_.fetch_sub(bytes, std::memory_order_acq_rel);
    done_generation_.fetch_add(1, std::memory_order_release);
    lock.lock();
    busy_ = false;
    if (queue_.empty()) idle_.notify_all();
  }
}

}  // namespace rankd
