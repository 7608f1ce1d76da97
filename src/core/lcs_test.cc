// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// core/lcs: Redis's documented example, and random strings checked against
// a brute-force length and the subsequence and ranges it must be made of.

#include "core/lcs.h"

#include <random>
#include <string>

#include "gtest/gtest.h"

namespace rankd {
namespace {

bool IsSubsequence(std::string_view sub, std::string_view s) {
  size_t i = 0;
  for (char c : s) {
    if (i < sub.size() && sub[i] == c) i++;
  }
  return i == sub.size();
}

// The LCS length by plain recursion over prefixes (tiny strings only).
size_t BruteLcs(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return 0;
  std::string_view a1 = a.substr(0, a.size() - 1), b1 = b.substr(0, b.size() - 1);
  if (a.back() == b.back()) return 1 + BruteLcs(a1, b1);
  return std::max(BruteLcs(a1, b), BruteLcs(a, b1));
}

TEST(LcsTest, RedisDocumentationExample) {
  const LcsResult r = Lcs("ohmytext", "mynewtext", true, true, 0);
  EXPECT_EQ(r.length, 6u);
  EXPECT_EQ(r.subsequence, "mytext");
  ASSERT_EQ(r.ranges.size(), 2u);
  EXPECT_EQ(r.ranges[0].a_first, 4u);
  EXPECT_EQ(r.ranges[0].a_last, 7u);
  EXPECT_EQ(r.ranges[0].b_first, 5u);
  EXPECT_EQ(r.ranges[0].b_last, 8u);
  EXPECT_EQ(r.ranges[1].a_first, 2u);
  EXPECT_EQ(r.ranges[1].b_first, 0u);
  EXPECT_EQ(r.ranges[1].length(), 2u);
  EXPECT_EQ(Lcs("ohmytext", "mynewtext", false, true, 4).ranges.size(), 1u);
}

TEST(LcsTest, RandomStringsAgreeWithBruteForce) {
  std::mt19937_64 rng(7);
  for (int iter = 0; iter < 400; iter++) {
    std::string a(rng() % 9, 'a'), b(rng() % 9, 'a');
    for (char& c : a) c = static_cast<char>('a' + rng() % 3);
    for (char& c : b) c = static_cast<char>('a' + rng() % 3);
    const LcsResult r = Lcs(a, b, true, true, 0);
    ASSERT_EQ(r.length, BruteLcs(a, b)) << a << " " << b;
    ASSERT_EQ(r.subsequence.size(), r.length);
    ASSERT_TRUE(IsSubsequence(r.subsequence, a) && IsSubsequence(r.subsequence, b));
    size_t covered = 0;
    for (const LcsRange& m : r.ranges) {
      ASSERT_EQ(a.substr(m.a_first, m.length()), b.substr(m.b_first, m.length()));
      covered += m.length();
    }
    ASSERT_EQ(covered, r.length);  // the runs make up the whole subsequence
  }
}

}  // namespace
}  // namespace rankd
