// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// A comparator and a search bound for CountedBTree tests over values that
// index a key vector: order (key, index), hint the key; with kCoded, leaves
// keep slot codes of the keys as TreeSet's do (issue 34). Tests only.

#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace rankd {

template <bool kCoded>
struct KeyLessT {
  const std::vector<double>* keys;
  bool operator()(uint32_t a, uint32_t b) const {
    return std::pair((*keys)[a], a) < std::pair((*keys)[b], b);
  }
  double HintOf(uint32_t v) const { return (*keys)[v]; }
  static constexpr bool kSlotCodes = kCoded;
  void Prefetch(uint32_t v) const { __builtin_prefetch(&(*keys)[v]); }
};

// "x < (key, v)" or "x <= (key, v)", with the hint, guess and prefetch
// hooks TreeSet's search uses; counts its calls (the value reads a
// record-backed tree pays) in *calls when given.
struct Bound {
  const std::vector<double>* keys;
  double key;
  uint32_t v;
  bool inclusive;
  int* calls = nullptr;
  bool operator()(uint32_t x) const {
    if (calls != nullptr) ++*calls;
    const double k = (*keys)[x];
    if (k != key) return k < key;
    return inclusive ? x <= v : x < v;
  }
  int Decide(double hint) const { return hint == key ? -1 : hint < key; }
  double Target() const { return key; }
  void Prefetch(uint32_t x) const { __builtin_prefetch(&(*keys)[x]); }
};

}  // namespace rankd
