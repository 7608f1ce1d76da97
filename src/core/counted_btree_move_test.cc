// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CountedBTree::LocateAndPartition and MoveInLeaf (issue 16) against a
// std::set model, on values whose keys change in place: tiny nodes (many
// leaves, moves at every leaf edge), production leaves (59 values) and
// 512-byte leaves (123 values, the 15-pivot search round). Each step checks
// the located rank, the partition point, and after each batch the
// invariants, which include every separator's cached hint.

#include <gtest/gtest.h>

#include <cstdio>
#include <iterator>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "core/counted_btree.h"

namespace rankd {
namespace {

// Values are indices into `keys`; order is (key, index), hint is the key.
struct KeyLess {
  const std::vector<double>* keys;
  bool operator()(uint32_t a, uint32_t b) const {
    return std::pair((*keys)[a], a) < std::pair((*keys)[b], b);
  }
  double HintOf(uint32_t v) const { return (*keys)[v]; }
};

// "x < (key, v)" or "x <= (key, v)", with the hint and prefetch hooks.
struct Bound {
  const std::vector<double>* keys;
  double key;
  uint32_t v;
  bool inclusive;
  bool operator()(uint32_t x) const {
    const double k = (*keys)[x];
    if (k != key) return k < key;
    return inclusive ? x <= v : x < v;
  }
  int Decide(double hint) const { return hint == key ? -1 : hint < key; }
  void Prefetch(uint32_t x) const { __builtin_prefetch(&(*keys)[x]); }
};

using Model = std::set<std::pair<double, uint32_t>>;

template <typename Tree>
class CountedBTreeMoveTest : public ::testing::Test {};
using TreeTypes = ::testing::Types<CountedBTree<uint32_t, KeyLess, 64, 128>,
                                   CountedBTree<uint32_t, KeyLess>,
                                   CountedBTree<uint32_t, KeyLess, 512, 512>>;
TYPED_TEST_SUITE(CountedBTreeMoveTest, TreeTypes);

TYPED_TEST(CountedBTreeMoveTest, KeyChangesMatchModel) {
  const uint64_t seed = 11;
  std::printf("CountedBTreeMoveTest seed=%llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  const uint32_t n = 5000;
  std::vector<double> keys(n);
  TypeParam tree(KeyLess{&keys});
  Model model;
  for (uint32_t v = 0; v < n; ++v) {
    keys[v] = static_cast<double>(rng() % 1000);  // ties: the index decides
    tree.Insert(v);
    model.emplace(keys[v], v);
  }
  size_t in_leaf = 0;
  for (int batch = 0; batch < 8; ++batch) {
    for (int step = 0; step < 2000; ++step) {
      const uint32_t v = static_cast<uint32_t>(rng() % n);
      double key = keys[v];
      switch (rng() % 3) {
        case 0: key += 0.5; break;                                    // within a leaf
        case 1: key += static_cast<double>(rng() % 41) - 20; break;   // near, edges
        default: key = static_cast<double>(rng() % 1000); break;      // anywhere
      }
      const auto [spot, to] = tree.LocateAndPartition(Bound{&keys, keys[v], v, true}, v,
                                                      Bound{&keys, key, v, false});
      const auto old_rank =
          static_cast<uint64_t>(std::distance(model.begin(), model.find({keys[v], v})));
      ASSERT_EQ(spot.rank, old_rank);
      ASSERT_EQ(to, static_cast<uint64_t>(
                        std::distance(model.begin(), model.lower_bound({key, v}))));
      model.erase({keys[v], v});
      model.emplace(key, v);
      if ((!spot.has_lo || spot.lo < key) && (!spot.has_hi || key < spot.hi)) {
        keys[v] = key;
        tree.MoveInLeaf(spot, Bound{&keys, key, v, false});
        ++in_leaf;
      } else {
        tree.EraseAt(spot.rank);
        keys[v] = key;
        tree.InsertAt(to > spot.rank ? to - 1 : to, v);
      }
    }
    ASSERT_EQ(tree.CheckInvariants(), "");
    auto cur = tree.Seek(0);
    for (const auto& [k, v] : model) {
      ASSERT_EQ(cur.value(), v);
      cur.Next();
    }
  }
  EXPECT_GT(in_leaf, 1000u);  // the in-leaf path was exercised
}

}  // namespace
}  // namespace rankd
