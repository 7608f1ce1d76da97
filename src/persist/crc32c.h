// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CRC-32C (Castagnoli), the checksum of every log record and snapshot. Uses
// the SSE4.2 crc32 instruction when the CPU has it, a table otherwise; both
// give identical results. Mask()/Unmask() follow LevelDB: a CRC stored next
// to data that itself contains CRCs is rotated and offset, so that computing
// the CRC of a string containing embedded CRCs stays well distributed.

#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace rankd::crc32c {

// Returns the CRC-32C of data[0, n) continuing from `init_crc` (the CRC of
// the bytes before them; 0 for a fresh start). Extend(Extend(0, a), b) ==
// Value(a + b).
uint32_t Extend(uint32_t init_crc, const char* data, size_t n);

inline uint32_t Value(const char* data, size_t n) { return Extend(0, data, n); }
inline uint32_t Value(std::string_view s) { return Extend(0, s.data(), s.size()); }

constexpr uint32_t kMaskDelta = 0xa282ead8u;

// The stored form of a CRC.
inline uint32_t Mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + kMaskDelta; }

// Inverse of Mask().
inline uint32_t Unmask(uint32_t masked) {
  uint32_t rot = masked - kMaskDelta;
  return (rot >> 17) | (rot << 15);
}

}  // namespace rankd::crc32c
