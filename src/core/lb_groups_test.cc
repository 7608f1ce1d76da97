// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CountedBTree's group-head summary (the distinct-score count behind dense
// ranks) against a std::set model, with production-sized and tiny nodes.
// Values are integers; a group is v / kWidth, so runs of equal "scores" of
// any length appear, and erasing a run's first value makes the next one a
// head (possibly in another leaf).

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <set>
#include <vector>

#include "core/counted_btree.h"

namespace rankd {
namespace {

struct GroupLess {
  uint32_t width = 10;
  bool operator()(uint32_t a, uint32_t b) const { return a < b; }
  bool SameGroup(uint32_t a, uint32_t b) const { return a / width == b / width; }
};

using BigTree = CountedBTree<uint32_t, GroupLess>;
using TinyTree = CountedBTree<uint32_t, GroupLess, 48, 128>;

static_assert(!CountedBTree<uint32_t, std::less<uint32_t>>::kGroups);
static_assert(BigTree::kGroups);
// Plain trees keep their layout: 59 handles per 256-byte leaf.
static_assert(CountedBTree<uint32_t, std::less<uint32_t>>::kLeafCap == 59);
static_assert(sizeof(CountedBTree<uint32_t, std::less<uint32_t>>::LeafNode) == 256);

template <typename Tree>
class GroupsTest : public ::testing::Test {};
using TreeTypes = ::testing::Types<BigTree, TinyTree>;
TYPED_TEST_SUITE(GroupsTest, TreeTypes);

// Distinct groups among the first k model values.
std::vector<uint64_t> PrefixGroups(const std::set<uint32_t>& model, uint32_t width) {
  std::vector<uint64_t> out{0};
  bool first = true;
  uint32_t prev = 0;
  for (uint32_t v : model) {
    out.push_back(out.back() + (first || prev / width != v / width ? 1 : 0));
    first = false;
    prev = v;
  }
  return out;
}

template <typename Tree>
void ExpectGroups(const Tree& tree, const std::set<uint32_t>& model, uint32_t width) {
  ASSERT_EQ(tree.CheckInvariants(), "");
  ASSERT_EQ(tree.size(), model.size());
  std::vector<uint64_t> prefix = PrefixGroups(model, width);
  ASSERT_EQ(tree.groups(), prefix.back());
  for (uint64_t k = 0; k <= model.size(); ++k) {
    ASSERT_EQ(tree.GroupsBefore(k), prefix[k]) << k;
  }
  // SelectGroup(g) is the first rank whose prefix count exceeds g.
  uint64_t g = 0;
  for (uint64_t k = 0; k < model.size(); ++k) {
    if (prefix[k + 1] != prefix[k]) {
      ASSERT_EQ(tree.SelectGroup(g++), k);
    }
  }
  // The composition rule: distinct(A+B) = distinct(A) + distinct(B) -
  // [last(A) ~ first(B)], for A = [0, a), B = [a, n).
  std::vector<uint32_t> vals(model.begin(), model.end());
  for (uint64_t a = 1; a < vals.size(); a += 7) {
    std::set<uint32_t> left, right;
    for (uint64_t j = 0; j < vals.size(); ++j) (j < a ? left : right).insert(vals[j] / width);
    uint64_t joined = vals[a - 1] / width == vals[a] / width;
    ASSERT_EQ(tree.groups(), left.size() + right.size() - joined);
    ASSERT_EQ(tree.groups() - tree.GroupsBefore(a) + joined, right.size());
  }
}

TYPED_TEST(GroupsTest, RandomOpsMatchModel) {
  for (uint32_t width : {1u, 3u, 50u, 1000u}) {
    const uint32_t seed = 7 + width;
    std::printf("seed %u width %u\n", seed, width);
    std::mt19937 rng(seed);
    TypeParam tree(GroupLess{width});
    std::set<uint32_t> model;
    for (int op = 0; op < 6000; ++op) {
      uint32_t v = rng() % 4000;
      if (rng() % 3 != 0) {
        if (model.insert(v).second) tree.Insert(v);
      } else if (auto r = tree.Find(v)) {
        ASSERT_EQ(tree.EraseAt(*r), v);
        model.erase(v);
      }
      if (op % 500 == 0) ExpectGroups(tree, model, width);
    }
    ExpectGroups(tree, model, width);
    // Drain from the front, the back and the middle.
    while (!model.empty()) {
      uint64_t r = model.size() % 3 == 0 ? 0 : model.size() % 3 == 1 ? model.size() - 1
                                                                      : model.size() / 2;
      uint32_t v = tree.EraseAt(r);
      model.erase(v);
      if (model.size() % 401 == 0) ExpectGroups(tree, model, width);
    }
    ExpectGroups(tree, model, width);
  }
}

TYPED_TEST(GroupsTest, OneBigGroupSplitByInserts) {
  // Every value in one group, then a value between two leaves' worth of it:
  // heads must stay exactly one, wherever the splits fall.
  TypeParam tree(GroupLess{100000});
  std::set<uint32_t> model;
  for (uint32_t v = 0; v < 3000; v += 2) tree.Insert(v), model.insert(v);
  ExpectGroups(tree, model, 100000);
  for (uint32_t v = 1; v < 3000; v += 6) tree.Insert(v), model.insert(v);
  ExpectGroups(tree, model, 100000);
  EXPECT_EQ(tree.groups(), 1u);
}

}  // namespace
}  // namespace rankd
