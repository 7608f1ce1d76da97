// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CompactSet's packed form: every score reads back bit for bit whichever
// score form it took (short integers, n-byte integers, raw doubles), the
// order holds across forms, and the allocation follows the bytes held.

#include "core/compact_set.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace rankd {
namespace {

uint64_t Bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

TEST(CompactSetTest, EveryScoreFormReadsBackBitForBit) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> scores = {
      -inf, -9007199254740993.0, -9007199254740992.0, -9007199254740991.0, -36028797018963968.0,
      -(1LL << 40), -8388609, -32769, -32768, -129, -128, -33, -32, -1.5, -1, -0.0, 0.0, 0.5,
      1, 191, 192, 255, 256, 32767, 32768, 1e15, 9007199254740991.0, 9007199254740992.0,
      1e300, std::numeric_limits<double>::denorm_min(), inf};
  CompactSet c;
  for (size_t i = 0; i < scores.size(); ++i) {
    c.Insert("m" + std::to_string(i), scores[i]);
    ASSERT_EQ(c.CheckInvariants(), "") << scores[i];
  }
  ASSERT_EQ(c.size(), scores.size());
  for (size_t i = 0; i < scores.size(); ++i) {
    auto found = c.Find("m" + std::to_string(i));
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(Bits(found->first.score), Bits(scores[i])) << scores[i];
  }
  // Ascending by score; -0.0 and 0.0 tie, then the member decides.
  double prev = -inf;
  c.ForEachInRankRange(0, c.size() - 1, false, [&](std::string_view, double s) {
    EXPECT_LE(prev, s);
    prev = s;
  });
}

TEST(CompactSetTest, SmallIntegerScoresTakeOneByte) {
  CompactSet c;
  c.Insert("alice", 1);
  c.Insert("bob", 2);
  auto e = c.Find("alice");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->first.size, 1u + 1u + 5u);  // score, length, bytes
  c.Insert("raw", 0.25);
  EXPECT_EQ(c.Find("raw")->first.size, 9u + 1u + 3u);
}

TEST(CompactSetTest, UpdatesErasesAndCopiesKeepTheBytesTight) {
  CompactSet c;
  for (int i = 0; i < 100; ++i) c.Insert("member" + std::to_string(i), i * 1000.5);
  const size_t full = c.MemoryUsage();
  auto e = c.Find("member7");
  c.UpdateScore(e->first, -3);
  EXPECT_EQ(c.At(0).member, "member7");
  EXPECT_EQ(c.At(0).score, -3);
  CompactSet copy(c);
  c.EraseRankRange(0, 89);
  EXPECT_EQ(c.size(), 10u);
  EXPECT_EQ(c.CheckInvariants(), "");
  EXPECT_LT(c.MemoryUsage(), full / 4);
  EXPECT_EQ(copy.size(), 100u);
  EXPECT_EQ(copy.CheckInvariants(), "");
  c.EraseRankRange(0, 9);
  EXPECT_EQ(c.size(), 0u);
  EXPECT_EQ(c.MemoryUsage(), 0u);  // an empty set holds no allocation
  EXPECT_EQ(c.CheckInvariants(), "");
}

TEST(CompactSetTest, ReverseRangesMatchForwardOnesReversed) {
  // Every score form and member lengths with 1- and 2-byte varints; reverse
  // pages up to and past the 64 offsets kept on the stack.
  CompactSet c;
  for (int i = 0; i < 200; ++i) {
    const double score = i % 3 == 0 ? i - 40 : i % 3 == 1 ? i * 100000.0 : i + 0.5;
    c.Insert(std::string(i % 7 == 0 ? 130 : 5, 'a') + std::to_string(i), score);
  }
  ASSERT_EQ(c.CheckInvariants(), "");
  for (uint64_t len : {1, 10, 64, 65, 200}) {
    for (uint64_t start : {uint64_t{0}, 200 - len, (200 - len) / 2}) {
      std::vector<std::pair<std::string, double>> fwd, rev;
      c.ForEachInRankRange(start, start + len - 1, false, [&](std::string_view m, double s) {
        fwd.emplace_back(std::string(m), s);
      });
      c.ForEachInRankRange(start, start + len - 1, true, [&](std::string_view m, double s) {
        rev.emplace_back(std::string(m), s);
      });
      std::reverse(rev.begin(), rev.end());
      ASSERT_EQ(fwd.size(), len);
      EXPECT_EQ(fwd, rev) << "start " << start << " len " << len;
      EXPECT_EQ(fwd.front().first, std::string(c.At(start).member));
    }
  }
}

}  // namespace
}  // namespace rankd
