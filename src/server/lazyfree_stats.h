// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// INFO lazyfreed_objects as CONFIG RESETSTAT leaves it (Redis zeroes it
// there): the lazy freer's own running count, less what it had reached at
// the last reset. The freer's count itself never goes back (its thread
// adds to it). One baseline per process: a process runs one server.

#pragma once

#include <cstdint>

namespace rankd {

class LazyFreer;

// Objects freed in the background since start-up or the last reset.
uint64_t LazyfreedSinceReset(const LazyFreer& freer);
// CONFIG RESETSTAT: LazyfreedSinceReset answers 0 from here on.
void ResetLazyfreed(const LazyFreer& freer);

}  // namespace rankd
