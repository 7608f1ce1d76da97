// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/zset_algebra.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace rankd {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(ZSetAlgebraTest, WeightedScoreReplacesNaNWithZero) {
  EXPECT_EQ(WeightedScore(2, 3), 6);
  EXPECT_EQ(WeightedScore(kInf, 0), 0);   // 0 * inf
  EXPECT_EQ(WeightedScore(-kInf, 0), 0);
  EXPECT_EQ(WeightedScore(kInf, -1), -kInf);
  EXPECT_EQ(WeightedScore(1e308, 10), kInf);  // overflow stays inf
}

TEST(ZSetAlgebraTest, SumOfOppositeInfinitiesIsZero) {
  double acc = kInf;
  AggregateInto(Aggregate::kSum, &acc, -kInf);
  EXPECT_EQ(acc, 0);
  acc = 1;
  AggregateInto(Aggregate::kSum, &acc, kNaN);  // a raw NaN product in ZINTER
  EXPECT_EQ(acc, 0);
  acc = 1.5;
  AggregateInto(Aggregate::kSum, &acc, 2);
  EXPECT_EQ(acc, 3.5);
}

TEST(ZSetAlgebraTest, MinMaxIgnoreNaNAndKeepInfinities) {
  double acc = 5;
  AggregateInto(Aggregate::kMin, &acc, kNaN);
  EXPECT_EQ(acc, 5);
  AggregateInto(Aggregate::kMax, &acc, kNaN);
  EXPECT_EQ(acc, 5);
  AggregateInto(Aggregate::kMin, &acc, -kInf);
  EXPECT_EQ(acc, -kInf);
  acc = 5;
  AggregateInto(Aggregate::kMax, &acc, kInf);
  EXPECT_EQ(acc, kInf);
}

TEST(ZSetAlgebraTest, InterFurtherInputsUseRawProduct) {
  // ZINTERSTORE d 2 a b WEIGHTS 1 0 AGGREGATE SUM with b's score inf:
  // the second product is NaN, so the sum becomes 0 (not 1 + 0).
  double acc = WeightedScore(1, 1);
  AggregateInterInput(Aggregate::kSum, &acc, kInf, 0);
  EXPECT_EQ(acc, 0);
  // Union folds the NaN-free weighted score instead: 1 + 0.
  acc = WeightedScore(1, 1);
  AggregateUnionInput(Aggregate::kSum, &acc, kInf, 0);
  EXPECT_EQ(acc, 1);
  // MAX with a NaN product keeps the accumulator.
  acc = 3;
  AggregateInterInput(Aggregate::kMax, &acc, kInf, 0);
  EXPECT_EQ(acc, 3);
}

}  // namespace
}  // namespace rankd
