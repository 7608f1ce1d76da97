// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Huge-page chunks for the big, densely used, randomly read parts of a
// large sorted set: its record arena and its member index (issue 16).
//
// Why: a ZSCORE, ZRANK or ZINCRBY on a 1M-member set reads 3-5 random
// lines out of ~40 MB. With 4 KiB pages each of those reads also misses
// the TLB (40 MB is ~10,000 pages; the second-level TLB holds ~2,000), and
// under virtualisation a page walk is itself several dependent loads. A
// 2 MiB page covers 512 times as much: the same 40 MB fits in ~20 TLB
// entries. bench/RESULTS.md has the measurements.
//
// How: AllocHuge allocates through malloc (so used_memory, maxmemory and
// the per-thread counters see it, as any other allocation). From 2 MiB up
// the block is aligned to 2 MiB and the kernel is asked for transparent
// huge pages on every whole 2 MiB page in it (madvise MADV_HUGEPAGE); a
// tail shorter than that stays in 4 KiB pages, so nothing is rounded up.
// This does not need the system-wide THP mode "always": "madvise", the
// Debian default, is enough; with "never" the advice is ignored and the
// memory is ordinary. FreeHuge withdraws the advice before the range goes
// back to the allocator, so no later small allocation there gets huge
// pages.
//
// Only memory that fills completely and is read at random should come from
// here: a huge page is resident as a whole. After a fork (BGSAVE, a full
// sync), a write to a shared huge page copies only its 4 KiB page (Linux
// 5.8 and later split the mapping instead of copying 2 MiB), so fork costs
// what it did; the split range is 4 KiB pages again until the kernel's
// khugepaged merges it back.

#pragma once

#include <cstddef>

namespace rankd {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// `bytes` (> 0) bytes aligned to 64, or to kHugePageBytes from that size up
// (see above). Aborts when out of memory, as the containers using it do.
void* AllocHuge(size_t bytes);
// Frees what AllocHuge(bytes) returned, given the same `bytes`. nullptr is
// a no-op.
void FreeHuge(void* p, size_t bytes);

}  // namespace rankd
