// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// HashBytes: the seeded 64-bit hash of the in-memory indexes (a sorted
// set's member index, the keyspace table). Inline and short for the sizes
// those hold: up to 16 bytes take two (possibly overlapping) loads and one
// 64x64->128 multiply folded to 64 bits; longer strings fold 16 bytes per
// multiply first. About 15 instructions for a 16-byte member, where
// absl::Hash over std::hash (murmur, out of line) took ~70: a sorted-set
// command hashes its member up to three times (two prefetch steps and the
// command itself).
//
// The seed is drawn once per process (base/bytes_hash.cc, before main), so
// members crafted to collide in one process do not collide in another.
// Neither the hash nor anything ordered by it (SCAN/ZSCAN cursors) is ever
// stored or sent between processes.

#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace rankd {

namespace bytes_hash_internal {

// Drawn before main; never change afterwards. Each data word is xor-ed
// with a secret before it is multiplied, so no chosen input zeroes a factor.
extern const uint64_t kSeed[2];

// Odd constants with about half their bits set, so each multiply mixes.
inline constexpr uint64_t kMulA = 0xa0761d6478bd642full;
inline constexpr uint64_t kMulB = 0xe7037ed1a0b428dbull;
inline constexpr uint64_t kMulC = 0x8ebc6af09c88c6e3ull;

// The 128-bit product of a and b, its halves xor-ed.
inline uint64_t Fold(uint64_t a, uint64_t b) {
  const unsigned __int128 r = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
}
inline uint64_t Load64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline uint64_t Load32(const unsigned char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

}  // namespace bytes_hash_internal

inline uint64_t HashBytes(std::string_view s) {
  using namespace bytes_hash_internal;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size();
  uint64_t seed = kSeed[1] ^ kMulA;
  uint64_t a, b;
  if (n <= 16) {
    if (n >= 8) {
      a = Load64(p);
      b = Load64(p + n - 8);
    } else if (n >= 4) {
      a = Load32(p);
      b = Load32(p + n - 4);
    } else if (n > 0) {
      a = (uint64_t{p[0]} << 16) | (uint64_t{p[n >> 1]} << 8) | p[n - 1];
      b = 0;
    } else {
      a = b = 0;
    }
  } else {
    // Every whole 16 bytes but the last step, then the last 16 (which may
    // overlap the step before).
    size_t left = n;
    while (left > 16) {
      seed = Fold(Load64(p) ^ kSeed[0], Load64(p + 8) ^ seed);
      p += 16;
      left -= 16;
    }
    a = Load64(p + left - 16);
    b = Load64(p + left - 8);
  }
  a ^= kSeed[0] ^ kMulB;
  b ^= seed;
  // The length enters the last multiply, so prefixes of zeros differ.
  return Fold(kMulC ^ n, Fold(a, b));
}

}  // namespace rankd
