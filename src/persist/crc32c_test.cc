// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/crc32c.h"

#include <string>

#include "gtest/gtest.h"

namespace rankd::crc32c {
namespace {

TEST(Crc32cTest, KnownVectors) {
  EXPECT_EQ(Value("123456789"), 0xe3069283u);  // the CRC-32C check value
  std::string zeros(32, '\0');
  EXPECT_EQ(Value(zeros), 0x8a9136aau);  // RFC 3720 B.4
  std::string ones(32, '\xff');
  EXPECT_EQ(Value(ones), 0x62a8ab43u);
}

TEST(Crc32cTest, ExtendEqualsWhole) {
  std::string s;
  for (int i = 0; i < 1000; i++) s.push_back(static_cast<char>(i * 7 + 3));
  for (size_t cut : {0, 1, 7, 8, 9, 500, 999, 1000}) {
    uint32_t a = Extend(Value(s.data(), cut), s.data() + cut, s.size() - cut);
    EXPECT_EQ(a, Value(s)) << "cut at " << cut;
  }
}

TEST(Crc32cTest, MaskRoundTrips) {
  uint32_t crc = Value("foo");
  EXPECT_NE(Mask(crc), crc);
  EXPECT_NE(Mask(Mask(crc)), crc);
  EXPECT_EQ(Unmask(Mask(crc)), crc);
  EXPECT_EQ(Unmask(Unmask(Mask(Mask(crc)))), crc);
}

}  // namespace
}  // namespace rankd::crc32c
