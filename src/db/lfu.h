// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// A key's access field: 24 bits, as Redis's robj.lru. Under an LFU
// maxmemory policy it holds the LFU counter (high 8 bits) and the minute it
// was last decremented (low 16 bits, wrapping); otherwise the LRU clock, the
// second of the last access (24 bits, wrapping every 194 days).
//
// Redis's LFU access counter, one byte per key with the minute it was last
// decremented. The counter grows logarithmically: an
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

inline constexpr uint32_t kLruClockMax = (1u << 24) - 1;

// The LRU clock now: seconds of the monotonic clock, 24 bits.
inline uint32_t LruClock() { return static_cast<uint32_t>(CachedMonoMs() / 1000) & kLruClockMax; }

// Milliseconds since the access stamped `lru` (Redis estimateObjectIdleTime).
inline int64_t LruIdleMs(uint32_t lru) {
  const uint32_t now = LruClock();
  const uint32_t secs = now >= lru ? now - lru : kLruClockMax - lru + now;
  return static_cast<int64_t>(secs) * 1000;
}

// The 24-bit field of a new key or an access: LRU clock or LFU counter.
inline uint32_t LfuPack(uint8_t counter, uint16_t minutes) {
  return (static_cast<uint32_t>(counter) << 16) | minutes;
}
inline uint8_t LfuCounterOf(uint32_t field) { return static_cast<uint8_t>(field >> 16); }
inline uint16_t LfuMinutesOf(uint32_t field) { return static_cast<uint16_t>(field & 0xFFFF); }

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

// The access field after one access (Redis updateLFU / LRU_CLOCK).
inline uint32_t AccessStamp(uint32_t field, const LfuSettings& s) {
  if (!s.enabled) return LruClock();
  uint8_t c = LfuCounterOf(field);
  uint16_t m = LfuMinutesOf(field);
  LfuTouch(&c, &m, s);
  return LfuPack(c, m);
}

// The access field of a new key (Redis createObject).
inline uint32_t NewAccessStamp(const LfuSettings& s) {
  return s.enabled ? LfuPack(kLfuInitVal, LfuMinutes()) : LruClock();
}

// OBJECT FREQ's answer for an access field written under an LFU policy.
inline uint8_t LfuFreq(uint32_t field, const LfuSettings& s) {
  return LfuDecayed(LfuCounterOf(field), LfuMinutesOf(field), s);
}

}  // namespace rankd
