// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// HyperLogLog sketches stored byte for byte as Redis 7.0 stores them, so an
// HLL written by rankd and one written by redis-server are the same string
// (GET / SET / DUMP / RESTORE move them either way). Pure functions over a
// std::string: no I/O, no keyspace; the PF* commands own the string.
//
// Layout (all multi-byte fields little endian):
//
//   0      4     5        8              16
//   +------+-----+--------+--------------+-------------------------------+
//   | HYLL | enc | 0 0 0  | cached card  | registers                     |
//   +------+-----+--------+--------------+-------------------------------+
//   enc 0: dense, 16384 registers of 6 bits, register i at bit 6*i of the
//          register area, least significant bit first (12288 bytes, so a
//          dense HLL is exactly kDenseSize bytes).
//   enc 1: sparse, a run-length code of the 16384 registers:
//            00xxxxxx            ZERO  run of xxxxxx+1 (1..64) zero registers
//            01xxxxxx yyyyyyyy   XZERO run of (x<<8|y)+1 (1..16384) zeros
//            1vvvvvxx            VAL   run of xx+1 (1..4) registers = vvvvv+1
//          A valid sparse body covers exactly 16384 registers.
//   card:  the last computed cardinality; bit 7 of byte 15 set means stale.
//
// An element goes to register (h & 16383), with value 1 + the number of
// trailing zero bits of (h >> 14) over 50 bits (1..51), h being MurmurHash64A
// of its bytes with seed 0xadc83b19. A sparse HLL becomes dense when a
// register needs a value above 32 (VAL's limit) or when an update would grow
// it past `sparse_max_bytes` (hll-sparse-max-bytes). Which opcodes an update
// writes and which neighbours it merges are part of the format contract:
// they are what makes the bytes equal to Redis's after the same adds.
//
// Cardinality: Ertl's improved estimator ("New cardinality estimation
// algorithms for HyperLogLog sketches", 2017) over the register histogram,
// as Redis 7.0 computes it.
//
// Hostile strings: every function here reads only inside the string (a
// byte past the end reads as 0, as Redis's terminating NUL does) and reports
// a body that does not cover exactly 16384 registers as corrupt.

#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rankd {

namespace hll {
constexpr int kIndexBits = 14;
constexpr uint32_t kRegisters = 1u << kIndexBits;  // 16384
constexpr int kRegisterBits = 6;
constexpr size_t kHeaderSize = 16;
constexpr size_t kDenseSize = kHeaderSize + (kRegisters * kRegisterBits + 7) / 8;  // 12304
constexpr uint8_t kDense = 0;
constexpr uint8_t kSparse = 1;
constexpr uint8_t kSparseMaxValue = 32;  // largest register a VAL opcode holds
constexpr uint64_t kHashSeed = 0xadc83b19ULL;
static_assert(kDenseSize == 12304, "dense size is part of the format");
}  // namespace hll

// A full register array, one byte per register: the union of several HLLs
// (PFCOUNT of several keys, PFMERGE).
using HllRegisters = std::array<uint8_t, hll::kRegisters>;

// MurmurHash64A (Austin Appleby), bytes read little endian whatever the
// host: the hash Redis feeds its HLLs.
uint64_t MurmurHash64A(std::string_view data, uint64_t seed);

// The register `element` updates and the value it offers (1..51).
struct HllPosition {
  uint32_t index;
  uint8_t count;
};
HllPosition HllHashElement(std::string_view element);

// Whether `s` reads as an HLL (Redis isHLLObjectOrReply): at least a
// header, magic "HYLL", encoding dense or sparse, and a dense string of
// exactly kDenseSize bytes. The sparse body is not checked here.
bool HllIsValid(std::string_view s);

// A new, empty, sparse HLL (header + one XZERO of 16384), cardinality
// cached as 0. 18 bytes.
std::string HllNew();

// REQUIRES (all below): HllIsValid(*hll or hll).
bool HllIsSparse(std::string_view hll);

// Adds `element`: 1 when a register grew, 0 when none did, -1 when the
// sparse body is corrupt (the string may then be partly updated, as in
// Redis). A sparse update marks the cached cardinality stale, a dense one
// does not (as in Redis); a caller that changed anything invalidates it.
int HllAdd(std::string* hll, std::string_view element, size_t sparse_max_bytes);

// Raises register `index` to `value` when it is lower: 1 changed, 0 not,
// -1 corrupt sparse body. May make a sparse HLL dense (see above).
// REQUIRES: index < kRegisters, 1 <= value <= 63.
int HllRaise(std::string* hll, uint32_t index, uint8_t value, size_t sparse_max_bytes);

// Raises every register to at least `max` (PFMERGE's write). A sparse HLL
// is updated register by register in index order, exactly as that many
// HllRaise calls (promotion included); a corrupt sparse body leaves the
// registers it cannot reach as they are.
void HllRaiseAll(std::string* hll, const HllRegisters& max, size_t sparse_max_bytes);

// Makes a sparse HLL dense (header kept, cached cardinality included).
// True when it is dense now; false (and unchanged) when the sparse body is
// corrupt. O(16384).
[[nodiscard]] bool HllToDense(std::string* hll);

// Raises each register of `max` to this HLL's. False when a sparse body is
// corrupt (`max` may be partly raised).
[[nodiscard]] bool HllMaxInto(std::string_view hll, HllRegisters* max);

// Register `index` of a dense HLL. REQUIRES: !HllIsSparse(hll).
uint8_t HllDenseRegister(std::string_view hll, uint32_t index);

// The estimated cardinality, or nullopt when the sparse body is corrupt.
// Ignores (and does not update) the cached value.
std::optional<uint64_t> HllEstimate(std::string_view hll);
// The estimated cardinality of a register array (PFCOUNT of several keys).
uint64_t HllEstimate(const HllRegisters& registers);

// The cached cardinality, or nullopt when it is marked stale.
std::optional<uint64_t> HllCachedCount(std::string_view hll);
void HllSetCachedCount(std::string* hll, uint64_t count);
void HllInvalidateCache(std::string* hll);

// PFDEBUG DECODE's text for a sparse HLL: "z:N" (ZERO), "Z:N" (XZERO),
// "v:VALUE,N" (VAL), separated by single spaces.
std::string HllDecodeSparse(std::string_view hll);

// PFSELFTEST: checks the dense register packing, that sparse and dense
// sketches of the same elements agree, and the estimator's error on
// growing sets. Returns an empty string when all pass, else what failed.
std::string HllSelfTest();

}  // namespace rankd
