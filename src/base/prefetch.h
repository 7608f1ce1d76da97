// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Prefetching that overlaps on a virtual machine: group prefetching across
// a pipeline (net/connection.cc) collects the loads a group of commands
// will need and issues them together.
//
// Why not plain software prefetches: on the development machine (an AMD
// EPYC guest) a random read costs ~190 ns, most of it a nested page walk,
// and a PREFETCH whose walk is still running when other loads miss is
// dropped. Measured at pipeline 16 (rdtsc around the load, ZSCORE on a 1M
// set): the index slot line that step 0 prefetched eight commands earlier
// still took ~600 cycles to read at step 1 for 98% of commands, with
// PREFETCHT0, T2, NTA and W alike; and a fence after each prefetch, which
// keeps it, only moved the wait into the fence (walks then run one at a
// time). Demand loads do overlap, walks included: eight independent loads
// in a tight loop cost 33 ns each instead of 188 (32 MB, random lines).
// So while a batch is open, Prefetch() only records the address, and
// Flush() reads one byte of each in a tight loop: the group's misses are
// paid once, together, and the commands then run on cached lines.
//
// REQUIRES of every caller: `p` points into live, mapped memory, because
// inside a batch it is read (plain prefetches never fault; loads do).

#pragma once

#include <cstddef>
#include <cstdint>

namespace rankd {

class PrefetchBatch {
 public:
  static constexpr size_t kMaxLoads = 64;

  // While open, Prefetch() calls on this thread are collected (up to
  // kMaxLoads; beyond that they are plain prefetches). Not nestable.
  static void Open() {
    State& s = state();
    s.open = true;
    s.n = 0;
  }
  // Reads every collected address (one byte each, independent loads, so
  // their misses overlap), then issues the collected PrefetchNear hints
  // (their pages' translations are then cached, so they are not dropped),
  // and closes the batch. Returns when all the loads arrived.
  static void Flush() {
    State& s = state();
    uint8_t acc = 0;
    for (size_t i = 0; i < s.n; i++) acc ^= *static_cast<const volatile uint8_t*>(s.loads[i]);
    asm volatile("" : : "r"(acc));
    for (size_t i = 0; i < s.n_near; i++) __builtin_prefetch(s.near[i]);
    s.n = s.n_near = 0;
    s.open = false;
  }
  // Loads collected and not yet flushed (0 outside a batch).
  static size_t pending() { return state().n; }

  // Prefetch() and PrefetchNear() below.
  static void Add(const void* p) { Collect(p, state().loads, &state().n); }
  static void AddNear(const void* p) { Collect(p, state().near, &state().n_near); }

 private:
  // Into `list` while a batch is open and has room, else a plain prefetch.
  static void Collect(const void* p, const void** list, size_t* n) {
    if (state().open && *n < kMaxLoads) {
      list[(*n)++] = p;
    } else {
      __builtin_prefetch(p);
    }
  }

  struct State {
    const void* loads[kMaxLoads];
    const void* near[kMaxLoads];
    size_t n = 0, n_near = 0;
    bool open = false;
  };
  static State& state() {
    static thread_local State s;
    return s;
  }
};

// Starts loading the cache line holding `p`; inside an open PrefetchBatch,
// adds it to the batch instead. REQUIRES: p is live, mapped memory.
inline void Prefetch(const void* p) { PrefetchBatch::Add(p); }
// A line near one passed to Prefetch (e.g. the rest of a record that may
// cross a line): always a plain prefetch, so `p` may be past the end of
// mapped memory; inside a batch it is issued after the batch's loads.
inline void PrefetchNear(const void* p) { PrefetchBatch::AddNear(p); }

}  // namespace rankd
