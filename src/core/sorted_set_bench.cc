// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SortedSet micro benchmarks at 1K / 100K / 1M elements (10M too with
// RANKD_BENCH_10M=1 in the environment), 16-byte members
// with uniformly random scores, Redis's default encoding limits.
//
//   Insert      build the set by ZADDing N new members (average over growth)
//   IncrBy      ZINCRBY of a random existing member by a random step
//   Score       ZSCORE of a random member
//   Rank        ZRANK of a random member
//   PickMember  what Score, Rank and IncrBy spend outside the set (choosing
//               and hashing a random member: ~1 miss at 1M, see below)
//   Top10       ZREVRANGE 0 9
//   Offset100K  ZRANGE at rank 100000 (or N/2 when smaller), 10 elements
//   Delete      ZREM of every member in random order (average over drain)
//   DramMiss    calibration, not a set operation: one dependent random load
//               (a pointer chase over 64-byte lines) in a buffer of about the
//               1M set's size (40 MB), so each op above reads as a count of
//               DRAM misses on the machine at hand (ns per op / this).
//
// bytes_per_elem is measured through the allocator (jemalloc's
// stats.allocated when linked, else glibc's mallinfo2) around building the
// set: everything the set allocates, counted at allocator size classes.

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

#include "core/member_index.h"
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

void BM_Insert(benchmark::State& state) {
  const size_t n = state.range(0);
  Data& data = *Get(n).data;
  for (auto _ : state) {
    auto set = std::make_unique<SortedSet>(kLimits);
    for (size_t i = 0; i < n; ++i) set->Add(data.member(i), data.scores[i], {}, kLimits);
    benchmark::DoNotOptimize(set->size());
    state.PauseTiming();  // destruction is not part of insertion
    set.reset();
    state.ResumeTiming();
  }
  PerOp(state, state.iterations() * n);
  Report(state, Get(n));
}

void BM_Delete(benchmark::State& state) {
  const size_t n = state.range(0);
  Data& data = *Get(n).data;
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937_64(7));
  for (auto _ : state) {
    state.PauseTiming();
    SortedSet set(kLimits);
    for (size_t i = 0; i < n; ++i) set.Add(data.member(i), data.scores[i], {}, kLimits);
    state.ResumeTiming();
    for (uint32_t i : order) benchmark::DoNotOptimize(set.Remove(data.member(i)));
  }
  PerOp(state, state.iterations() * n);
}

void BM_IncrBy(benchmark::State& state) {
  Fixture& f = Get(state.range(0));
  std::mt19937_64 rng(1);
  AddOptions incr;
  incr.incr = true;
  for (auto _ : state) {
    size_t i = rng() % f.data->size();
    double step = static_cast<double>(rng() % 2001) - 1000;
    benchmark::DoNotOptimize(f.set->Add(f.data->member(i), step, incr, kLimits));
  }
  PerOp(state, state.iterations());
}

void BM_Score(benchmark::State& state) {
  Fixture& f = Get(state.range(0));
  std::mt19937_64 rng(2);
  for (auto _ : state) benchmark::DoNotOptimize(f.set->Score(f.data->member(rng() % f.data->size())));
  PerOp(state, state.iterations());
}

void BM_Rank(benchmark::State& state) {
  Fixture& f = Get(state.range(0));
  std::mt19937_64 rng(3);
  for (auto _ : state) benchmark::DoNotOptimize(f.set->Rank(f.data->member(rng() % f.data->size())));
  PerOp(state, state.iterations());
  Report(state, f);
}

// The harness part of Score / Rank / IncrBy: picking a random member and
// hashing it. Its bytes are a random line of the benchmark's own 16 MB
// member buffer (at 1M), so this is about one miss that a server would not
// pay (its member arrives in the request just read); subtract it to read
// those ops in the set's own misses.
void BM_PickMember(benchmark::State& state) {
  Fixture& f = Get(state.range(0));
  std::mt19937_64 rng(3);
  for (auto _ : state) {
    benchmark::DoNotOptimize(MemberIndex::Hash(f.data->member(rng() % f.data->size())));
  }
  PerOp(state, state.iterations());
}

