// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/memory.h"

#include <malloc.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>

// Present only when jemalloc is linked (weak: null otherwise).
extern "C" int mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp,
                       size_t newlen) __attribute__((weak));

// Present only in sanitizer builds, whose allocator mallinfo2 cannot see.
extern "C" size_t __sanitizer_get_current_allocated_bytes() __attribute__((weak));

namespace rankd {

int Mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen) {
  if (!mallctl) return ENOSYS;
  return mallctl(name, oldp, oldlenp, newp, newlen);
}

namespace {

// AllocatedBytesFast's baseline: the last full reading and the calling
// thread's cumulative counters at that moment.
struct FastBaseline {
  uint64_t* allocated_p = nullptr;  // jemalloc thread.allocatedp
  uint64_t* deallocated_p = nullptr;
  size_t total = 0;
  uint64_t allocated = 0, deallocated = 0;
  bool ready = false;
};
thread_local FastBaseline g_fast;

void ResetBaseline(size_t total) {
  FastBaseline& b = g_fast;
  if (!b.ready) {
    size_t len = sizeof(b.allocated_p);
    if (mallctl("thread.allocatedp", &b.allocated_p, &len, nullptr, 0) != 0) b.allocated_p = nullptr;
    len = sizeof(b.deallocated_p);
    if (mallctl("thread.deallocatedp", &b.deallocated_p, &len, nullptr, 0) != 0) {
      b.deallocated_p = nullptr;
    }
    b.ready = true;
  }
  b.total = total;
  if (b.allocated_p && b.deallocated_p) {
    b.allocated = *b.allocated_p;
    b.deallocated = *b.deallocated_p;
  }
}

}  // namespace

size_t AllocatedBytes() {
  if (mallctl) {
    uint64_t epoch = 1;
    size_t len = sizeof(epoch);
    mallctl("epoch", &epoch, &len, &epoch, len);
    size_t allocated = 0;
    len = sizeof(allocated);
    if (mallctl("stats.allocated", &allocated, &len, nullptr, 0) == 0) {
      // Freed blocks a thread cache keeps for reuse still count as
      // allocated there (hundreds of KB, moving by tens at a time): they
      // are not the application's, and per-thread counters (Fast below)
      // never saw them. Arena 4096 is jemalloc's "all arenas".
      size_t cached = 0;
      len = sizeof(cached);
      if (mallctl("stats.arenas.4096.tcache_bytes", &cached, &len, nullptr, 0) == 0 &&
          cached < allocated) {
        allocated -= cached;
      }
      ResetBaseline(allocated);
      return allocated;
    }
  }
  if (__sanitizer_get_current_allocated_bytes) return __sanitizer_get_current_allocated_bytes();
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

size_t AllocatedBytesFast() {
  const FastBaseline& b = g_fast;
  if (!b.ready || !b.allocated_p || !b.deallocated_p) return AllocatedBytes();
  const int64_t delta = static_cast<int64_t>(*b.allocated_p - b.allocated) -
                        static_cast<int64_t>(*b.deallocated_p - b.deallocated);
  const int64_t total = static_cast<int64_t>(b.total) + delta;
  return total > 0 ? static_cast<size_t>(total) : 0;
}

void FlushThreadCache() {
  if (mallctl) mallctl("thread.tcache.flush", nullptr, nullptr, nullptr, 0);
}

size_t ResidentBytes() {
  FILE* f = fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  int n = fscanf(f, "%lu %lu", &size, &resident);
  fclose(f);
  return n == 2 ? resident * static_cast<size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

std::string_view AllocatorName() {
  if (mallctl) {
    const char* version = nullptr;
    size_t len = sizeof(version);
    if (mallctl("version", &version, &len, nullptr, 0) == 0 && version) {
      static char buf[64];
      snprintf(buf, sizeof(buf), "jemalloc-%.40s", version);
      return buf;
    }
  }
  return "libc";
}

}  // namespace rankd
