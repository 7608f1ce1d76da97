// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The instant key expiry compares deadlines with. Normally the wall clock;
// while a script runs it stands still at the script's start (as Redis 7.0's
// script time snapshot), so a key alive when the script began stays alive
// for all of it, however long the script takes. Per thread, as the clocks
// in base/clock.h.

#pragma once

#include <cstdint>

#include "base/clock.h"

namespace rankd {

inline thread_local int64_t g_frozen_expiry_ms = 0;  // 0: the wall clock

inline int64_t ExpiryNowMs() { return g_frozen_expiry_ms != 0 ? g_frozen_expiry_ms : WallMs(); }

// Holds the expiry clock at the current wall time for its lifetime (a
// script's run). Nested holders keep the outermost instant.
class FrozenExpiryClock {
 public:
  FrozenExpiryClock() : saved_(g_frozen_expiry_ms) {
    if (saved_ == 0) g_frozen_expiry_ms = WallMs();
  }
  ~FrozenExpiryClock() { g_frozen_expiry_ms = saved_; }
  FrozenExpiryClock(const FrozenExpiryClock&) = delete;
  FrozenExpiryClock& operator=(const FrozenExpiryClock&) = delete;

 private:
  int64_t saved_;
};

}  // namespace rankd
