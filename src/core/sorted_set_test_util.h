// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Test helpers for SortedSet: a reference model built from std::map and
// std::set that implements Redis's ZADD rules independently, and random
// generators for members and scores. Test-only.

#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>

#include "core/sorted_set.h"

namespace rankd::testing {

// Scores compare as doubles in the model too, so -0.0 and 0.0 tie and the
// member decides, as in SortedSet.
class ZSetModel {
 public:
  std::map<std::string, double> scores;
  std::set<std::pair<double, std::string>> order;

  AddResult Add(const std::string& m, double score, const AddOptions& o) {
    using K = AddResult::Kind;
    auto it = scores.find(m);
    if (it == scores.end()) {
      if (o.xx) return {K::kSkipped, score};
      scores.emplace(m, score);
      order.emplace(score, m);
      return {K::kAdded, score};
    }
    const double cur = it->second;
    if (o.nx) return {K::kSkipped, cur};
    const double next = o.incr ? cur + score : score;
    if (std::isnan(next)) return {K::kNaN, cur};
    if ((o.gt && !(next > cur)) || (o.lt && !(next < cur))) return {K::kSkipped, cur};
    if (next == cur) return {K::kUnchanged, cur};
    order.erase({cur, m});
    order.emplace(next, m);
    it->second = next;
    return {K::kUpdated, next};
  }

  bool Remove(const std::string& m) {
    auto it = scores.find(m);
    if (it == scores.end()) return false;
    order.erase({it->second, m});
    scores.erase(it);
    return true;
  }
};

inline bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Members: binary bytes (NUL included), lengths 0..max_len, from a fixed
// pool so that operations hit existing members often.
inline std::string RandomMember(std::mt19937_64& rng, size_t max_len) {
  size_t len = rng() % (max_len + 1);
  std::string s(len, '\0');
  const bool binary = rng() % 4 == 0;
  for (char& c : s) c = binary ? static_cast<char>(rng()) : static_cast<char>('a' + rng() % 4);
  return s;
}

// Scores with many ties and every special value Redis allows.
inline double RandomScore(std::mt19937_64& rng) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  static const double kSpecial[] = {-kInf, kInf, -0.0, 0.0, 1.0, -1.0, 2.5, 1e308, -1e308,
                                    5e-324};
  switch (rng() % 4) {
    case 0: return kSpecial[rng() % std::size(kSpecial)];
    case 1: return static_cast<double>(rng() % 5);
    case 2: return static_cast<double>(static_cast<int64_t>(rng() % 2001) - 1000) / 4;
    default: return std::uniform_real_distribution<double>(-1e6, 1e6)(rng);
  }
}

inline AddOptions RandomOptions(std::mt19937_64& rng) {
  AddOptions o;
  switch (rng() % 8) {
    case 0: o.nx = true; break;
    case 1: o.xx = true; break;
    case 2: o.gt = true; break;
    case 3: o.lt = true; break;
    case 4: o.xx = o.gt = true; break;
    default: break;
  }
  o.incr = rng() % 4 == 0;
  return o;
}

}  // namespace rankd::testing
