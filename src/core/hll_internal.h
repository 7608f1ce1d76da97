// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// What the HyperLogLog files share (hyperloglog.cc: hashing, header, dense
// registers; hll_sparse.cc: the sparse code; hll_estimate.cc: histograms and
// the estimator). Not part of the public API: see core/hyperloglog.h for the
// format.

#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/hyperloglog.h"

namespace rankd::detail {

// ---- Dense registers: 6 bits each, least significant bit first. ----
// `regs` is the register area (kDenseSize - kHeaderSize bytes); a read of the
// byte past it reads 0, a write to it is dropped (it only ever holds bits of
// no register).
inline uint8_t DenseGet(const uint8_t* regs, size_t len, uint32_t i) {
  const size_t bit = size_t{i} * hll::kRegisterBits;
  const size_t byte = bit / 8;
  const unsigned shift = bit % 8;
  const unsigned lo = regs[byte];
  const unsigned hi = byte + 1 < len ? regs[byte + 1] : 0;
  return static_cast<uint8_t>(((lo >> shift) | (hi << (8 - shift))) & 63);
}

inline void DenseSet(uint8_t* regs, size_t len, uint32_t i, uint8_t v) {
  const size_t bit = size_t{i} * hll::kRegisterBits;
  const size_t byte = bit / 8;
  const unsigned shift = bit % 8;
  regs[byte] = static_cast<uint8_t>((regs[byte] & ~(63u << shift)) | (unsigned{v} << shift));
  if (shift > 8 - hll::kRegisterBits && byte + 1 < len) {
    const unsigned spill = 8 - shift;  // bits of v that fit in the first byte
    regs[byte + 1] = static_cast<uint8_t>((regs[byte + 1] & ~(63u >> spill)) | (v >> spill));
  }
}

// Every register of a dense area (kDenseSize - kHeaderSize bytes), one byte
// each, and back: 3 bytes hold 4 registers, so whole groups go at once.
void DenseUnpack(const uint8_t* regs, HllRegisters* out);
void DensePack(const HllRegisters& in, uint8_t* regs);

// ---- Sparse opcodes. ----
inline bool IsZeroOp(uint8_t b) { return (b & 0xC0) == 0x00; }
inline bool IsXZeroOp(uint8_t b) { return (b & 0xC0) == 0x40; }
inline bool IsValOp(uint8_t b) { return (b & 0x80) != 0; }
inline uint8_t ValOpValue(uint8_t b) { return static_cast<uint8_t>(((b >> 2) & 31) + 1); }
inline uint32_t ValOpRun(uint8_t b) { return (b & 3u) + 1; }
inline uint8_t ValOp(uint8_t value, uint32_t run) {
  return static_cast<uint8_t>(0x80 | ((value - 1) << 2) | (run - 1));
}
constexpr uint32_t kZeroOpMaxRun = 64;
constexpr uint32_t kValOpMaxRun = 4;

// One opcode of a sparse body as read at some offset.
struct SparseOp {
  uint32_t bytes;  // 1, or 2 for XZERO
  uint32_t run;    // registers covered
  uint8_t value;   // 0 for ZERO / XZERO
};

// The opcode at `pos` of `s`. REQUIRES: pos < s.size(). The second byte of
// an XZERO cut off by the end of the string reads as 0.
inline SparseOp ReadSparseOp(std::string_view s, size_t pos) {
  const auto b = static_cast<uint8_t>(s[pos]);
  if (IsZeroOp(b)) return {1, (b & 63u) + 1, 0};
  if (IsValOp(b)) return {1, ValOpRun(b), ValOpValue(b)};
  const unsigned low = pos + 1 < s.size() ? static_cast<uint8_t>(s[pos + 1]) : 0;
  return {2, (((b & 63u) << 8) | low) + 1, 0};
}

// Appends the zero run of `run` registers (ZERO up to 64, else XZERO).
void AppendZeroRun(std::string* out, uint32_t run);

// Raises register `index` of a sparse HLL to `value` (hll_sparse.cc); the
// sparse half of HllRaise.
int SparseRaise(std::string* hll, uint32_t index, uint8_t value, size_t sparse_max_bytes);

}  // namespace rankd::detail
