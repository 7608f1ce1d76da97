// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/command.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

namespace rankd {
namespace {

// EqualsIgnoreCase folds eight bytes at a time (the last eight overlapping),
// four to seven as two overlapping halves: every byte value, in every
// position of every length class, against tolower() in the "C" locale.
TEST(CommandTest, EqualsIgnoreCaseMatchesTolowerOnEveryByte) {
  for (size_t len : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 10u, 15u, 16u, 17u, 19u}) {
    for (size_t pos = 0; pos < len; pos++) {
      for (int x = 0; x < 256; x++) {
        for (int y = 0; y < 256; y++) {
          std::string a(len, 'q'), b(len, 'Q');
          a[pos] = static_cast<char>(x);
          b[pos] = static_cast<char>(y);
          const bool want = tolower(x) == tolower(y);
          ASSERT_EQ(EqualsIgnoreCase(a, b), want) << len << " " << pos << " " << x << " " << y;
        }
      }
    }
  }
  EXPECT_TRUE(EqualsIgnoreCase("WithScores", "withscores"));
  EXPECT_FALSE(EqualsIgnoreCase("withscore", "withscores"));
  EXPECT_TRUE(EqualsIgnoreCase("", ""));
}

}  // namespace
}  // namespace rankd
