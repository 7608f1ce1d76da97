// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/clock.h"

namespace rankd {
namespace {

// Ticks of CycleNow() per microsecond, measured over ~2 ms of wall time.
double CalibrateTicksPerUs() {
#if defined(__x86_64__)
  const int64_t us0 = MonoUs();
  const uint64_t t0 = CycleNow();
  int64_t us1;
  do {
    us1 = MonoUs();
  } while (us1 - us0 < 2000);
  const uint64_t t1 = CycleNow();
  return static_cast<double>(t1 - t0) / static_cast<double>(us1 - us0);
#else
  return 1.0;
#endif
}

}  // namespace

namespace {
double TicksPerUs() {
  static const double ticks_per_us = CalibrateTicksPerUs();
  return ticks_per_us;
}
}  // namespace

int64_t CyclesToUs(uint64_t cycles) {
  return static_cast<int64_t>(static_cast<double>(cycles) / TicksPerUs());
}

int64_t CyclesToNs(uint64_t cycles) {
  // A multiply, not a divide: this runs once per command (its duration).
  static const double ns_per_tick = 1000.0 / TicksPerUs();
  return static_cast<int64_t>(static_cast<double>(cycles) * ns_per_tick);
}

}  // namespace rankd
