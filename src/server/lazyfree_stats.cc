// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/lazyfree_stats.h"

#include "db/lazy_free.h"

namespace rankd {
namespace {

uint64_t baseline = 0;  // freed_objects() at the last reset

}  // namespace

uint64_t LazyfreedSinceReset(const LazyFreer& freer) {
  const uint64_t freed = freer.freed_objects();
  return freed >= baseline ? freed - baseline : 0;
}

void ResetLazyfreed(const LazyFreer& freer) { baseline = freer.freed_objects(); }

}  // namespace rankd
