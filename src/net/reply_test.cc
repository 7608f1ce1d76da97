// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/reply.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace rankd {
namespace {

std::string Encode(int version, void (*fn)(ReplyBuilder*)) {
  ReplyBuilder r(version);
  fn(&r);
  return r.buffer();
}

TEST(ReplyBuilderTest, ScalarsAreTheSameInBothVersions) {
  for (int v : {2, 3}) {
    EXPECT_EQ(Encode(v, [](ReplyBuilder* r) { r->Ok(); }), "+OK\r\n");
    // Short and long simple strings take different paths.
    for (size_t n : {0, 28, 29, 30, 200}) {
      ReplyBuilder r(v);
      r.SimpleString(std::string(n, 's'));
      EXPECT_EQ(r.buffer(), "+" + std::string(n, 's') + "\r\n");
    }
    EXPECT_EQ(Encode(v, [](ReplyBuilder* r) { r->Integer(-42); }), ":-42\r\n");
    EXPECT_EQ(Encode(v, [](ReplyBuilder* r) { r->Bulk("a\r\nb"); }), "$4\r\na\r\nb\r\n");
    EXPECT_EQ(Encode(v, [](ReplyBuilder* r) { r->Bulk(""); }), "$0\r\n\r\n");
    EXPECT_EQ(Encode(v, [](ReplyBuilder* r) { r->Error("ERR bad\r\nthing"); }),
              "-ERR bad  thing\r\n");
    EXPECT_EQ(Encode(v, [](ReplyBuilder* r) { r->ArrayHeader(2); }), "*2\r\n");
    EXPECT_EQ(Encode(v, [](ReplyBuilder* r) { r->EmptyArray(); }), "*0\r\n");
  }
}

TEST(ReplyBuilderTest, Resp2Downgrades) {
  EXPECT_EQ(Encode(2, [](ReplyBuilder* r) { r->Double(1.5); }), "$3\r\n1.5\r\n");
  EXPECT_EQ(Encode(2, [](ReplyBuilder* r) { r->Double(INFINITY); }), "$3\r\ninf\r\n");
  EXPECT_EQ(Encode(2, [](ReplyBuilder* r) { r->Double(1.1); }),
            "$18\r\n1.1000000000000001\r\n");
  EXPECT_EQ(Encode(2, [](ReplyBuilder* r) { r->Bool(true); }), ":1\r\n");
  EXPECT_EQ(Encode(2, [](ReplyBuilder* r) { r->Null(); }), "$-1\r\n");
  EXPECT_EQ(Encode(2, [](ReplyBuilder* r) { r->NullArray(); }), "*-1\r\n");
  EXPECT_EQ(Encode(2, [](ReplyBuilder* r) { r->MapHeader(2); }), "*4\r\n");
  EXPECT_EQ(Encode(2, [](ReplyBuilder* r) { r->SetHeader(3); }), "*3\r\n");
  EXPECT_EQ(Encode(2, [](ReplyBuilder* r) { r->PushHeader(3); }), "*3\r\n");
  EXPECT_EQ(Encode(2, [](ReplyBuilder* r) { r->Verbatim("hi"); }), "$2\r\nhi\r\n");
}

TEST(ReplyBuilderTest, IntegralDoublesWrittenInPlace) {
  // Every length class of the in-place path: 1 to 17 digits, signs, and
  // the two-digit length header ("$10" and up); -0 and 1e17 take the
  // formatted path.
  const std::pair<double, std::string_view> cases[] = {
      {0, "0"}, {7, "7"}, {-7, "-7"}, {42, "42"}, {999999, "999999"},
      {-123456789, "-123456789"}, {1234567890, "1234567890"},
      {-9999999999999998.0, "-9999999999999998"},
      {-0.0, "-0"}, {1e17, "1e+17"}};
  for (const auto& [d, text] : cases) {
    const std::string len = std::to_string(text.size());
    ReplyBuilder r2(2), r3(3);
    r2.Double(d);
    r3.Double(d);
    EXPECT_EQ(r2.buffer(), "$" + len + "\r\n" + std::string(text) + "\r\n") << d;
    EXPECT_EQ(r3.buffer(), "," + std::string(text) + "\r\n") << d;
  }
  EXPECT_EQ(Encode(2, [](ReplyBuilder* r) { r->Integer(12); }), ":12\r\n");
  EXPECT_EQ(Encode(2, [](ReplyBuilder* r) { r->ArrayHeader(9); }), "*9\r\n");
  EXPECT_EQ(Encode(2, [](ReplyBuilder* r) { r->ArrayHeader(10); }), "*10\r\n");
}

TEST(ReplyBuilderTest, Resp3Types) {
  EXPECT_EQ(Encode(3, [](ReplyBuilder* r) { r->Double(1.5); }), ",1.5\r\n");
  EXPECT_EQ(Encode(3, [](ReplyBuilder* r) { r->Double(-INFINITY); }), ",-inf\r\n");
  EXPECT_EQ(Encode(3, [](ReplyBuilder* r) { r->Bool(false); }), "#f\r\n");
  EXPECT_EQ(Encode(3, [](ReplyBuilder* r) { r->Null(); }), "_\r\n");
  EXPECT_EQ(Encode(3, [](ReplyBuilder* r) { r->NullArray(); }), "_\r\n");
  EXPECT_EQ(Encode(3, [](ReplyBuilder* r) { r->MapHeader(2); }), "%2\r\n");
  EXPECT_EQ(Encode(3, [](ReplyBuilder* r) { r->SetHeader(3); }), "~3\r\n");
  EXPECT_EQ(Encode(3, [](ReplyBuilder* r) { r->PushHeader(3); }), ">3\r\n");
  EXPECT_EQ(Encode(3, [](ReplyBuilder* r) { r->Verbatim("hi"); }), "=6\r\ntxt:hi\r\n");
}

TEST(ReplyBuilderTest, DeferredHeaders) {
  for (int v : {2, 3}) {
    ReplyBuilder r(v);
    r.Ok();
    size_t token = r.DeferArray();
    r.Integer(1);
    r.Integer(2);
    r.FinishArray(token, 2);
    size_t map = r.DeferArray();
    r.Bulk("k");
    r.Integer(1);
    r.FinishMap(map, 1);
    EXPECT_EQ(r.buffer(), std::string("+OK\r\n*2\r\n:1\r\n:2\r\n") + (v == 3 ? "%1" : "*2") +
                              "\r\n$1\r\nk\r\n:1\r\n");
  }
}

TEST(ReplyBuilderTest, VersionSwitch) {
  ReplyBuilder r;
  EXPECT_EQ(r.version(), 2);
  EXPECT_FALSE(r.resp3());
  r.set_version(3);
  EXPECT_TRUE(r.resp3());
  r.Null();
  EXPECT_EQ(r.buffer(), "_\r\n");
}

TEST(ReplyBuilderTest, PastTheLimitEveryAppendIsDropped) {
  for (int v : {2, 3}) {
    ReplyBuilder r(v);
    r.set_limit(100);
    size_t token = r.DeferArray();
    size_t n = 0;
    while (!r.overflowed()) {
      r.Bulk("0123456789");
      n++;
    }
    EXPECT_EQ(n, 6u);  // 17 bytes each: the 6th passes 100
    const std::string at_overflow = r.buffer();
    r.Bulk("x");
    r.Integer(1);
    r.Double(1.5);
    r.Bool(true);
    r.Null();
    r.Ok();
    r.Error("ERR e");
    r.Verbatim("v");
    r.Raw("+raw\r\n");
    r.ArrayHeader(3);
    r.FinishArray(token, n);
    r.FinishMap(token, n);
    r.FinishSet(token, n);
    EXPECT_EQ(r.buffer(), at_overflow);
    EXPECT_TRUE(r.overflowed());
  }
  ReplyBuilder unlimited;
  for (int i = 0; i < 1000; i++) unlimited.Bulk("0123456789");
  EXPECT_FALSE(unlimited.overflowed());
}

TEST(ReplyBuilderTest, BatchWritesTheBuilderBytes) {
  // Enough elements to flush several times, members around the size where a
  // batch hands a string to the builder, scores on both formatting paths.
  for (int v : {2, 3}) {
    ReplyBuilder direct(v), batched(v);
    batched.SimpleString("before");
    direct.SimpleString("before");
    {
      ReplyBatch batch(batched);
      for (int i = 0; i < 500; i++) {
        const std::string m(static_cast<size_t>(i % 200), static_cast<char>('a' + i % 26));
        const double score = i % 3 == 0 ? i * 1000.0 : i / 7.0;
        direct.ArrayHeader(2);
        direct.Bulk(m);
        direct.Double(score);
        batch.ArrayHeader(2);
        batch.Bulk(m);
        batch.Double(score);
      }
    }
    EXPECT_EQ(batched.buffer(), direct.buffer()) << "RESP" << v;
  }
}

// Integral scores are framed in place from their digit count; the bytes must
// be those of printf "%.17g" in both protocol versions, edges included.
TEST(ReplyBuilderTest, IntegralDoublesMatchPrintf) {
  std::vector<double> cases = {0, -0.0, 1, -1, 9, 10, -10, 99, 100, 999999999, 1e9, -1e9,
                               2147483647, 9007199254740992.0, -9007199254740993.0, 1e16,
                               99999999999999984.0, -99999999999999984.0, 1e17, -1e17, 1e18};
  std::mt19937_64 rng(34);
  for (int i = 0; i < 20000; i++) {
    const int64_t v = static_cast<int64_t>(rng() >> (rng() % 64));
    cases.push_back(static_cast<double>(i % 2 ? -v : v));
  }
  for (double d : cases) {
    char text[64];
    const int n = snprintf(text, sizeof(text), "%.17g", d);
    const std::string t(text, static_cast<size_t>(n));
    ReplyBuilder r2(2), r3(3);
    r2.Double(d);
    r3.Double(d);
    {
      ReplyBatch b2(r2), b3(r3);
      b2.Double(d);
      b3.Double(d);
      b2.ScoredMember("m", d, false);
      b3.ScoredMember("m", d, false);
    }
    const std::string want2 = "$" + std::to_string(t.size()) + "\r\n" + t + "\r\n";
    EXPECT_EQ(r2.buffer(), want2 + want2 + "$1\r\nm\r\n" + want2) << d;
    EXPECT_EQ(r3.buffer(), "," + t + "\r\n," + t + "\r\n$1\r\nm\r\n," + t + "\r\n") << d;
  }
}

// ScoredMember writes exactly what ArrayHeader(2) (pairs), Bulk and Double
// write one by one: members of every length up to and past the batch's
// in-place limit (128), scores of every formatting path.
TEST(ReplyBuilderTest, ScoredMemberMatchesBulkThenDouble) {
  const double scores[] = {0, -0.0, 1, -1, 1.5, 0.1, 1e20, -1e20, INFINITY, -INFINITY,
                           3.0000000000000004, 9007199254740992.0, 9007199254740994.0,
                           9999999999999998.0, 1e16, -1e16, 1e16 + 2, 99999999999999984.0,
                           1e17, 123456789, -12345678, 99999999, 100000000, 5e-324};
  std::mt19937_64 rng(34);
  for (int version : {2, 3}) {
    for (size_t len = 0; len <= 140; len++) {
      std::string member(len, ' ');
      for (char& c : member) c = static_cast<char>(rng());
      for (double score : scores) {
        for (bool pair : {false, true}) {
          ReplyBuilder want(version), got(version);
          if (pair) want.ArrayHeader(2);
          want.Bulk(member);
          want.Double(score);
          {
            ReplyBatch batch(got);
            batch.ScoredMember(member, score, pair);
          }
          ASSERT_EQ(got.buffer(), want.buffer()) << version << " " << len << " " << score;
        }
      }
    }
  }
  // Many in one batch: crossing the batch's flushes keeps the order.
  ReplyBuilder want(2), got(2);
  {
    ReplyBatch batch(got);
    for (int i = 0; i < 500; i++) {
      const std::string m = "m:" + std::to_string(i * 7919);
      want.Bulk(m);
      want.Double(i * 3.25);
      batch.ScoredMember(m, i * 3.25, false);
    }
  }
  EXPECT_EQ(got.buffer(), want.buffer());
}

TEST(ReplyBuilderTest, BatchPastTheLimitIsDropped) {
  ReplyBuilder r;
  r.set_limit(100);
  {
    ReplyBatch batch(r);
    for (int i = 0; i < 1000; i++) batch.Bulk("0123456789");
  }
  EXPECT_TRUE(r.overflowed());
  EXPECT_LE(r.buffer().size(), 100u + 2048u);
}

}  // namespace
}  // namespace rankd
