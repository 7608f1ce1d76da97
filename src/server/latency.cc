// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/latency.h"

#include <algorithm>
#include <bit>

namespace rankd {

void LatencyMonitor::Add(std::string_view event, int64_t ms, int64_t unix_s) {
  auto it = events_.find(event);
  if (it == events_.end()) it = events_.emplace(std::string(event), Event{}).first;
  Event& e = it->second;
  if (ms > e.max_ms) e.max_ms = ms;
  if (!e.samples.empty() && e.samples.back().unix_s == unix_s) {
    if (ms > e.samples.back().ms) e.samples.back().ms = ms;
    return;
  }
  if (e.samples.size() == kHistoryLen) e.samples.erase(e.samples.begin());
  e.samples.push_back({unix_s, ms});
}

size_t LatencyMonitor::Reset(std::span<const std::string_view> names) {
  if (names.empty()) {
    size_t n = events_.size();
    events_.clear();
    return n;
  }
  size_t n = 0;
  for (std::string_view name : names) {
    auto it = events_.find(name);
    if (it != events_.end()) {
      events_.erase(it);
      n++;
    }
  }
  return n;
}

namespace {

// The fine bucket of `ns` (>= 0) and the largest value that bucket holds.
int FineIndex(uint64_t ns) {
  using H = LatencyHistogram;
  if (ns < static_cast<uint64_t>(H::kLinear)) return static_cast<int>(ns);
  const int top = std::bit_width(ns) - 1;  // >= kSubBits + 1
  const int octave = std::min(top - (H::kSubBits + 1), H::kOctaves - 1);
  const uint64_t sub = (ns >> (top - H::kSubBits)) & ((1 << H::kSubBits) - 1);
  if (top - (H::kSubBits + 1) >= H::kOctaves) return H::kFine - 1;
  return H::kLinear + octave * (1 << H::kSubBits) + static_cast<int>(sub);
}

uint64_t FineTop(int index) {
  using H = LatencyHistogram;
  if (index < H::kLinear) return static_cast<uint64_t>(index);
  const int octave = (index - H::kLinear) >> H::kSubBits;
  const uint64_t sub = static_cast<uint64_t>((index - H::kLinear) & ((1 << H::kSubBits) - 1));
  const int shift = octave + 1;  // bucket width 2^shift
  return (((uint64_t{1} << H::kSubBits) + sub + 1) << shift) - 1;
}

}  // namespace

void LatencyHistogram::Add(int64_t ns) {
  const uint64_t v = ns > 0 ? static_cast<uint64_t>(ns) : 0;
  // Bucket k holds d = ceil(v / 1000) us with 2^(k-1) < d <= 2^k, that is
  // k = bit_width(d - 1), and d - 1 == (v - 1) / 1000 for v >= 1.
  const int k = std::bit_width(v == 0 ? 0 : (v - 1) / 1000);
  buckets[k < kBuckets ? k : kBuckets - 1]++;
  if (fine.empty()) [[unlikely]] fine.assign(kFine, 0);
  fine[FineIndex(v)]++;
  count++;
}

double LatencyHistogram::Percentile(double p) const {
  if (count == 0) return 0;
  // The rank of the call at percentile p, as HDR counts it (at least 1).
  uint64_t want = static_cast<uint64_t>(p / 100.0 * static_cast<double>(count) + 0.5);
  want = std::clamp<uint64_t>(want, 1, count);
  uint64_t seen = 0;
  for (int i = 0; i < kFine; i++) {
    seen += fine[i];
    if (seen >= want) return static_cast<double>(FineTop(i)) / 1000.0;
  }
  return static_cast<double>(FineTop(kFine - 1)) / 1000.0;
}

}  // namespace rankd
