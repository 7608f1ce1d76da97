// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/decimal.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

namespace rankd {
namespace {

std::string ToChars(uint64_t v) {
  char buf[24];
  return std::string(buf, std::to_chars(buf, buf + sizeof(buf), v).ptr);
}

void ExpectSame(uint64_t v) {
  const std::string want = ToChars(v);
  ASSERT_EQ(DecimalDigits(v), static_cast<int>(want.size())) << v;
  char buf[24];
  ASSERT_EQ(std::string(buf, WriteDecimal(buf, v)), want) << v;
}

// Every power of two and of ten, one either side, and random values of every width.
TEST(DecimalTest, MatchesToChars) {
  for (int b = 0; b < 64; b++) {
    for (int d = -2; d <= 2; d++) ExpectSame((uint64_t{1} << b) + static_cast<uint64_t>(d));
  }
  uint64_t p = 1;
  for (int i = 0; i < 20; i++, p *= 10) {
    for (uint64_t v : {p - 1, p, p + 1}) ExpectSame(v);
  }
  ExpectSame(0);
  ExpectSame(UINT64_MAX);
  std::mt19937_64 rng(34);
  for (int i = 0; i < 200000; i++) ExpectSame(rng() >> (rng() % 64));
}

void ExpectSmallSame(uint64_t v) {
  const std::string want = ToChars(v);
  const SmallDecimal text(v);
  ASSERT_EQ(text.len, static_cast<int>(want.size())) << v;
  char buf[32];
  std::memset(buf, 'x', sizeof(buf));
  ASSERT_EQ(text.Store(buf), buf + want.size()) << v;
  ASSERT_EQ(std::string(buf, want.size()), want) << v;
}

// Every value below 10^4 and around every power of ten and two below 10^16;
// random values of every width; eight digits of each lane's edge values.
TEST(DecimalTest, SmallDecimalMatchesToChars) {
  for (uint64_t v = 0; v < 10000; v++) ExpectSmallSame(v);
  uint64_t p = 1;
  for (int i = 0; i < 16; i++, p *= 10) {
    for (uint64_t d = 0; d < 3; d++) {
      ExpectSmallSame(p + d);
      if (p > d) ExpectSmallSame(p - 1 - d);
      ExpectSmallSame(p * 9 + d);
    }
  }
  for (int b = 0; b < 54; b++) ExpectSmallSame(uint64_t{1} << b);
  ExpectSmallSame(SmallDecimal::kLimit - 1);
  std::mt19937_64 rng(34);
  for (int i = 0; i < 300000; i++) ExpectSmallSame((rng() >> (rng() % 64)) % SmallDecimal::kLimit);
  for (uint64_t v = 0; v < 100000000; v += 9973) {  // every lane value, spread out
    char want[9];
    std::snprintf(want, sizeof(want), "%08llu", static_cast<unsigned long long>(v));
    const uint64_t d = EightDigits(v);
    for (int k = 0; k < 8; k++) ASSERT_EQ(static_cast<int>((d >> (8 * k)) & 0xFF), want[k] - '0') << v;
  }
}

TEST(DecimalTest, DoubleAsIntegerOnlyForExactIntegersBelow1e17) {
  int64_t i = 0;
  EXPECT_TRUE(DoubleAsInteger(-42, &i) && i == -42);
  EXPECT_TRUE(DoubleAsInteger(99999999999999984.0, &i) && i == 99999999999999984);
  EXPECT_FALSE(DoubleAsInteger(1e17, &i));
  EXPECT_FALSE(DoubleAsInteger(0.5, &i));
  EXPECT_FALSE(DoubleAsInteger(-0.0, &i));  // "%.17g" keeps the sign
  EXPECT_TRUE(DoubleAsInteger(0.0, &i) && i == 0);
}

}  // namespace
}  // namespace rankd
