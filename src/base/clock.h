// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Wall and monotonic clocks. Expiry uses wall milliseconds (as Redis does, so
// EXPIREAT and PEXPIRETIME are absolute unix times); timeouts use monotonic.

#pragma once

#include <cstdint>
#include <ctime>

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

}  // namespace rankd
