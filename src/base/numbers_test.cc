// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/numbers.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace rankd {
namespace {

std::string Printf17g(double d) {
  char buf[64];
  int n = snprintf(buf, sizeof(buf), "%.17g", d);
  return std::string(buf, n);
}

TEST(NumbersTest, FormatDoubleMatchesPrintfOnRandomDoubles) {
  const uint64_t seed = 20261129;
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 300000; i++) {
    double d;
    uint64_t bits = rng();
    std::memcpy(&d, &bits, sizeof(d));
    if (i % 3 == 1) d = static_cast<double>(rng() % 100000) / 100.0;
    if (i % 3 == 2) d = static_cast<double>(static_cast<int64_t>(rng() % 2000000) - 1000000);
    if (std::isnan(d) || std::isinf(d)) continue;
    ASSERT_EQ(FormatDouble(d), Printf17g(d)) << "seed " << seed << " i " << i;
  }
}

TEST(NumbersTest, FormatDoubleSpecialValues) {
  EXPECT_EQ(FormatDouble(1.1), "1.1000000000000001");
  EXPECT_EQ(FormatDouble(0.0), "0");
  EXPECT_EQ(FormatDouble(-0.0), "-0");
  EXPECT_EQ(FormatDouble(1e17), "1e+17");
  EXPECT_EQ(FormatDouble(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatDouble(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(FormatDouble(std::numeric_limits<double>::denorm_min()),
            Printf17g(std::numeric_limits<double>::denorm_min()));
}

TEST(NumbersTest, FormatDoubleIntegersMatchPrintf) {
  // The integer fast path and its edges: 2^53, 1e15..1e17, negatives.
  const double cases[] = {1, -1, 123456, -999999, 9007199254740992.0, 9007199254740993.0,
                          -9007199254740992.0, 1e15, 1e16, 99999999999999984.0,
                          -99999999999999984.0, 1e17, -1e17, 1e18, 0.5, -0.5,
                          4503599627370495.5, 1e300, -1e-300};
  for (double d : cases) EXPECT_EQ(FormatDouble(d), Printf17g(d)) << d;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; i++) {
    double d = std::ldexp(static_cast<double>(rng() >> 11), -static_cast<int>(rng() % 12));
    if (i % 2) d = -d;
    ASSERT_EQ(FormatDouble(d), Printf17g(d)) << i;
  }
  char buf[kMaxDoubleChars];
  EXPECT_EQ(std::string(buf, FormatDoubleTo(buf, -123.0)), "-123");
}

TEST(NumbersTest, ParseInt64IsStrict) {
  int64_t v;
  EXPECT_TRUE(ParseInt64("0", &v) && v == 0);
  EXPECT_TRUE(ParseInt64("-9223372036854775808", &v) && v == INT64_MIN);
  EXPECT_TRUE(ParseInt64("9223372036854775807", &v) && v == INT64_MAX);
  for (const char* bad : {"", "-", "-0", "+1", "01", " 1", "1 ", "9223372036854775808", "1a"}) {
    EXPECT_FALSE(ParseInt64(bad, &v)) << bad;
  }
  // Around the short path's 18 digits, with a stray byte anywhere.
  std::mt19937_64 rng(34);
  for (int i = 0; i < 200000; i++) {
    std::string text(1 + rng() % 20, '0');
    for (char& ch : text) ch = static_cast<char>('0' + rng() % 10);
    if (rng() % 4 == 0) text[rng() % text.size()] = static_cast<char>(rng());
    int64_t want = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), want);
    const bool ok = ec == std::errc() && end == text.data() + text.size() &&
                    (text.size() == 1 || text[0] != '0') && text.substr(0, 2) != "-0";
    ASSERT_EQ(ParseInt64(text, &v), ok) << text;
    if (ok) ASSERT_EQ(v, want) << text;
  }
  EXPECT_TRUE(ParseInt64(std::string(18, '9'), &v) && v == 999999999999999999);
  EXPECT_FALSE(ParseInt64(std::string_view("1\0", 2), &v));
}

