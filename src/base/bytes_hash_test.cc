// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/bytes_hash.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace rankd {
namespace {

TEST(BytesHashTest, SameBytesSameHashWherever) {
  const std::string a = "m:00000000001234", b = "xx" + a;
  EXPECT_EQ(HashBytes(a), HashBytes(std::string_view(b).substr(2)));
}

TEST(BytesHashTest, EveryLengthClassAndZeroPrefixDiffers) {
  // Strings of zero bytes of every length from 0 to 40 (each load size and
  // the 16-byte loop), and the same with one bit flipped at each position:
  // all distinct.
  std::set<uint64_t> seen;
  size_t n = 0;
  for (size_t len = 0; len <= 40; ++len) {
    std::string s(len, '\0');
    seen.insert(HashBytes(s));
    ++n;
    for (size_t i = 0; i < len; ++i) {
      std::string t = s;
      t[i] = 1;
      seen.insert(HashBytes(t));
      ++n;
    }
  }
  EXPECT_EQ(seen.size(), n);
}

TEST(BytesHashTest, TopAndLowBitsSpread) {
  // The member index takes its home slot from the top bits and a tag from
  // the two low bits: sequential members fill 64 top buckets and all 4 tags
  // about evenly.
  int top[64] = {}, low[4] = {};
  const int kN = 64000;
  for (int i = 0; i < kN; ++i) {
    char m[17];
    snprintf(m, sizeof(m), "m:00%012d", i);
    const uint64_t h = HashBytes(m);
    top[h >> 58]++;
    low[h & 3]++;
  }
  for (int c : top) EXPECT_NEAR(c, kN / 64, kN / 64 / 4);
  for (int c : low) EXPECT_NEAR(c, kN / 4, kN / 4 / 10);
}

}  // namespace
}  // namespace rankd
