// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CountedBTree::LocateAndPartition and Move (issue 16) against an
// order-statistic model, on values whose keys change in place: tiny nodes
// (many levels, moves at every leaf edge), production leaves (59 values)
// and 512-byte leaves (123 values, the 15-pivot search round), in trees of
// two levels and of three; and with slot codes (TreeSet's 96-value leaves,
// tiny ones): the invariants then include every code. Every step checks the located rank and the
// partition point, moves the value (Move when direct(), else EraseAt +
// InsertAt as TreeSet does), then checks all invariants (order, counts,
// separators and their cached hints, fill) and the moved value's rank.
// Scenarios: random keys with many ties (the index breaks them) and moves
// to before the first / after the last; moves all into one narrow key
// range (target leaves fill up: Move must refuse a full one); moves all
// out of one rank window (source leaves drain to their minimum).

#include <gtest/gtest.h>

#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "core/counted_btree.h"
#include "core/counted_btree_test_keys.h"

namespace rankd {
namespace {

// Values index `keys` (core/counted_btree_test_keys.h).
using KeyLess = KeyLessT<false>;
using CodedKeyLess = KeyLessT<true>;

// std::set with ranks (libstdc++'s policy tree).
using Model = __gnu_pbds::tree<std::pair<double, uint32_t>, __gnu_pbds::null_type,
                               std::less<std::pair<double, uint32_t>>, __gnu_pbds::rb_tree_tag,
                               __gnu_pbds::tree_order_statistics_node_update>;

// A tree of values 0..n-1 and its model; Set() changes one value's key.
template <typename Tree>
struct Harness {
  std::vector<double> keys;
  Tree tree{{&keys}};
  Model model;
  size_t in_leaf = 0, across = 0, fallback = 0;

  explicit Harness(const std::vector<double>& initial) : keys(initial) {
    for (uint32_t v = 0; v < keys.size(); ++v) {
      tree.Insert(v);
      model.insert({keys[v], v});
    }
  }

  // Gives v the key `key`, checking the search and then the whole tree.
  void Set(uint32_t v, double key) {
    typename Tree::Relocation r;
    tree.LocateAndPartition(Bound{&keys, keys[v], v, true}, v, Bound{&keys, key, v, false}, &r);
    ASSERT_EQ(r.from, model.order_of_key({keys[v], v}));
    ASSERT_EQ(r.to, model.order_of_key({key, v}));
    model.erase({keys[v], v});
    model.insert({key, v});
    if (r.direct()) {
      ++(r.in_one_leaf() ? in_leaf : across);
      keys[v] = key;
      tree.Move(r);
    } else {
      ++fallback;
      tree.EraseAt(r.from);
      keys[v] = key;
      tree.InsertAt(r.final_rank(), v);
    }
    ASSERT_EQ(tree.CheckInvariants(), "");
    ASSERT_EQ(tree.size(), model.size());
    const uint64_t rank = model.order_of_key({key, v});
    ASSERT_EQ(r.final_rank(), rank);
    ASSERT_EQ(tree.At(rank), v);
    ASSERT_EQ(tree.Find(v), std::optional<uint64_t>(rank));
  }

