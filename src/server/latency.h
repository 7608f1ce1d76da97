// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Latency monitoring, as Redis 7.0 keeps it:
//  * LatencyMonitor: per event ("command", "fast-command"), the last 160
//    spikes at or above latency-monitor-threshold ms, one sample per second
//    (the worst of that second), and the all-time maximum (LATENCY LATEST /
//    HISTORY / RESET / GRAPH / DOCTOR).
//  * LatencyHistogram: per command, every call's duration in power-of-two
//    microsecond buckets (LATENCY HISTOGRAM, INFO latencystats).

#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankd {

class LatencyMonitor {
 public:
  static constexpr size_t kHistoryLen = 160;  // Redis LATENCY_TS_LEN
  struct Sample {
    int64_t unix_s;
    int64_t ms;
  };
  struct Event {
    std::vector<Sample> samples;  // oldest first, at most kHistoryLen
    int64_t max_ms = 0;
  };

  // Records a spike of `ms` for `event` at `unix_s` (Redis latencyAddSample):
  // a second sample in the same second only raises that second's value.
  void Add(std::string_view event, int64_t ms, int64_t unix_s);
  // Events by name.
  const std::map<std::string, Event, std::less<>>& events() const { return events_; }
  // Forgets `names` (all when empty). Returns how many events were forgotten.
  size_t Reset(std::span<const std::string_view> names);

 private:
  std::map<std::string, Event, std::less<>> events_;
};

// Call durations of one command, kept two ways:
//  - buckets: power-of-two microsecond buckets (LATENCY HISTOGRAM): bucket k
//    holds durations d (us) with 2^(k-1) < d <= 2^k (bucket 0: d <= 1);
//  - fine: nanosecond buckets for INFO latencystats' percentiles, exact
//    below 64 ns and then 32 per power of two (each bucket's width is at
//    most 1/32 of its values, as an HDR histogram with 1.5 significant
//    digits), allocated at the first call (10 KB).
struct LatencyHistogram {
  static constexpr int kBuckets = 40;
  static constexpr int kSubBits = 5;                        // 32 per octave
  static constexpr int kLinear = 2 << kSubBits;             // exact below 64 ns
  static constexpr int kOctaves = 44 - (kSubBits + 1);      // up to 2^44 ns (~4.9 h)
  static constexpr int kFine = kLinear + kOctaves * (1 << kSubBits);
  std::array<uint64_t, kBuckets> buckets{};
  std::vector<uint64_t> fine;  // empty until the first Add
  uint64_t count = 0;
  void Add(int64_t ns);
  // The duration (us, ns precision) within which `p` percent of the calls
  // finished: the top of the fine bucket holding that call, as Redis's
  // hdr_value_at_percentile. 0 when no call was recorded.
  double Percentile(double p) const;
};

}  // namespace rankd
