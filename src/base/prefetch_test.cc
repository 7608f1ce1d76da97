// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/prefetch.h"

#include <sys/mman.h>
#include <unistd.h>

#include <vector>

#include "gtest/gtest.h"

namespace rankd {
namespace {

TEST(PrefetchBatchTest, CollectsOnlyWhileOpen) {
  std::vector<char> data(4096, 1);
  Prefetch(data.data());  // no batch: a plain prefetch
  EXPECT_EQ(PrefetchBatch::pending(), 0u);
  PrefetchBatch::Open();
  Prefetch(data.data());
  Prefetch(data.data() + 100);
  EXPECT_EQ(PrefetchBatch::pending(), 2u);
  PrefetchBatch::Flush();
  EXPECT_EQ(PrefetchBatch::pending(), 0u);
  Prefetch(data.data());  // closed again
  EXPECT_EQ(PrefetchBatch::pending(), 0u);
}

TEST(PrefetchBatchTest, OverflowFallsBackToPlainPrefetches) {
  std::vector<char> data(64 * (PrefetchBatch::kMaxLoads + 10), 1);
  PrefetchBatch::Open();
  for (size_t i = 0; i < PrefetchBatch::kMaxLoads + 10; i++) Prefetch(data.data() + 64 * i);
  EXPECT_EQ(PrefetchBatch::pending(), PrefetchBatch::kMaxLoads);
  PrefetchBatch::Flush();
  EXPECT_EQ(PrefetchBatch::pending(), 0u);
}

// PrefetchNear may name memory past the end of a mapping (the rest of a
// record that might cross a line): it must never be read, even in a batch.
TEST(PrefetchBatchTest, NearAddressesAreNeverLoaded) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  char* p = static_cast<char*>(
      mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(p, MAP_FAILED);
  ASSERT_EQ(mprotect(p + page, page, PROT_NONE), 0);  // a read there faults
  p[page - 1] = 7;
  PrefetchBatch::Open();
  Prefetch(p + page - 1);
  PrefetchNear(p + page);
  EXPECT_EQ(PrefetchBatch::pending(), 1u);
  PrefetchBatch::Flush();  // reads p + page - 1 only
  PrefetchNear(p + page);  // and outside a batch
  munmap(p, 2 * page);
}

}  // namespace
}  // namespace rankd
