// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// QuickList against a std::deque model with small and large chunks.

#include "core/quick_list.h"

#include <deque>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace rankd {
namespace {

std::vector<std::string> All(const QuickList& l, bool reverse = false) {
  std::vector<std::string> out;
  l.ForEach(0, l.size(), reverse, [&](std::string_view v) { out.emplace_back(v); });
  return out;
}

class QuickListModelTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(QuickListModelTest, MatchesModelAfterRandomOps) {
  const uint32_t seed = 7;
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  ListLimits limits{GetParam()};
  QuickList l;
  std::deque<std::string> model;
  for (int i = 0; i < 20000; i++) {
    std::string v(rng() % (rng() % 40 == 0 ? 300 : 10), static_cast<char>('a' + rng() % 26));
    switch (rng() % 8) {
      case 0: l.PushFront(v, limits); model.push_front(v); break;
      case 1: l.PushBack(v, limits); model.push_back(v); break;
      case 2:
        if (!model.empty()) { ASSERT_EQ(l.PopFront(), model.front()); model.pop_front(); }
        break;
      case 3:
        if (!model.empty()) { ASSERT_EQ(l.PopBack(), model.back()); model.pop_back(); }
        break;
      case 4: {
        size_t at = rng() % (model.size() + 1);
        l.Insert(at, v, limits);
        model.insert(model.begin() + at, v);
        break;
      }
      case 5:
        if (!model.empty()) {
          size_t at = rng() % model.size(), n = std::min<size_t>(rng() % 20, model.size() - at);
          l.Erase(at, n);
          model.erase(model.begin() + at, model.begin() + at + n);
        }
        break;
      case 6:
        if (!model.empty()) {
          size_t at = rng() % model.size();
          l.Replace(at, v, limits);
          model[at] = v;
        }
        break;
      default:
        if (!model.empty()) {
          size_t at = rng() % model.size();
          ASSERT_EQ(l.At(at), model[at]);
        }
    }
    ASSERT_EQ(l.size(), model.size());
    if (i % 500 == 0) ASSERT_TRUE(l.CheckInvariants());
  }
  ASSERT_TRUE(l.CheckInvariants());
  std::vector<std::string> expect(model.begin(), model.end());
  EXPECT_EQ(All(l), expect);
  EXPECT_EQ(All(*l.Clone()), expect);
  std::reverse(expect.begin(), expect.end());
  EXPECT_EQ(All(l, true), expect);
  if (model.size() > 10) {
    std::vector<std::string> mid;
    l.ForEach(3, 5, true, [&](std::string_view v) { mid.emplace_back(v); });
    EXPECT_EQ(mid, std::vector<std::string>(model.rbegin() + (model.size() - 8),
                                            model.rbegin() + (model.size() - 3)));
  }
}

INSTANTIATE_TEST_SUITE_P(Fill, QuickListModelTest, ::testing::Values(-2, -1, 3, 1, -5));

TEST(QuickListTest, LargeElementsGetTheirOwnChunk) {
  QuickList l;
  ListLimits limits{-1};
  l.PushBack(std::string(10000, 'x'), limits);
  l.PushBack("a", limits);
  l.PushFront(std::string(5000, 'y'), limits);
  EXPECT_EQ(l.chunk_count(), 3u);
  EXPECT_EQ(l.At(1).size(), 10000u);
  EXPECT_TRUE(l.CheckInvariants());
}

}  // namespace
}  // namespace rankd
