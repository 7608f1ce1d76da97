// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/huge_pages.h"

#include <sys/mman.h>

#include <cassert>
#include <cstdint>
#include <cstdlib>

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
  if (len > 0) madvise(start, len, MADV_HUGEPAGE);
}

void FreeHuge(void* p, size_t bytes) {
  if (p == nullptr) return;
  char* start;
  size_t len;
  WholePages(p, bytes, &start, &len);
  if (len > 0) madvise(start, len, MADV_NOHUGEPAGE);
  std::free(p);
}

}  // namespace rankd
