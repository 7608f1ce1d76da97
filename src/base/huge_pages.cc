// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/huge_pages.h"

#include <sys/mman.h>

#include <cassert>
#include <cstdlib>

namespace rankd {

void* AllocHuge(size_t bytes) {
  assert(bytes > 0);
  const bool huge = bytes >= kHugePageBytes;
  void* p = nullptr;
  if (posix_memalign(&p, huge ? kHugePageBytes : 64, bytes) != 0) std::abort();
  // Advice only: where THP is off it fails or is ignored, leaving 4 KiB pages.
  if (huge) madvise(p, bytes / kHugePageBytes * kHugePageBytes, MADV_HUGEPAGE);
  return p;
}

void FreeHuge(void* p, size_t bytes) {
  if (p == nullptr) return;
  if (bytes >= kHugePageBytes) madvise(p, bytes / kHugePageBytes * kHugePageBytes, MADV_NOHUGEPAGE);
  std::free(p);
}

}  // namespace rankd
