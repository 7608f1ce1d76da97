// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/latency.h"

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

void LatencyHistogram::Add(int64_t us) {
  int k = us <= 1 ? 0 : std::bit_width(static_cast<uint64_t>(us - 1));
  buckets[k < kBuckets ? k : kBuckets - 1]++;
}

double LatencyHistogram::Percentile(double p) const {
  uint64_t total = 0;
  for (uint64_t c : buckets) total += c;
  if (total == 0) return 0;
  const double want = total * p / 100.0;
  uint64_t seen = 0;
  for (int k = 0; k < kBuckets; k++) {
    seen += buckets[k];
    if (seen >= want && buckets[k]) return static_cast<double>(uint64_t{1} << k);
  }
  return static_cast<double>(uint64_t{1} << (kBuckets - 1));
}

}  // namespace rankd
