// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The fixture of the sorted-set micro benchmarks (core/sorted_set_bench.cc):
// the members and scores, one prebuilt set per size (its allocated bytes
// per element measured while it is built, and its huge pages settled), and
// the per-operation counters. Included by that one file only.

#pragma once

#include <benchmark/benchmark.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/sorted_set.h"

extern "C" int mallctl(const char*, void*, size_t*, void*, size_t) __attribute__((weak));

namespace rankd {
namespace {

// Bytes currently allocated through malloc.
size_t AllocatedBytes() {
  if (mallctl != nullptr) {
    // Objects cached per thread count as allocated; flush them first.
    mallctl("thread.tcache.flush", nullptr, nullptr, nullptr, 0);
    uint64_t epoch = 1;
    size_t sz = sizeof(epoch);
    mallctl("epoch", &epoch, &sz, &epoch, sz);
    size_t allocated = 0;
    sz = sizeof(allocated);
    if (mallctl("stats.allocated", &allocated, &sz, nullptr, 0) == 0) return allocated;
  }
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

// N random 16-byte members (hex of a 64-bit value) in one buffer, and
// random scores.
struct Data {
  explicit Data(size_t n) : bytes(n * 16, '\0'), scores(n) {
    std::mt19937_64 rng(42 + n);
    for (size_t i = 0; i < n; ++i) {
      std::snprintf(&bytes[i * 16], 17, "%016" PRIx64, rng());
      scores[i] = std::uniform_real_distribution<double>(0, 1e6)(rng);
    }
    bytes.resize(n * 16);
  }
  std::string_view member(size_t i) const { return {bytes.data() + i * 16, 16}; }
  size_t size() const { return scores.size(); }
  std::string bytes;
  std::vector<double> scores;
};

const SortedSetLimits kLimits;

// Bytes of this process's memory in transparent huge pages.
size_t HugeBytes() {
  FILE* f = std::fopen("/proc/self/smaps_rollup", "r");
  if (f == nullptr) return 0;
  char line[256];
  size_t kb = 0;
  while (std::fgets(line, sizeof line, f)) {
    if (std::sscanf(line, "AnonHugePages: %zu kB", &kb) == 1) break;
  }
  std::fclose(f);
  return kb << 10;
}

// A long-lived set's memory: the arena and index ask for huge pages once
// filled and the kernel's khugepaged merges them in the background
// (base/huge_pages.h), ~20-30 s for a 1M set at its default pace. Waits
// until the huge-page total has not grown for longer than khugepaged's
// sleep between scans (at most 90 s), so that the 1M figures are those of
// a set that has been there a while.
void SettleHugePages() {
  int sleep_ms = 10000;
  if (FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs", "r")) {
    if (std::fscanf(f, "%d", &sleep_ms) != 1) sleep_ms = 10000;
    std::fclose(f);
  }
  const int quiet_s = sleep_ms / 1000 + 3;
  size_t last = HugeBytes();
  for (int waited = 0, still = 0; waited < 90 && still < quiet_s; ++waited) {
    sleep(1);
    const size_t now = HugeBytes();
    still = now == last ? still + 1 : 0;
    last = now;
  }
}

struct Fixture {
  std::unique_ptr<Data> data;
  std::unique_ptr<SortedSet> set;
  double bytes_per_elem = 0;
};

// One prebuilt set per size, shared by the read and update benchmarks.
Fixture& Get(size_t n) {
  static std::map<size_t, Fixture> cache;
  Fixture& f = cache[n];
  if (!f.set) {
    f.data = std::make_unique<Data>(n);
    size_t before = AllocatedBytes();
    f.set = std::make_unique<SortedSet>(kLimits);
    for (size_t i = 0; i < n; ++i) f.set->Add(f.data->member(i), f.data->scores[i], {}, kLimits);
    f.bytes_per_elem = static_cast<double>(AllocatedBytes() - before) / n;
    if (n >= 1000000) SettleHugePages();
  }
  return f;
}

// Time per operation, shown in seconds with SI prefix (e.g. "850n").
void PerOp(benchmark::State& state, uint64_t ops) {
  state.SetItemsProcessed(ops);
  state.counters["per_op"] =
      benchmark::Counter(static_cast<double>(ops), benchmark::Counter::kIsRate |
                                                       benchmark::Counter::kInvert);
}

void Report(benchmark::State& state, const Fixture& f) {
  state.counters["bytes_per_elem"] = f.bytes_per_elem;
  state.counters["huge_mb"] = static_cast<double>(HugeBytes() >> 20);
  state.counters["usage_per_elem"] =
      static_cast<double>(f.set->MemoryUsage()) / static_cast<double>(f.set->size());
}

}  // namespace
}  // namespace rankd
