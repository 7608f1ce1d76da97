// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// HyperLogLog: hashing, the header, dense registers and the encoding switch.
// The sparse code is in hll_sparse.cc, the estimator in hll_estimate.cc.

#include "core/hyperloglog.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "core/hll_internal.h"

namespace rankd {
namespace {

constexpr size_t kEncodingByte = 4;
constexpr size_t kCardOffset = 8;
constexpr uint8_t kStaleBit = 0x80;  // in the cached cardinality's last byte

uint64_t LoadLittle64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

uint8_t* Registers(std::string* hll) {
  return reinterpret_cast<uint8_t*>(hll->data()) + hll::kHeaderSize;
}

}  // namespace

namespace detail {

void DenseUnpack(const uint8_t* regs, HllRegisters* out) {
  static_assert(hll::kRegisterBits == 6 && hll::kRegisters % 4 == 0);
  for (uint32_t i = 0, b = 0; i < hll::kRegisters; i += 4, b += 3) {
    const unsigned x = regs[b] | (regs[b + 1] << 8) | (regs[b + 2] << 16);
    (*out)[i] = x & 63;
    (*out)[i + 1] = (x >> 6) & 63;
    (*out)[i + 2] = (x >> 12) & 63;
    (*out)[i + 3] = (x >> 18) & 63;
  }
}

void DensePack(const HllRegisters& in, uint8_t* regs) {
  for (uint32_t i = 0, b = 0; i < hll::kRegisters; i += 4, b += 3) {
    const unsigned x = (in[i] & 63u) | ((in[i + 1] & 63u) << 6) | ((in[i + 2] & 63u) << 12) |
                       ((in[i + 3] & 63u) << 18);
    regs[b] = static_cast<uint8_t>(x);
    regs[b + 1] = static_cast<uint8_t>(x >> 8);
    regs[b + 2] = static_cast<uint8_t>(x >> 16);
  }
}

}  // namespace detail

uint64_t MurmurHash64A(std::string_view data, uint64_t seed) {
  constexpr uint64_t kMul = 0xc6a4a7935bd1e995ULL;
  constexpr int kShift = 47;
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  const size_t n = data.size();
  uint64_t h = seed ^ (n * kMul);
  const size_t whole = n / 8 * 8;
  for (size_t i = 0; i < whole; i += 8) {
    uint64_t k = LoadLittle64(p + i);
    k *= kMul;
    k ^= k >> kShift;
    k *= kMul;
    h ^= k;
    h *= kMul;
  }
  const size_t tail = n & 7;
  if (tail) {
    for (size_t i = tail; i-- > 0;) h ^= uint64_t{p[whole + i]} << (8 * i);
    h *= kMul;
  }
  h ^= h >> kShift;
  h *= kMul;
  h ^= h >> kShift;
  return h;
}

HllPosition HllHashElement(std::string_view element) {
  const uint64_t h = MurmurHash64A(element, hll::kHashSeed);
  const auto index = static_cast<uint32_t>(h & (hll::kRegisters - 1));
  // A sentinel bit at position 50 bounds the run: the value is 1..51.
  const uint64_t rest = (h >> hll::kIndexBits) | (uint64_t{1} << (64 - hll::kIndexBits));
  return {index, static_cast<uint8_t>(__builtin_ctzll(rest) + 1)};
}

bool HllIsValid(std::string_view s) {
  if (s.size() < hll::kHeaderSize || s.substr(0, 4) != "HYLL") return false;
  const auto enc = static_cast<uint8_t>(s[kEncodingByte]);
  if (enc == hll::kDense) return s.size() == hll::kDenseSize;
  return enc == hll::kSparse;
}

std::string HllNew() {
  std::string s("HYLL", 4);
  s.push_back(static_cast<char>(hll::kSparse));
  s.append(11, '\0');  // unused bytes, cached cardinality 0
  detail::AppendZeroRun(&s, hll::kRegisters);
  return s;
}

bool HllIsSparse(std::string_view hll) {
  return static_cast<uint8_t>(hll[kEncodingByte]) == hll::kSparse;
}

int HllAdd(std::string* hll, std::string_view element, size_t sparse_max_bytes) {
  const HllPosition pos = HllHashElement(element);
  return HllRaise(hll, pos.index, pos.count, sparse_max_bytes);
}

int HllRaise(std::string* hll, uint32_t index, uint8_t value, size_t sparse_max_bytes) {
  assert(HllIsValid(*hll) && index < hll::kRegisters);
  if (HllIsSparse(*hll)) return detail::SparseRaise(hll, index, value, sparse_max_bytes);
  constexpr size_t kLen = hll::kDenseSize - hll::kHeaderSize;
  uint8_t* regs = Registers(hll);
  if (detail::DenseGet(regs, kLen, index) >= value) return 0;
  detail::DenseSet(regs, kLen, index, value);
  return 1;
}

bool HllToDense(std::string* hll) {
  if (!HllIsSparse(*hll)) return true;
  std::string dense(hll::kDenseSize, '\0');
  std::memcpy(dense.data(), hll->data(), hll::kHeaderSize);  // magic, cache, unused bytes
  dense[kEncodingByte] = static_cast<char>(hll::kDense);
  constexpr size_t kLen = hll::kDenseSize - hll::kHeaderSize;
  uint8_t* regs = Registers(&dense);
  uint64_t reg = 0;
  for (size_t pos = hll::kHeaderSize; pos < hll->size();) {
    const detail::SparseOp op = detail::ReadSparseOp(*hll, pos);
    pos += op.bytes;
    if (op.value == 0) {
      reg += op.run;
      continue;
    }
    if (reg + op.run > hll::kRegisters) return false;  // overruns the register count
    for (uint32_t i = 0; i < op.run; i++) {
      detail::DenseSet(regs, kLen, static_cast<uint32_t>(reg++), op.value);
    }
  }
  if (reg != hll::kRegisters) return false;
  *hll = std::move(dense);
  return true;
}

void HllRaiseAll(std::string* hll, const HllRegisters& max, size_t sparse_max_bytes) {
  // Sparse: one register at a time, as Redis, so the opcodes come out the
  // same; the rest in bulk once dense (raising a register twice is harmless).
  for (uint32_t i = 0; i < hll::kRegisters && HllIsSparse(*hll); i++) {
    if (max[i]) (void)detail::SparseRaise(hll, i, max[i], sparse_max_bytes);
  }
  if (HllIsSparse(*hll)) return;
  HllRegisters cur;
  detail::DenseUnpack(Registers(hll), &cur);
  for (uint32_t i = 0; i < hll::kRegisters; i++) cur[i] = std::max(cur[i], max[i]);
  detail::DensePack(cur, Registers(hll));
}

uint8_t HllDenseRegister(std::string_view hll, uint32_t index) {
  assert(!HllIsSparse(hll) && hll.size() == hll::kDenseSize);
  const auto* regs = reinterpret_cast<const uint8_t*>(hll.data()) + hll::kHeaderSize;
  return detail::DenseGet(regs, hll::kDenseSize - hll::kHeaderSize, index);
}

std::optional<uint64_t> HllCachedCount(std::string_view hll) {
  const auto* card = reinterpret_cast<const unsigned char*>(hll.data()) + kCardOffset;
  if (card[7] & kStaleBit) return std::nullopt;
  return LoadLittle64(card);
}

void HllSetCachedCount(std::string* hll, uint64_t count) {
  for (size_t i = 0; i < 8; i++) (*hll)[kCardOffset + i] = static_cast<char>(count >> (8 * i));
}

void HllInvalidateCache(std::string* hll) {
  (*hll)[kCardOffset + 7] = static_cast<char>((*hll)[kCardOffset + 7] | kStaleBit);
}

}  // namespace rankd
