// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Huge pages for the big, densely used, randomly read parts of a large
// sorted set: its record arena and its member index (issue 16).
//
// Why: a ZSCORE, ZRANK or ZINCRBY on a 1M-member set reads 3-5 random
// lines out of ~40 MB. With 4 KiB pages each of those reads also misses
// the TLB (40 MB is ~10,000 pages; the second-level TLB holds ~2,000), and
// under virtualisation a page walk is itself several dependent loads. A
// 2 MiB page covers 512 times as much: the same 40 MB fits in ~20 TLB
// entries. bench/RESULTS.md has the measurements.
//
// How: AllocHuge allocates through malloc (so used_memory, maxmemory and
// the per-thread counters see it, as any other allocation), aligned to
// 2 MiB from that size up. Once the caller has filled the memory,
// AdviseHuge marks every whole 2 MiB page in it MADV_HUGEPAGE, and the
// kernel's khugepaged thread merges them into huge pages in the background
// (at its own pace: by default 16 MB per 10 s). Nothing waits on this
// thread: advising memory before it is touched would make the first touch
// of each 2 MiB fault in a whole huge page, which measured 7-12 ms per
// fault on this VM (zeroing plus compaction), a latency spike per 80,000
// inserts. A tail shorter than 2 MiB stays in 4 KiB pages; nothing is
// rounded up. This needs only the system-wide THP mode "madvise" (the
// Debian default) or "always"; with "never" the advice is ignored and the
// memory stays ordinary. FreeHuge withdraws the advice before the range
// goes back to the allocator, so no later small allocation there gets
// huge pages.
//
// Fork (BGSAVE, full sync): a write to a shared huge page copies only its
// 4 KiB page (Linux 5.8 and later split the mapping instead of copying
// 2 MiB; 12 us per split measured here), so fork costs what it did; the
// split range is 4 KiB pages again until khugepaged merges it back.

#pragma once

#include <cstddef>

namespace rankd {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// `bytes` (> 0) bytes aligned to 64, or to kHugePageBytes from that size
// up. Aborts when out of memory, as the containers using it do.
void* AllocHuge(size_t bytes);
// Advises huge pages for every whole 2 MiB page in [p, p + bytes). Call
// once the range is populated (see above). Advice only: a no-op where THP
// is unavailable.
void AdviseHuge(void* p, size_t bytes);
// Frees what AllocHuge(bytes) returned, given the same `bytes`. nullptr is
// a no-op.
void FreeHuge(void* p, size_t bytes);

}  // namespace rankd
