// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CountedBTree against a std::set reference model, with production-sized
// nodes and with tiny nodes (deep trees, frequent splits and merges).

#include "core/counted_btree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <iterator>
#include <random>
#include <set>
#include <vector>

namespace rankd {
namespace {

using BigTree = CountedBTree<uint32_t, std::less<uint32_t>>;
using TinyTree = CountedBTree<uint32_t, std::less<uint32_t>, 48, 96>;

template <typename Tree>
class CountedBTreeTest : public ::testing::Test {};
using TreeTypes = ::testing::Types<BigTree, TinyTree>;
TYPED_TEST_SUITE(CountedBTreeTest, TreeTypes);

template <typename Tree>
void ExpectSame(const Tree& tree, const std::set<uint32_t>& model) {
  ASSERT_EQ(tree.CheckInvariants(), "");
  ASSERT_EQ(tree.size(), model.size());
  auto cur = tree.Seek(0);
  for (uint32_t v : model) {
    ASSERT_TRUE(cur.Valid());
    ASSERT_EQ(cur.value(), v);
    cur.Next();
  }
  ASSERT_FALSE(cur.Valid());
  if (model.empty()) return;
  auto back = tree.Seek(model.size() - 1);
  for (auto it = model.rbegin(); it != model.rend(); ++it) {
    ASSERT_TRUE(back.Valid());
    ASSERT_EQ(back.value(), *it);
    back.Prev();
  }
  ASSERT_FALSE(back.Valid());
}

TYPED_TEST(CountedBTreeTest, EmptyTree) {
  TypeParam tree;
  EXPECT_EQ(tree.size(), 0u);
  EXPECT_FALSE(tree.Seek(0).Valid());
  EXPECT_EQ(tree.PartitionPoint([](uint32_t) { return true; }), 0u);
  EXPECT_EQ(tree.CheckInvariants(), "");
  EXPECT_EQ(tree.MemoryUsage(), 0u);
}

TYPED_TEST(CountedBTreeTest, SequentialAppendAndDrain) {
  TypeParam tree;
  std::set<uint32_t> model;
  for (uint32_t i = 0; i < 5000; ++i) {
    tree.InsertAt(i, i * 2);
    model.insert(i * 2);
  }
  ExpectSame(tree, model);
  // Appending fills leaves almost completely (siblings absorb overflow).
  if (TypeParam::kLeafCap > 20) {
    EXPECT_LT(tree.MemoryUsage(), 5000 * sizeof(uint32_t) * 1.45);
  }
  while (!tree.empty()) {
    uint32_t v = tree.EraseAt(0);
    EXPECT_EQ(v, *model.begin());
    model.erase(model.begin());
    if (model.size() % 97 == 0) ExpectSame(tree, model);
  }
  EXPECT_EQ(tree.MemoryUsage(), 0u);
}

TYPED_TEST(CountedBTreeTest, RandomOpsMatchModel) {
  const uint32_t seed = 20260101;
  std::printf("CountedBTreeTest seed=%u\n", seed);
  std::mt19937 rng(seed);
  TypeParam tree;
  std::set<uint32_t> model;
  for (int round = 0; round < 40; ++round) {
    // Alternate growth and shrink phases so merges and collapses happen.
    bool grow = (round % 4) != 3;
    for (int op = 0; op < 2500; ++op) {
      uint32_t v = rng() % 20000;
      int kind = rng() % 10;
      if (kind < (grow ? 6 : 3)) {
        if (model.insert(v).second) {
          uint64_t rank = tree.Insert(v);
          ASSERT_EQ(rank, std::distance(model.begin(), model.find(v)));
        }
      } else if (kind < 9) {
        auto found = tree.Find(v);
        ASSERT_EQ(found.has_value(), model.count(v) == 1);
        if (found) {
          tree.EraseAt(*found);
          model.erase(v);
        }
      } else if (!model.empty()) {
        uint64_t rank = rng() % model.size();
        auto it = std::next(model.begin(), rank);
        ASSERT_EQ(tree.At(rank), *it);
        ASSERT_EQ(tree.EraseAt(rank), *it);
        model.erase(it);
      }
    }
    ExpectSame(tree, model);
    for (int q = 0; q < 200; ++q) {
      uint32_t v = rng() % 20001;
      uint64_t lower = std::distance(model.begin(), model.lower_bound(v));
      ASSERT_EQ(tree.PartitionPoint([&](uint32_t x) { return x < v; }), lower);
    }
  }
}

TYPED_TEST(CountedBTreeTest, MapValuesRefreshesSeparators) {
  TypeParam tree;
  for (uint32_t i = 0; i < 3000; ++i) tree.InsertAt(i, i * 3);
  tree.MapValues([](uint32_t x) { return x * 2 + 1; });
  ASSERT_EQ(tree.CheckInvariants(), "");
  for (uint32_t i = 0; i < 3000; i += 7) {
    EXPECT_EQ(tree.At(i), i * 6 + 1);
    EXPECT_EQ(tree.Find(i * 6 + 1), i);
  }
}

// InsertWhere (search and insert in one descent) in orders that insert at
// every leaf's start and end, split the root, and fill leaves from both
// sides; each returned rank and the whole tree checked against the model.
TYPED_TEST(CountedBTreeTest, InsertWhereMatchesModel) {
  const uint64_t seed = std::random_device{}();
  std::printf("InsertWhere seed=%llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  constexpr uint32_t kN = 3000;
  std::vector<std::vector<uint32_t>> orders(4);
  for (uint32_t i = 0; i < kN; ++i) {
    orders[0].push_back(i);                                  // always at the end
    orders[1].push_back(kN - i);                             // always at the start
    orders[2].push_back(i % 2 ? i : 2 * kN - i);             // both ends in turn
    orders[3].push_back(static_cast<uint32_t>(rng() >> 40));  // anywhere
  }
  for (const auto& order : orders) {
    TypeParam tree;
    std::set<uint32_t> model;
    for (uint32_t v : order) {
      if (!model.insert(v).second) continue;
      const uint64_t rank = tree.InsertWhere([&](uint32_t x) { return x < v; }, v);
      ASSERT_EQ(rank, static_cast<uint64_t>(std::distance(model.begin(), model.find(v))));
      if (model.size() % 97 == 0) ExpectSame(tree, model);
    }
    ExpectSame(tree, model);
  }
}

TEST(CountedBTreeLayout, NodeSizesFollowByteBudgets) {
  EXPECT_EQ(sizeof(BigTree::LeafNode), 256u);
  EXPECT_LE(sizeof(BigTree::InnerNode), 512u);
  EXPECT_EQ(BigTree::kLeafCap, 59u);
  EXPECT_EQ(BigTree::kInnerCap, 24u);  // a 1-byte hint placeholder per child
}

}  // namespace
}  // namespace rankd
