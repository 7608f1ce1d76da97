// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/huge_pages.h"

#include <sys/mman.h>

#include <pthread.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25  // Linux 6.1
#endif

namespace rankd {

namespace {

// The whole huge pages inside [p, p + bytes): their start and length.
void WholePages(void* p, size_t bytes, char** start, size_t* len) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  const uintptr_t lo = (a + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  const uintptr_t hi = (a + bytes) / kHugePageBytes * kHugePageBytes;
  *start = reinterpret_cast<char*>(lo);
  *len = hi > lo ? hi - lo : 0;
}

// One background thread asks the kernel to merge advised ranges now
// (MADV_COLLAPSE, synchronous for the caller), one 2 MiB page at a time, so a
// big set gets its huge pages within seconds of being filled instead of at
// khugepaged's pace (16 MB per 10 s by default: 40 minutes for the 4 GB of a
// 10^8-member board). The server thread never waits for it except in
// FreeHuge, for at most the one page being merged inside the range freed.
class Collapser {
 public:
  static Collapser& Get() {
    static Collapser* c = new Collapser;  // never destroyed: the thread is detached
    return *c;
  }
  void Add(char* start, size_t len) {
    std::lock_guard lock(mu_);
    if (disabled_) return;
    if (!started_) {
      started_ = true;
      std::thread([this] { Run(); }).detach();
    }
    queue_.emplace_back(start, len);
    cv_.notify_all();
  }
  // Drops queued work inside [start, start + len) and waits out a merge there.
  void Forget(char* start, size_t len) {
    std::unique_lock lock(mu_);
    std::erase_if(queue_, [&](const auto& r) { return Overlap(r.first, r.second, start, len); });
    while (busy_ != nullptr && Overlap(busy_, kHugePageBytes, start, len)) done_.wait(lock);
  }

 private:
  Collapser() {
    pthread_atfork([] { Get().mu_.lock(); }, [] { Get().mu_.unlock(); },
                   [] {  // the child has no collapse thread: nothing more to merge
                     Collapser& c = Get();
                     c.queue_.clear();
                     c.busy_ = nullptr;
                     c.disabled_ = true;
                     c.mu_.unlock();
                   });
  }
  static bool Overlap(const char* a, size_t alen, const char* b, size_t blen) {
    return a < b + blen && b < a + alen;
  }
  void Run() {
    std::unique_lock lock(mu_);
    for (;;) {
      cv_.wait(lock, [this] { return !queue_.empty(); });
      auto& [start, len] = queue_.front();
      busy_ = start;
      start += kHugePageBytes;
      len -= kHugePageBytes;
      if (len == 0) queue_.pop_front();
      lock.unlock();
      const bool ok = madvise(busy_, kHugePageBytes, MADV_COLLAPSE) == 0 || errno != EINVAL;
      lock.lock();
      busy_ = nullptr;
      if (!ok) {  // a kernel without MADV_COLLAPSE: khugepaged alone, as before
        disabled_ = true;
        queue_.clear();
      }
      done_.notify_all();
    }
  }
  std::mutex mu_;
  std::condition_variable cv_, done_;
  std::deque<std::pair<char*, size_t>> queue_;  // whole huge pages still to merge
  char* busy_ = nullptr;                        // the page being merged
  bool started_ = false, disabled_ = false;
};

}  // namespace

void* AllocHuge(size_t bytes) {
  assert(bytes > 0);
  void* p = nullptr;
  if (posix_memalign(&p, bytes >= kHugePageBytes ? kHugePageBytes : 64, bytes) != 0) std::abort();
  return p;
}

void AdviseHuge(void* p, size_t bytes) {
  char* start;
  size_t len;
  WholePages(p, bytes, &start, &len);
  if (len == 0) return;
  madvise(start, len, MADV_HUGEPAGE);
  Collapser::Get().Add(start, len);
}

void FreeHuge(void* p, size_t bytes) {
  if (p == nullptr) return;
  char* start;
  size_t len;
  WholePages(p, bytes, &start, &len);
  if (len > 0) {
    Collapser::Get().Forget(start, len);
    madvise(start, len, MADV_NOHUGEPAGE);
  }
  std::free(p);
}

}  // namespace rankd
