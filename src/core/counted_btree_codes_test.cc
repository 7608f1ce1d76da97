// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CountedBTree slot codes (issue 34) against a model, on keys that strain a
// leaf's quantization: infinities, +-DBL_MAX, subnormals, -0.0, huge keys
// with tiny spreads (timestamps in ms), long runs of one key, and plain
// random keys. Each round inserts (InsertWhere), erases and searches
// (PartitionPoint with Target(), exclusive and inclusive), checks every
// answer against a sorted model and the invariants (which include every
// code), and counts how many inserts the codes placed alone.

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "core/counted_btree.h"
#include "core/counted_btree_test_keys.h"

namespace rankd {
namespace {

// Values index `keys`; order (key, index); the hint is the key.
using CodedLess = KeyLessT<true>;

using Tree = CountedBTree<uint32_t, CodedLess, 512, 1024>;
static_assert(Tree::kCodes && Tree::kLeafCap == 96);
static_assert(sizeof(Tree::LeafNode) == 512);
static_assert(!CountedBTree<uint32_t, std::less<uint32_t>>::kCodes);

// Runs `rounds` of insert / erase / search with keys from `draw`; returns
// the share of inserts whose search called pred nowhere (codes alone; the
// searches after an insert look for a key now present, a tie by design).
template <typename Draw>
double Exercise(uint64_t seed, int rounds, Draw draw) {
  std::printf("CountedBTreeCodesTest seed=%llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  std::vector<double> keys;
  Tree tree{{&keys}};
  std::vector<std::pair<double, uint32_t>> model;  // sorted
  int inserts = 0, settled = 0;
  for (int round = 0; round < rounds; ++round) {
    const double k = draw(rng);
    const bool erase = !model.empty() && rng() % 3 == 0;
    if (erase) {
      const size_t i = rng() % model.size();
      EXPECT_EQ(tree.EraseAt(i), model[i].second);
      model.erase(model.begin() + static_cast<long>(i));
    } else {
      const uint32_t v = static_cast<uint32_t>(keys.size());
      keys.push_back(k);
      int calls = 0;
      const uint64_t rank = tree.InsertWhere(Bound{&keys, k, v, false, &calls}, v);
      ++inserts;
      settled += calls == 0;
      const auto it = std::lower_bound(model.begin(), model.end(), std::pair(k, v));
      EXPECT_EQ(rank, static_cast<uint64_t>(it - model.begin()));
      model.insert(it, {k, v});
    }
    for (bool inclusive : {false, true}) {
      const uint32_t v = static_cast<uint32_t>(rng() % (keys.size() + 1));
      int calls = 0;
      const uint64_t got = tree.PartitionPoint(Bound{&keys, k, v, inclusive, &calls});
      const auto want = inclusive ? std::upper_bound(model.begin(), model.end(), std::pair(k, v))
                                  : std::lower_bound(model.begin(), model.end(), std::pair(k, v));
      EXPECT_EQ(got, static_cast<uint64_t>(want - model.begin())) << "key " << k;
    }
    if (round % 97 == 0 || round + 1 == rounds) {
      EXPECT_EQ(tree.CheckInvariants(), "");
      if (::testing::Test::HasFailure()) break;
    }
  }
  return static_cast<double>(settled) / inserts;
}

TEST(CountedBTreeCodesTest, RandomKeysMostlySettleByCodes) {
  const double share = Exercise(1, 30000, [](std::mt19937_64& rng) {
    return static_cast<double>(rng() % 1000000000) / 1000.0;
  });
  std::printf("settled by codes alone: %.3f\n", share);
  EXPECT_GT(share, 0.5);  // ~2/3 expected; the structure, not a timing
}

TEST(CountedBTreeCodesTest, HostileKeysStayCorrect) {
  const double kInf = std::numeric_limits<double>::infinity();
  const double special[] = {-kInf, kInf, -DBL_MAX, DBL_MAX, DBL_MIN, -DBL_MIN, 4.9e-324,
                            -4.9e-324, 0.0, -0.0, 1.0, -1.0};
  Exercise(2, 20000, [&](std::mt19937_64& rng) {
    switch (rng() % 5) {
      case 0: return special[rng() % std::size(special)];
      case 1: return 1.7e12 + static_cast<double>(rng() % 1000);  // ms timestamps
      case 2: return 42.0;                                        // one long run of ties
      case 3: return static_cast<double>(static_cast<int64_t>(rng())) * 1e290;
      default: return static_cast<double>(rng() % 100);
    }
  });
}

TEST(CountedBTreeCodesTest, AscendingAndDescendingLoads) {
  // Appends at either end: the growing edge leaf's codes clamp until a
  // split recodes it.
  int i = 0;
  Exercise(3, 8000, [&](std::mt19937_64&) { return static_cast<double>(i++); });
  Exercise(4, 8000, [&](std::mt19937_64&) { return static_cast<double>(-i++); });
}

}  // namespace
}  // namespace rankd