TEST(NumbersTest, ParseDoubleFollowsRedisString2d) {
  double d;
  EXPECT_TRUE(ParseDouble("inf", &d) && std::isinf(d));
  EXPECT_TRUE(ParseDouble("-1e5", &d) && d == -1e5);
  EXPECT_TRUE(ParseDouble("0x1p3", &d) && d == 8);
  for (const char* bad : {"", " 1", "1 ", "nan", "1e400", "1e-400", "abc", "1,5"}) {
    EXPECT_FALSE(ParseDouble(bad, &d)) << bad;
  }
  EXPECT_FALSE(ParseDouble(std::string_view("1\0", 2), &d));
}

// Plain integers skip strtod (ParseSmallInteger): the result must be strtod's,
// bit for bit (the sign of a zero included), at every length around the cut.
TEST(NumbersTest, ParseDoubleIntegersMatchStrtod) {
  std::mt19937_64 rng(16);
  std::vector<std::string> inputs = {"0", "-0", "+0", "00", "-00", "007", "+5", "-", "+", "--1",
                                     "1-", "999999999999999", "9999999999999999",
                                     "-9999999999999999", "123456789012345678901"};
  for (int i = 0; i < 20000; i++) {
    std::string s;
    const int sign = static_cast<int>(rng() % 4);
    if (sign == 1) s += '-';
    if (sign == 2) s += '+';
    const int digits = 1 + static_cast<int>(rng() % 19);
    for (int k = 0; k < digits; k++) s += static_cast<char>('0' + rng() % 10);
    if (rng() % 50 == 0) s[rng() % s.size()] = "x. ,"[rng() % 4];
    inputs.push_back(s);
  }
  for (const std::string& s : inputs) {
    char* end;
    const double want = strtod(s.c_str(), &end);
    const bool loose_ok = end == s.c_str() + s.size();  // leading blanks allowed
    const bool want_ok = loose_ok && !s.empty() && s[0] != ' ';
    double got = 12345, got_loose = 12345;
    ASSERT_EQ(ParseDouble(s, &got), want_ok) << s;
    ASSERT_EQ(ParseDoubleLoose(s, &got_loose), loose_ok) << s;
    if (loose_ok) ASSERT_EQ(std::memcmp(&got_loose, &want, sizeof(double)), 0) << s;
    if (want_ok) ASSERT_EQ(std::memcmp(&got, &want, sizeof(double)), 0) << s;
  }
}

TEST(NumbersTest, ParseDoubleLooseAcceptsWhatRangeBoundsAccept) {
  double d;
  EXPECT_TRUE(ParseDoubleLoose("", &d) && d == 0);
  EXPECT_TRUE(ParseDoubleLoose(" 5", &d) && d == 5);
  EXPECT_TRUE(ParseDoubleLoose("1e400", &d) && std::isinf(d));
  EXPECT_FALSE(ParseDoubleLoose("nan", &d));
  EXPECT_FALSE(ParseDoubleLoose("5x", &d));
}

TEST(NumbersTest, ParseLongDoubleFollowsRedisString2ld) {
  long double v;
  EXPECT_TRUE(ParseLongDouble("1.5", &v) && v == 1.5L);
  EXPECT_TRUE(ParseLongDouble("inf", &v) && std::isinf(v));
  EXPECT_TRUE(ParseLongDouble("-inf", &v) && std::isinf(v) && v < 0);
  EXPECT_TRUE(ParseLongDouble("0x10", &v) && v == 16);
  EXPECT_TRUE(ParseLongDouble("1e308", &v));  // fits a long double
  for (const char* bad : {"", " 1", "1 ", "nan", "1e99999", "1e-99999", "abc", "1.5x"}) {
    EXPECT_FALSE(ParseLongDouble(bad, &v)) << bad;
  }
}

}  // namespace
}  // namespace rankd
