// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The cardinality estimate and register unions. The estimate is Ertl's
// improved estimator (arXiv:1702.01284, section on the "improved raw
// estimator"), which needs only the histogram of register values: how many
// registers hold 0, 1, ..., 51. Both series (sigma for the zero registers,
// tau for the saturated ones) are summed until the double stops changing,
// in the same order of operations as Redis, so the rounded result is equal.

#include <algorithm>
#include <cmath>

#include "core/hll_internal.h"
#include "core/hyperloglog.h"

namespace rankd {
namespace {

// Register values reach 51 (50 hashed bits + 1); a hostile dense string
// may hold up to 63, counted but not used by the estimator.
using Histogram = std::array<uint32_t, 64>;
constexpr int kMaxRun = 64 - hll::kIndexBits;  // 50

double Sigma(double x) {
  if (x == 1.0) return INFINITY;
  double y = 1.0, z = x, before;
  do {
    x *= x;
    before = z;
    z += x * y;
    y += y;
  } while (before != z);
  return z;
}

double Tau(double x) {
  if (x == 0.0 || x == 1.0) return 0.0;
  double y = 1.0, z = 1.0 - x, before;
  do {
    x = std::sqrt(x);
    before = z;
    y *= 0.5;
    const double d = 1.0 - x;
    z -= d * d * y;
  } while (before != z);
  return z / 3.0;
}

uint64_t EstimateFromHistogram(const Histogram& h) {
  constexpr double m = hll::kRegisters;
  constexpr double kAlphaInf = 0.721347520444481703680;  // 1 / (2 ln 2)
  double z = m * Tau((m - h[kMaxRun + 1]) / m);
  for (int j = kMaxRun; j >= 1; --j) {
    z += h[j];
    z *= 0.5;
  }
  z += m * Sigma(h[0] / m);
  return static_cast<uint64_t>(std::llround(kAlphaInf * m * m / z));
}

// Histogram of a sparse body; false when it does not cover exactly 16384
// registers.
bool SparseHistogram(std::string_view s, Histogram* h) {
  uint64_t reg = 0;
  for (size_t pos = hll::kHeaderSize; pos < s.size();) {
    const detail::SparseOp op = detail::ReadSparseOp(s, pos);
    (*h)[op.value] += op.run;
    reg += op.run;
    pos += op.bytes;
  }
  return reg == hll::kRegisters;
}

const uint8_t* DenseArea(std::string_view hll) {
  return reinterpret_cast<const uint8_t*>(hll.data()) + hll::kHeaderSize;
}

}  // namespace

std::optional<uint64_t> HllEstimate(std::string_view hll) {
  Histogram h{};
  if (HllIsSparse(hll)) {
    if (!SparseHistogram(hll, &h)) return std::nullopt;
  } else {
    HllRegisters regs;
    detail::DenseUnpack(DenseArea(hll), &regs);
    for (uint8_t r : regs) h[r]++;
  }
  return EstimateFromHistogram(h);
}

uint64_t HllEstimate(const HllRegisters& registers) {
  Histogram h{};
  for (uint8_t r : registers) h[r & 63]++;
  return EstimateFromHistogram(h);
}

bool HllMaxInto(std::string_view hll, HllRegisters* max) {
  if (!HllIsSparse(hll)) {
    HllRegisters regs;
    detail::DenseUnpack(DenseArea(hll), &regs);
    for (uint32_t i = 0; i < hll::kRegisters; i++) (*max)[i] = std::max((*max)[i], regs[i]);
    return true;
  }
  uint64_t reg = 0;
  for (size_t pos = hll::kHeaderSize; pos < hll.size();) {
    const detail::SparseOp op = detail::ReadSparseOp(hll, pos);
    pos += op.bytes;
    if (op.value == 0) {
      reg += op.run;
      continue;
    }
    if (reg + op.run > hll::kRegisters) return false;  // overruns the register count
    for (uint32_t i = 0; i < op.run; i++, reg++) {
      if (op.value > (*max)[reg]) (*max)[reg] = op.value;
    }
  }
  return reg == hll::kRegisters;
}

}  // namespace rankd
