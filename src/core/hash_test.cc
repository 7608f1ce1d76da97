// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Hash against a std::map model, under both encodings (tiny limits force
// conversions), plus listpack order and field deadlines.

#include "core/hash.h"

#include <map>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace rankd {
namespace {

std::map<std::string, std::string> Contents(const Hash& h) {
  std::map<std::string, std::string> out;
  h.ForEach([&](std::string_view f, std::string_view v) { out[std::string(f)] = std::string(v); });
  return out;
}

class HashModelTest : public ::testing::TestWithParam<size_t> {};

TEST_P(HashModelTest, MatchesModelAfterRandomOps) {
  const uint32_t seed = 42;
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  HashLimits limits{GetParam(), 16};
  Hash h;
  std::map<std::string, std::string> model;
  for (int i = 0; i < 20000; i++) {
    std::string f = "f" + std::to_string(rng() % 300);
    if (rng() % 3) {
      std::string v(rng() % (rng() % 50 == 0 ? 200 : 12), static_cast<char>('a' + rng() % 26));
      EXPECT_EQ(h.Set(f, v, limits), !model.count(f));
      model[f] = v;
    } else {
      EXPECT_EQ(h.Delete(f), model.erase(f) == 1);
    }
    ASSERT_EQ(h.size(), model.size());
    auto got = h.Get(f);
    ASSERT_EQ(got.has_value(), model.count(f) == 1);
    if (got) ASSERT_EQ(*got, model[f]);
  }
  EXPECT_EQ(Contents(h), model);
  EXPECT_EQ(Contents(*h.Clone()), model);
  std::map<std::string, std::string> scanned;
  uint64_t cursor = 0;
  do {
    cursor = h.Scan(cursor, 10, [&](std::string_view f, std::string_view v) {
      scanned[std::string(f)] = std::string(v);
    });
  } while (cursor != 0);
  EXPECT_EQ(scanned, model);
}

INSTANTIATE_TEST_SUITE_P(Encodings, HashModelTest, ::testing::Values(4, 512, 100000));

TEST(HashTest, ListpackKeepsInsertionOrderAndConverts) {
  HashLimits limits{3, 8};
  Hash h;
  h.Set("b", "1", limits);
  h.Set("a", "2", limits);
  h.Set("b", "3", limits);  // in place
  std::string order;
  h.ForEach([&](std::string_view f, std::string_view v) { order += std::string(f) + std::string(v); });
  EXPECT_EQ(order, "b3a2");
  EXPECT_EQ(h.EncodingName(), "listpack");
  h.Set("c", "123456789", limits);  // value too long
  EXPECT_EQ(h.EncodingName(), "hashtable");
  EXPECT_EQ(h.size(), 3u);
  Hash g;
  for (int i = 0; i < 4; i++) g.Set(std::to_string(i), "x", limits);  // too many
  EXPECT_EQ(g.EncodingName(), "hashtable");
}

// Overwrites in a listpack: an equal-length value in place (order and
// memory unchanged), shorter and longer ones by moving the rest; entries
// of 128+ bytes use the long entry form.
TEST(HashTest, ListpackOverwritesKeepOrder) {
  HashLimits limits{512, 200};
  Hash h;
  EXPECT_TRUE(h.Set("a", "111", limits));
  EXPECT_TRUE(h.Set("b", "222", limits));
  EXPECT_TRUE(h.Set("c", "333", limits));
  const size_t mem = h.MemoryUsage();
  for (int i = 0; i < 100; i++) EXPECT_FALSE(h.Set("b", std::to_string(100 + i % 900), limits));
  EXPECT_EQ(h.MemoryUsage(), mem);
  EXPECT_EQ(*h.Get("b"), "199");
  EXPECT_FALSE(h.Set("a", "", limits));
  EXPECT_FALSE(h.Set("c", std::string(150, 'x'), limits));
  EXPECT_FALSE(h.Set("b", std::string(150, 'y'), limits));  // long form, same length
  EXPECT_FALSE(h.Set("b", "z", limits));
  std::vector<std::string> order;
  h.ForEach([&](std::string_view f, std::string_view v) {
    order.push_back(std::string(f) + "=" + std::string(v));
  });
  EXPECT_EQ(order, (std::vector<std::string>{"a=", "b=z", "c=" + std::string(150, 'x')}));
  EXPECT_TRUE(h.is_listpack());
  EXPECT_EQ(h.size(), 3u);
  auto copy = h.Clone();
  EXPECT_EQ(Contents(*copy), Contents(h));
}

TEST(HashTest, CloneOfAnEmptiedListpack) {
  Hash h;
  HashLimits limits;
  h.Set("f", "v", limits);
  h.Delete("f");
  std::unique_ptr<Hash> c = h.Clone();
  EXPECT_TRUE(c->empty());
  EXPECT_TRUE(c->Set("g", "w", limits));
  EXPECT_EQ(*c->Get("g"), "w");
}

TEST(HashTest, FieldDeadlines) {
  Hash h;
  HashLimits limits;
  h.Set("a", "1", limits);
  h.Set("b", "2", limits);
  EXPECT_EQ(h.FieldExpire("a"), -1);
  h.SetFieldExpire("a", 100);
  h.SetFieldExpire("b", 50);
  EXPECT_TRUE(h.has_field_deadlines());
  EXPECT_EQ(h.NextFieldDeadline(), 50);
  EXPECT_EQ(h.RemoveExpired(49).size(), 0u);
  EXPECT_EQ(h.RemoveExpired(60), std::vector<std::string>{"b"});
  h.Set("a", "x", limits);  // overwriting persists the field
  EXPECT_EQ(h.FieldExpire("a"), -1);
  EXPECT_FALSE(h.has_field_deadlines());
}

}  // namespace
}  // namespace rankd
