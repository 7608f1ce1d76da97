// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/memory.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>

// Present only when jemalloc is linked (weak: null otherwise).
extern "C" int mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp,
                       size_t newlen) __attribute__((weak));

// Present only in sanitizer builds, whose allocator mallinfo2 cannot see.
extern "C" size_t __sanitizer_get_current_allocated_bytes() __attribute__((weak));

namespace rankd {

size_t AllocatedBytes() {
  if (mallctl) {
    uint64_t epoch = 1;
    size_t len = sizeof(epoch);
    mallctl("epoch", &epoch, &len, &epoch, len);
    size_t allocated = 0;
    len = sizeof(allocated);
    if (mallctl("stats.allocated", &allocated, &len, nullptr, 0) == 0) return allocated;
  }
  if (__sanitizer_get_current_allocated_bytes) return __sanitizer_get_current_allocated_bytes();
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
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
