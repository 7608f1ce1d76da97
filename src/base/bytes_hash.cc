// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/bytes_hash.h"

#include <random>

namespace rankd::bytes_hash_internal {
namespace {

uint64_t Draw() {
  std::random_device rd;
  return (uint64_t{rd()} << 32) ^ rd();
}

}  // namespace

const uint64_t kSeed[2] = {Draw() | 1, Draw() | 1};

}  // namespace rankd::bytes_hash_internal
