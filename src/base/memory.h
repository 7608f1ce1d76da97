// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Process memory figures for INFO memory and MEMORY USAGE: bytes currently
// allocated through malloc (jemalloc's stats.allocated when jemalloc is
// linked, glibc's mallinfo2 otherwise) and the resident set size.

#pragma once

#include <cstddef>
#include <string_view>

namespace rankd {

// Bytes handed out by the allocator and not yet freed (with jemalloc: its
// stats.allocated less the freed blocks its thread caches keep for reuse).
size_t AllocatedBytes();
// The same figure for hot paths (the maxmemory check before each command):
// O(1) with jemalloc, as the last AllocatedBytes() reading plus what the
// calling thread allocated minus freed since (jemalloc's per-thread
// counters). Allocations by other threads show up at the next
// AllocatedBytes() call, which the server makes from its cron. Without
// jemalloc it is AllocatedBytes().
size_t AllocatedBytesFast();

// Returns the calling thread's cached frees to the allocator (jemalloc
// thread.tcache.flush), so that a thread which frees much (db/lazy_free.h)
// does not keep it; a no-op without jemalloc.
void FlushThreadCache();

// Resident set size of the process, from /proc/self/statm.
size_t ResidentBytes();
// "jemalloc-<version>" or "libc".
std::string_view AllocatorName();

// jemalloc's mallctl (DEBUG MALLCTL): reads and/or writes the control
// `name`, as jemalloc documents. Returns 0 or an errno value; ENOSYS when
// rankd is not linked with jemalloc.
int Mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen);

}  // namespace rankd
