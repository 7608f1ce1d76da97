// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Wall and monotonic clocks. Expiry uses wall milliseconds (as Redis does, so
// EXPIREAT and PEXPIRETIME are absolute unix times); timeouts use monotonic.

#pragma once

#include <cstdint>
#include <ctime>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace rankd {

// Unix time in milliseconds.
inline int64_t WallMs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}

// Unix time in microseconds.
inline int64_t WallUs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return int64_t{ts.tv_sec} * 1000000 + ts.tv_nsec / 1000;
}

// The clock periodic leaderboards decide their current period by (issue
// 17): the wall clock, unless DEBUG SET-PERIOD-CLOCK pinned it to a unix ms
// value (tests of boundaries without waiting). Per thread, as the cached
// clock below.
inline thread_local int64_t g_period_clock_ms = 0;  // 0: the wall clock
inline int64_t PeriodNowMs() { return g_period_clock_ms != 0 ? g_period_clock_ms : WallMs(); }
inline void SetPeriodClock(int64_t unix_ms) { g_period_clock_ms = unix_ms; }

// Monotonic milliseconds since an arbitrary origin.
inline int64_t MonoMs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}

inline int64_t MonoUs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000000 + ts.tv_nsec / 1000;
}

// A monotonic millisecond clock read once per event-loop iteration
// (TickCachedClock), for timestamps that need no precision: a key's last
// access (OBJECT IDLETIME), a connection's last activity. Per thread, so
// shards will each keep their own.
inline thread_local int64_t g_cached_mono_ms = MonoMs();
inline int64_t CachedMonoMs() { return g_cached_mono_ms; }
inline void TickCachedClock() { g_cached_mono_ms = MonoMs(); }

// Cheap elapsed-time measurement for per-command timing (slowlog,
// commandstats): the CPU's invariant time-stamp counter where available,
// converted with a rate calibrated once against CLOCK_MONOTONIC.
inline uint64_t CycleNow() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return static_cast<uint64_t>(MonoUs());
#endif
}

// Microseconds in `cycles` CycleNow() ticks. The first call calibrates
// (about 2 ms).
int64_t CyclesToUs(uint64_t cycles);
// Nanoseconds in `cycles` ticks (INFO latencystats' percentiles).
int64_t CyclesToNs(uint64_t cycles);

}  // namespace rankd
