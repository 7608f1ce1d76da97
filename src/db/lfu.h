// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Redis's LFU access counter, one byte per key with the minute it was last
// decremented (16 bits, wrapping). The counter grows logarithmically: an
// access increments it with probability 1 / ((counter - 5) * log_factor + 1),
// so 255 means roughly a million hits at lfu-log-factor 10. It loses one per
// lfu-decay-time minutes without access. New keys start at 5 so they are not
// evicted before they had a chance to be read (LFU_INIT_VAL).

#pragma once

#include <cstdint>
#include <random>

#include "base/clock.h"

namespace rankd {

inline constexpr uint8_t kLfuInitVal = 5;

// lfu-log-factor and lfu-decay-time, shared by every database.
struct LfuSettings {
  bool enabled = false;  // an LFU maxmemory policy is selected
  int64_t log_factor = 10;
  int64_t decay_time = 1;  // minutes per decrement; 0: never decays
};

// The current minute, as the 16 bits the counter stores.
inline uint16_t LfuMinutes() { return static_cast<uint16_t>((CachedMonoMs() / 60000) & 65535); }

// The counter after its decay for the minutes elapsed since `ldt`
// (Redis LFUDecrAndReturn): what OBJECT FREQ reports.
inline uint8_t LfuDecayed(uint8_t counter, uint16_t ldt, const LfuSettings& s) {
  const uint16_t now = LfuMinutes();
  const uint32_t elapsed = now >= ldt ? now - ldt : 65535 - ldt + now;
  const uint64_t periods = s.decay_time > 0 ? elapsed / static_cast<uint64_t>(s.decay_time) : 0;
  return periods >= counter ? 0 : static_cast<uint8_t>(counter - periods);
}

// One access: decay, then a logarithmic increment (Redis updateLFU).
inline void LfuTouch(uint8_t* counter, uint16_t* ldt, const LfuSettings& s) {
  static thread_local std::minstd_rand rng(0x6c6675);
  uint8_t c = LfuDecayed(*counter, *ldt, s);
  if (c < 255) {
    const double r = static_cast<double>(rng() - rng.min()) / (rng.max() - rng.min());
    const double base = c > kLfuInitVal ? c - kLfuInitVal : 0;
    if (r < 1.0 / (base * static_cast<double>(s.log_factor) + 1)) c++;
  }
  *counter = c;
  *ldt = LfuMinutes();
}

}  // namespace rankd
