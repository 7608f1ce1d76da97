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
//   ScoreGroup, RankGroup, IncrByGroup
//               the same at 1M as a server's pipeline runs them: members
//               read front to back from a request buffer (no harness miss),
//               in groups of 8; second argument 0 one after another, 2 with
//               the server's look-ahead (net/connection.cc: every member's
//               index slot loaded together, then the records they name)
//   DramMiss    calibration, not a set operation: one dependent random load
//               (a pointer chase over 64-byte lines) in a buffer of about the
//               1M set's size (40 MB), so each op above reads as a count of
//               DRAM misses on the machine at hand (ns per op / this); second
//               argument 1 in huge pages, as a big set's arena and index are.
//
// bytes_per_elem is measured through the allocator (jemalloc's
// stats.allocated when linked, else glibc's mallinfo2) around building the
// set: everything the set allocates, counted at allocator size classes.

#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/prefetch.h"
#include "core/member_index.h"
#include "core/sorted_set.h"
#include "core/sorted_set_bench_fixture.h"

namespace rankd {
namespace {

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

// What a server's pipeline hands the set: member copies in one buffer, in
// the order they are asked for (random members of the set), read front to
// back. Unlike f.data->member(rng() % n) this costs no miss of its own.
struct Requests {
  Requests(const Data& data, size_t count, uint64_t seed) : bytes(count * 16, '\0') {
    std::mt19937_64 rng(seed);
    for (size_t i = 0; i < count; ++i) {
      const std::string_view m = data.member(rng() % data.size());
      std::copy(m.begin(), m.end(), &bytes[i * 16]);
    }
  }
  std::string_view operator[](size_t i) const { return {bytes.data() + i * 16, 16}; }
  size_t size() const { return bytes.size() / 16; }
  std::string bytes;
};

// A pipeline's commands run in groups the way net/connection.cc runs them:
// `steps` rounds of PrefetchMember for the whole group (each round one
// PrefetchBatch, flushed), then each command (`op`). Second argument 0: no
// look-ahead, the same requests one after another; 2: the server's (index
// slot, then records). ns per command.
constexpr size_t kGroup = 8;  // net/connection.cc's Lookahead::kGroup
template <typename Op>
void Grouped(benchmark::State& state, uint64_t seed, Op op) {
  Fixture& f = Get(state.range(0));
  const int steps = static_cast<int>(state.range(1));
  static std::map<size_t, Requests> streams;
  const Requests& rq = streams.try_emplace(state.range(0), *f.data, size_t{1} << 20, seed)
                           .first->second;
  size_t next = 0;
  for (auto _ : state) {
    if (next + kGroup > rq.size()) next = 0;
    for (int step = 0; step < steps; ++step) {
      PrefetchBatch::Open();
      for (size_t i = 0; i < kGroup; ++i) f.set->PrefetchMember(rq[next + i], step);
      PrefetchBatch::Flush();
    }
    for (size_t i = 0; i < kGroup; ++i) op(*f.set, rq[next + i]);
    next += kGroup;
  }
  PerOp(state, state.iterations() * kGroup);
}

void BM_ScoreGroup(benchmark::State& state) {
  Grouped(state, 2, [](SortedSet& s, std::string_view m) { benchmark::DoNotOptimize(s.Score(m)); });
}
void BM_RankGroup(benchmark::State& state) {
  Grouped(state, 3, [](SortedSet& s, std::string_view m) { benchmark::DoNotOptimize(s.Rank(m)); });
}
void BM_IncrByGroup(benchmark::State& state) {
  std::mt19937_64 rng(1);
  AddOptions incr;
  incr.incr = true;
  Grouped(state, 1, [&](SortedSet& s, std::string_view m) {
    const double step = static_cast<double>(rng() % 2001) - 1000;
    benchmark::DoNotOptimize(s.Add(m, step, incr, kLimits));
  });
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
  const size_t bytes = static_cast<size_t>(state.range(0)) << 20;
  const size_t lines = bytes >> 6;
  // Second argument 1: in huge pages, as a big set's arena and index are
  // (advised before the first touch, so every fault takes a whole 2 MiB).
  Line* buf = static_cast<Line*>(std::aligned_alloc(size_t{2} << 20, bytes));
  if (state.range(1) != 0) madvise(buf, bytes, MADV_HUGEPAGE);
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
  state.counters["huge_mb"] = static_cast<double>(HugeBytes() >> 20);
  std::free(buf);
}

#define RANKD_SIZES ->Arg(1000)->Arg(100000)->Arg(1000000)
BENCHMARK(BM_Insert) RANKD_SIZES->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_IncrBy) RANKD_SIZES;
BENCHMARK(BM_Score) RANKD_SIZES;
BENCHMARK(BM_Rank) RANKD_SIZES;
BENCHMARK(BM_PickMember) RANKD_SIZES;
BENCHMARK(BM_Top10) RANKD_SIZES;
BENCHMARK(BM_Offset100K) RANKD_SIZES;
#define RANKD_STEPS(n) ->Args({n, 0})->Args({n, 2})
BENCHMARK(BM_ScoreGroup) RANKD_STEPS(1000000);
BENCHMARK(BM_RankGroup) RANKD_STEPS(1000000);
BENCHMARK(BM_IncrByGroup) RANKD_STEPS(1000000);
#undef RANKD_STEPS
BENCHMARK(BM_Delete) RANKD_SIZES->Unit(benchmark::kMillisecond)->Iterations(3);
// Buffer MiB: the 1M set's size (tree + index + records, ~38 MB), and the
// 100K set's (~4 MB, mostly cache-resident) for reading those rows.
BENCHMARK(BM_DramMiss)->Args({4, 0})->Args({40, 0})->Args({40, 1});
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