void RangeAt(benchmark::State& state, uint64_t start, bool reverse) {
  Fixture& f = Get(state.range(0));
  double sum = 0;
  for (auto _ : state) {
    f.set->ForEachInRankRange(start, start + 9, reverse,
                              [&](std::string_view m, double s) { sum += s + m.size(); });
  }
  benchmark::DoNotOptimize(sum);
  PerOp(state, state.iterations());
}

void BM_Top10(benchmark::State& state) { RangeAt(state, state.range(0) - 10, true); }

void BM_Offset100K(benchmark::State& state) {
  RangeAt(state, std::min<uint64_t>(100000, state.range(0) / 2), false);
}

// A random cycle (Sattolo) through the 64-byte lines of `bytes`, walked with
// each load's address taken from the previous load: ns per iteration is
// the latency of one DRAM miss (TLB misses included, as the set's own
// loads pay them: plain malloc, no huge pages asked for).
void BM_DramMiss(benchmark::State& state) {
  struct alignas(64) Line {
    Line* next;
  };
  const size_t lines = static_cast<size_t>(state.range(0)) << 20 >> 6;
  std::vector<Line> buf(lines);
  std::vector<uint32_t> order(lines);
  for (size_t i = 0; i < lines; ++i) order[i] = static_cast<uint32_t>(i);
  std::mt19937_64 rng(5);
  for (size_t i = lines - 1; i > 0; --i) std::swap(order[i], order[rng() % i]);
  for (size_t i = 0; i < lines; ++i) buf[order[i]].next = &buf[order[(i + 1) % lines]];
  Line* p = &buf[0];
  constexpr int kLoads = 256;
  for (auto _ : state) {
    for (int i = 0; i < kLoads; ++i) p = p->next;
    benchmark::DoNotOptimize(p);
  }
  PerOp(state, state.iterations() * kLoads);
}

#define RANKD_SIZES ->Arg(1000)->Arg(100000)->Arg(1000000)
BENCHMARK(BM_Insert) RANKD_SIZES->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_IncrBy) RANKD_SIZES;
BENCHMARK(BM_Score) RANKD_SIZES;
BENCHMARK(BM_Rank) RANKD_SIZES;
BENCHMARK(BM_PickMember) RANKD_SIZES;
BENCHMARK(BM_Top10) RANKD_SIZES;
BENCHMARK(BM_Offset100K) RANKD_SIZES;
BENCHMARK(BM_Delete) RANKD_SIZES->Unit(benchmark::kMillisecond)->Iterations(3);
// Buffer MiB: the 1M set's size (tree + index + records, ~38 MB), and the
// 100K set's (~4 MB, mostly cache-resident) for reading those rows.
BENCHMARK(BM_DramMiss)->Arg(4)->Arg(40);
#undef RANKD_SIZES

}  // namespace
}  // namespace rankd

// 10M elements only with RANKD_BENCH_10M=1 in the environment (it needs
// ~1.5 GB and a minute): the default run stays short.
int main(int argc, char** argv) {
  using namespace rankd;
  if (const char* e = std::getenv("RANKD_BENCH_10M"); e != nullptr && e[0] == '1') {
    benchmark::RegisterBenchmark("BM_Insert", BM_Insert)
        ->Arg(10000000)->Unit(benchmark::kMillisecond)->Iterations(1);
    using Fn = void (*)(benchmark::State&);
    const std::pair<const char*, Fn> kReads[] = {
        {"BM_IncrBy", BM_IncrBy}, {"BM_Rank", BM_Rank}, {"BM_Top10", BM_Top10},
        {"BM_Offset100K", BM_Offset100K}};
    for (auto [name, fn] : kReads) benchmark::RegisterBenchmark(name, fn)->Arg(10000000);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