  // Every value in order.
  void ExpectSameOrder() const {
    auto cur = tree.Seek(0);
    for (const auto& [k, v] : model) {
      ASSERT_TRUE(cur.Valid());
      ASSERT_EQ(cur.value(), v);
      cur.Next();
    }
    ASSERT_FALSE(cur.Valid());
  }
};

// (tree type, element count, least height after building).
template <typename Tree, uint32_t kN, int kHeight>
struct Shape {
  using TreeType = Tree;
  static constexpr uint32_t n = kN;
  static constexpr int height = kHeight;
};
using Tiny = CountedBTree<uint32_t, KeyLess, 64, 128>;    // 11 values, 4 children
using Medium = CountedBTree<uint32_t, KeyLess>;           // 59 values, 18 children
using Large = CountedBTree<uint32_t, KeyLess, 512, 1024>; // 123 values, 36 children
// With slot codes: TreeSet's shape (96 values) and tiny leaves of 6.
using CodedTiny = CountedBTree<uint32_t, CodedKeyLess, 64, 128>;
using CodedLarge = CountedBTree<uint32_t, CodedKeyLess, 512, 1024>;
static_assert(CodedLarge::kCodes && !Large::kCodes && CodedLarge::kLeafCap == 96);
using Shapes = ::testing::Types<Shape<Tiny, 40, 2>, Shape<Tiny, 3000, 7>, Shape<Medium, 600, 1>,
                                Shape<Medium, 5000, 2>, Shape<Large, 2000, 1>,
                                Shape<Large, 12000, 2>, Shape<CodedTiny, 1000, 5>,
                                Shape<CodedLarge, 2000, 1>, Shape<CodedLarge, 12000, 2>>;

template <typename S>
class CountedBTreeMoveTest : public ::testing::Test {
 protected:
  using Tree = typename S::TreeType;
  // S::n values with integer keys in [0, range) (ties: the index decides),
  // drawn from rng_ seeded with `seed`.
  std::unique_ptr<Harness<Tree>> Build(uint64_t seed, uint32_t range) {
    std::printf("CountedBTreeMoveTest seed=%llu\n", static_cast<unsigned long long>(seed));
    rng_.seed(seed);
    std::vector<double> keys(S::n);
    for (double& k : keys) k = static_cast<double>(rng_() % range);
    auto h = std::make_unique<Harness<Tree>>(keys);
    EXPECT_GE(h->tree.height(), S::height);  // at least this many levels to move across
    return h;
  }
  // `steps` times: (value, new key) = next(), checked; then the whole order.
  void Run(Harness<Tree>& h, int steps, const std::function<std::pair<uint32_t, double>()>& next) {
    for (int step = 0; step < steps && !this->HasFatalFailure(); ++step) {
      const auto [v, key] = next();
      h.Set(v, key);
    }
    h.ExpectSameOrder();
  }
  std::mt19937_64 rng_;
};
TYPED_TEST_SUITE(CountedBTreeMoveTest, Shapes);

TYPED_TEST(CountedBTreeMoveTest, RandomKeysTiesAndEnds) {
  const uint32_t n = TypeParam::n;
  auto h = this->Build(11, n / 4 + 1);
  auto& rng = this->rng_;
  int step = 0;
  this->Run(*h, 6000, [&] {
    uint32_t v = static_cast<uint32_t>(rng() % n);
    if (step % 10 == 0) v = h->tree.At(0);      // the first value
    if (step % 10 == 1) v = h->tree.At(n - 1);  // the last value
    ++step;
    double key = h->keys[v];
    const double lo = h->model.begin()->first, hi = h->model.rbegin()->first;
    switch (rng() % 7) {
      case 0: key += 0.5; break;                                     // probably same leaf
      case 1: key += static_cast<double>(rng() % 41) - 20; break;    // near, leaf edges
      case 2: key = static_cast<double>(rng() % (n / 4 + 1)); break; // anywhere, ties
      case 3: key = lo - (rng() % 2); break;                         // first (tie or before)
      case 4: key = hi + (rng() % 2); break;                         // last (tie or after)
      case 5: break;                                                 // same key
      default: key = h->keys[h->tree.At(rng() % n)]; break;          // tie with a random one
    }
    return std::pair(v, key);
  });
  EXPECT_GT(h->across, 100u);
  EXPECT_GT(h->in_leaf, 100u);
}

TYPED_TEST(CountedBTreeMoveTest, IntoOneNarrowRangeFillsTargets) {
  // Everything moves into (500, 501): the leaves there fill, Move refuses a
  // full one and InsertAt splits it; the leaves left behind drain.
  auto h = this->Build(12, 1000);
  this->Run(*h, static_cast<int>(std::min(TypeParam::n, 3000u)), [&] {
    auto& rng = this->rng_;
    return std::pair(static_cast<uint32_t>(rng() % TypeParam::n),
                     500.0 + static_cast<double>(rng() % 1000000 + 1) / 1e6 * 0.999);
  });
  EXPECT_GT(h->across, 10u);
  EXPECT_GT(h->fallback, 0u);
}

TYPED_TEST(CountedBTreeMoveTest, OutOfOneRankWindowDrainsSources) {
  const uint32_t n = TypeParam::n;
  auto h = this->Build(13, 1000);
  auto& rng = this->rng_;
  // Values at ranks near n/2 move far away: their leaves drain to the
  // minimum, Move refuses to take more from them and EraseAt refills them.
  const uint64_t window = std::min<uint64_t>(n / 4, 3 * TestFixture::Tree::kLeafCap);
  this->Run(*h, 2000, [&] {
    const uint32_t v = h->tree.At(n / 2 + rng() % window);
    const double key = rng() % 2 ? static_cast<double>(rng() % 100)           // far below
                                 : 900.0 + static_cast<double>(rng() % 100);  // far above
    return std::pair(v, key);
  });
  EXPECT_GT(h->across, 10u);
  EXPECT_GT(h->fallback, 0u);
}

}  // namespace
}  // namespace rankd
