// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// PFSELFTEST: a self check of the HyperLogLog code that runs inside the
// server, so a build on an unusual platform (endianness, compiler) shows a
// wrong register packing or estimator at once. Deterministic: fixed seeds.

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "core/hll_internal.h"
#include "core/hyperloglog.h"

namespace rankd {
namespace {

std::string Failed(const char* what, uint64_t at) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "TESTFAILED %s at %llu", what,
                static_cast<unsigned long long>(at));
  return buf;
}

// Every register written with random values reads back, and writing one
// register never disturbs its neighbours.
std::string CheckRegisterPacking() {
  std::mt19937 rng(12345);
  constexpr size_t kLen = hll::kDenseSize - hll::kHeaderSize;
  std::string area(kLen, '\0');
  auto* regs = reinterpret_cast<uint8_t*>(area.data());
  HllRegisters model{};
  for (int round = 0; round < 10; round++) {
    for (uint32_t i = 0; i < hll::kRegisters; i++) {
      model[i] = static_cast<uint8_t>(rng() & 63);
      detail::DenseSet(regs, kLen, i, model[i]);
    }
    for (uint32_t i = 0; i < hll::kRegisters; i++) {
      if (detail::DenseGet(regs, kLen, i) != model[i]) return Failed("Register error", i);
    }
  }
  return {};
}

// A sparse and a dense sketch fed the same elements (the sparse one while
// it is small enough to stay quick) estimate the same count; the estimate
// stays within 5 standard errors (1.04 / sqrt(16384) each) of the true
// count.
std::string CheckSparseDenseAndError() {
  std::string sparse = HllNew();
  std::string dense = HllNew();
  if (!HllToDense(&dense)) return Failed("Conversion error", 0);
  const double max_error = 5 * 1.04 / std::sqrt(double{hll::kRegisters});
  uint64_t next_check = 10;
  constexpr uint64_t kSparseUpTo = 20000;
  for (uint64_t n = 1; n <= 200000; n++) {
    const std::string element = std::to_string(n * 2654435761ULL);
    const bool with_sparse = n <= kSparseUpTo;
    if ((with_sparse && HllAdd(&sparse, element, 1u << 30) < 0) || HllAdd(&dense, element, 0) < 0) {
      return Failed("Add error", n);
    }
    if (n != next_check) continue;
    next_check = next_check * 3 / 2;
    const std::optional<uint64_t> b = HllEstimate(dense);
    if (with_sparse && HllEstimate(sparse) != b) return Failed("Sparse error", n);
    const double error = std::fabs(static_cast<double>(b.value_or(0)) - static_cast<double>(n)) / n;
    if (!b || (n >= 100 && error > max_error)) return Failed("Estimation error", n);
  }
  return {};
}

}  // namespace

std::string HllSelfTest() {
  std::string failure = CheckRegisterPacking();
  if (failure.empty()) failure = CheckSparseDenseAndError();
  return failure;
}

}  // namespace rankd
