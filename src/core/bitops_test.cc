// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// core/bitops against a bit-by-bit model on random strings and ranges, and
// BITFIELD overflow arithmetic on the cases Redis 7.0 documents.

#include "core/bitops.h"

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace rankd {
namespace {

std::string RandomBytes(std::mt19937_64& rng, size_t n) {
  std::string s(n, '\0');
  for (char& c : s) {
    const int r = static_cast<int>(rng() % 4);  // many all-0 and all-1 bytes
    c = static_cast<char>(r == 0 ? 0 : r == 1 ? 0xFF : static_cast<int>(rng() & 0xFF));
  }
  return s;
}

TEST(BitOpsTest, GetSetBitMostSignificantFirst) {
  std::string s(2, '\0');
  SetBit(&s, 0, true);
  SetBit(&s, 15, true);
  EXPECT_EQ(s, std::string("\x80\x01", 2));
  EXPECT_TRUE(GetBit(s, 0));
  EXPECT_FALSE(GetBit(s, 1));
  EXPECT_FALSE(GetBit(s, 1000));  // past the end reads 0
  SetBit(&s, 0, false);
  EXPECT_EQ(s[0], '\0');
}

TEST(BitOpsTest, CountAndFindMatchModel) {
  const uint64_t seed = 20261201;
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  for (int iter = 0; iter < 3000; iter++) {
    const std::string s = RandomBytes(rng, 1 + rng() % 40);
    const uint64_t nbits = s.size() * 8;
    uint64_t first = rng() % nbits, last = rng() % nbits;
    if (first > last) std::swap(first, last);
    uint64_t count = 0;
    int64_t first_one = -1, first_zero = -1;
    for (uint64_t i = first; i <= last; i++) {
      const bool b = GetBit(s, i);
      count += b;
      if (b && first_one < 0) first_one = static_cast<int64_t>(i);
      if (!b && first_zero < 0) first_zero = static_cast<int64_t>(i);
    }
    ASSERT_EQ(CountBits(s, first, last), count) << iter;
    ASSERT_EQ(FindBit(s, true, first, last), first_one) << iter;
    ASSERT_EQ(FindBit(s, false, first, last), first_zero) << iter;
  }
}

TEST(BitOpsTest, BitOpPadsShortSources) {
  const std::string a("\xF0\x0F\xFF", 3), b("\xFF", 1);
  const std::vector<std::string_view> ab = {a, b};
  EXPECT_EQ(BitOp(BitOpKind::kAnd, ab), std::string("\xF0\x00\x00", 3));
  EXPECT_EQ(BitOp(BitOpKind::kOr, ab), std::string("\xFF\x0F\xFF", 3));
  EXPECT_EQ(BitOp(BitOpKind::kXor, ab), std::string("\x0F\x0F\xFF", 3));
  const std::vector<std::string_view> just_a = {a};
  EXPECT_EQ(BitOp(BitOpKind::kNot, just_a), std::string("\x0F\xF0\x00", 3));
  const std::vector<std::string_view> empty = {std::string_view()};
  EXPECT_EQ(BitOp(BitOpKind::kOr, empty), "");
}

TEST(BitOpsTest, BitFieldGetSetUnaligned) {
  std::string s(3, '\0');
  const BitFieldType u5{false, 5}, i5{true, 5};
  SetBitField(&s, 3, u5, 0x1F);
  EXPECT_EQ(s, std::string("\x1F\x00\x00", 3));
  EXPECT_EQ(GetBitField(s, 3, u5), 31);
  EXPECT_EQ(GetBitField(s, 3, i5), -1);
  SetBitField(&s, 6, BitFieldType{false, 4}, 0xA);
  EXPECT_EQ(GetBitField(s, 6, BitFieldType{false, 4}), 0xA);
  EXPECT_EQ(GetBitField(s, 20, BitFieldType{true, 64}), 0);  // zero-padded
}

TEST(BitOpsTest, BitFieldOverflowModes) {
  const BitFieldType i8{true, 8}, u2{false, 2}, i64{true, 64};
  int64_t out;
  ASSERT_TRUE(BitFieldAdd(i8, 100, 100, BitFieldOverflow::kWrap, &out));
  EXPECT_EQ(out, -56);
  ASSERT_TRUE(BitFieldAdd(i8, 100, 100, BitFieldOverflow::kSat, &out));
  EXPECT_EQ(out, 127);
  ASSERT_TRUE(BitFieldAdd(i8, -100, -100, BitFieldOverflow::kSat, &out));
  EXPECT_EQ(out, -128);
  EXPECT_FALSE(BitFieldAdd(i8, 100, 100, BitFieldOverflow::kFail, &out));
  ASSERT_TRUE(BitFieldAdd(u2, 3, 1, BitFieldOverflow::kWrap, &out));
  EXPECT_EQ(out, 0);
  ASSERT_TRUE(BitFieldAdd(u2, 1, -10, BitFieldOverflow::kSat, &out));
  EXPECT_EQ(out, 0);
  ASSERT_TRUE(BitFieldAdd(u2, -1, 0, BitFieldOverflow::kSat, &out));  // SET u2 -1
  EXPECT_EQ(out, 3);
  ASSERT_TRUE(BitFieldAdd(i64, INT64_MIN, -1, BitFieldOverflow::kWrap, &out));
  EXPECT_EQ(out, INT64_MAX);
  ASSERT_TRUE(BitFieldAdd(i64, INT64_MAX, 1, BitFieldOverflow::kSat, &out));
  EXPECT_EQ(out, INT64_MAX);
  // Redis's wrap-around comparison: far below a narrow type saturates high.
  ASSERT_TRUE(BitFieldAdd(i8, INT64_MIN, 0, BitFieldOverflow::kSat, &out));
  EXPECT_EQ(out, 127);
}

}  // namespace
}  // namespace rankd
