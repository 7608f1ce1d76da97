// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// core/hyperloglog against redis-server 7.0.15's bytes (fixtures taken from
// PFDEBUG DECODE and GET there), against a plain register array as the
// model across both encodings and the promotion threshold, and with hostile
// strings (truncated, overrunning, random bytes): never a crash, corrupt
// bodies reported.

#include "core/hyperloglog.h"

#include <cstdio>
#include <random>
#include <string>

#include "base/sha256.h"
#include "gtest/gtest.h"

namespace rankd {
namespace {

std::string AddAll(int n, size_t sparse_max = 3000) {
  std::string h = HllNew();
  for (int i = 0; i < n; i++) EXPECT_GE(HllAdd(&h, std::to_string(i), sparse_max), 0);
  return h;
}

// Registers of any HLL, via a union into an empty array.
HllRegisters RegistersOf(std::string_view h) {
  HllRegisters r{};
  EXPECT_TRUE(HllMaxInto(h, &r));
  return r;
}

TEST(HyperLogLogTest, HashPositionsMatchRedis) {
  // redis-server: PFADD h <e>; PFDEBUG DECODE h -> "Z:<index> v:<count>,1 ...".
  const struct {
    const char* element;
    uint32_t index;
    uint8_t count;
  } kCases[] = {{"a", 12711, 2},       {"b", 15780, 1},       {"c", 8436, 1},
                {"hello", 9216, 1},    {"", 5938, 2},         {"foo:bar", 9282, 1},
                {"12345678", 10579, 3}, {"abcdefghi", 6903, 1}};
  for (const auto& c : kCases) {
    const HllPosition p = HllHashElement(c.element);
    EXPECT_EQ(p.index, c.index) << c.element;
    EXPECT_EQ(p.count, c.count) << c.element;
  }
}

TEST(HyperLogLogTest, NewIsRedisEmptySparse) {
  const std::string h = HllNew();
  EXPECT_EQ(h, std::string("HYLL\x01\0\0\0\0\0\0\0\0\0\0\0\x7f\xff", 18));
  EXPECT_TRUE(HllIsValid(h));
  EXPECT_TRUE(HllIsSparse(h));
  EXPECT_EQ(HllCachedCount(h), 0u);
  EXPECT_EQ(HllEstimate(h), 0u);
  EXPECT_EQ(HllDecodeSparse(h), "Z:16384");
}

TEST(HyperLogLogTest, BytesMatchRedisAfterSameAdds) {
  std::string abc = HllNew();
  for (const char* e : {"a", "b", "c"}) ASSERT_EQ(HllAdd(&abc, e, 3000), 1);
  HllInvalidateCache(&abc);
  EXPECT_EQ(abc, std::string("HYLL\x01\0\0\0\0\0\0\0\0\0\0\x80`\xf3\x80P\xb1\x84K\xfb\x80" "BZ", 27));

  std::string sparse = AddAll(300);  // redis: PFADD s 0 1 ... 299
  HllInvalidateCache(&sparse);
  ASSERT_EQ(sparse.size(), 698u);
  EXPECT_EQ(HllEstimate(sparse), 302u);
  HllSetCachedCount(&sparse, 302);
  EXPECT_EQ(Sha256Hex(sparse), "19a65f5d70a9b89d356b4c38da9be6d093f263cb78f943207d1be48dde788a0b");

  std::string dense = AddAll(5000);  // crosses 3000 bytes: dense
  HllInvalidateCache(&dense);
  ASSERT_FALSE(HllIsSparse(dense));
  EXPECT_EQ(HllEstimate(dense), 4985u);
  HllSetCachedCount(&dense, 4985);
  EXPECT_EQ(Sha256Hex(dense), "5631d9dadff95537547841e1e177158b198f937d52348e00da9df68f3d8c0125");
  EXPECT_EQ(HllEstimate(RegistersOf(AddAll(100000))), 99565u);
}

TEST(HyperLogLogTest, SparseMatchesRegisterModelAcrossPromotion) {
  for (size_t limit : {size_t{0}, size_t{40}, size_t{300}, size_t{3000}, size_t{1} << 20}) {
    std::mt19937 rng(7 + static_cast<unsigned>(limit));
    std::printf("limit %zu seed %zu\n", limit, 7 + limit);
    std::string h = HllNew();
    HllRegisters model{};
    for (int i = 0; i < 3000; i++) {
      // Clustered indexes exercise merges of neighbouring VAL opcodes.
      const uint32_t index = rng() % 4 ? rng() % 64 : rng() % hll::kRegisters;
      const auto value = static_cast<uint8_t>(1 + (rng() % 40 == 0 ? rng() % 51 : rng() % 6));
      const int changed = HllRaise(&h, index, value, limit);
      ASSERT_EQ(changed, value > model[index] ? 1 : 0);
      if (value > model[index]) model[index] = value;
      ASSERT_TRUE(HllIsValid(h));
      if (HllIsSparse(h)) {
        ASSERT_LE(h.size(), std::max<size_t>(limit, 18));
      }
      if (i % 100 == 0) {
        ASSERT_EQ(RegistersOf(h), model) << i;
      }
    }
    ASSERT_EQ(RegistersOf(h), model);
    EXPECT_EQ(HllEstimate(h), HllEstimate(model));
    if (HllIsSparse(h)) {
      std::string d = h;
      ASSERT_TRUE(HllToDense(&d));
      for (uint32_t i = 0; i < hll::kRegisters; i++) ASSERT_EQ(HllDenseRegister(d, i), model[i]);
    }
  }
}

TEST(HyperLogLogTest, RaiseAllEqualsRaisingEachRegister) {
  std::mt19937 rng(4);
  std::printf("seed 4\n");
  for (size_t limit : {size_t{0}, size_t{200}, size_t{3000}, size_t{1} << 20}) {
    for (int start : {0, 50, 2000}) {
      std::string base = AddAll(start, limit);
      HllRegisters max = RegistersOf(base);
      for (int k = 0; k < 400; k++) {
        const uint32_t i = rng() % hll::kRegisters;
        max[i] = std::max<uint8_t>(max[i], static_cast<uint8_t>(1 + rng() % 40));
      }
      std::string bulk = base, one_by_one = base;
      HllRaiseAll(&bulk, max, limit);
      for (uint32_t i = 0; i < hll::kRegisters; i++) {
        if (max[i]) {
          ASSERT_GE(HllRaise(&one_by_one, i, max[i], limit), 0);
        }
      }
      ASSERT_EQ(bulk, one_by_one) << limit << " " << start;
      ASSERT_EQ(RegistersOf(bulk), max);
    }
  }
}

TEST(HyperLogLogTest, ValueAboveSparseLimitPromotes) {
  std::string h = HllNew();
  ASSERT_EQ(HllRaise(&h, 5, 32, 3000), 1);
  EXPECT_TRUE(HllIsSparse(h));
  ASSERT_EQ(HllRaise(&h, 6, 33, 3000), 1);
  EXPECT_FALSE(HllIsSparse(h));
  EXPECT_EQ(h.size(), hll::kDenseSize);
  EXPECT_EQ(HllDenseRegister(h, 5), 32);
  EXPECT_EQ(HllDenseRegister(h, 6), 33);
}

TEST(HyperLogLogTest, CacheBits) {
  std::string h = HllNew();
  HllSetCachedCount(&h, 0x0102030405060708ULL);
  EXPECT_EQ(HllCachedCount(h), 0x0102030405060708ULL);
  EXPECT_EQ(h[8], '\x08');
  HllInvalidateCache(&h);
  EXPECT_EQ(HllCachedCount(h), std::nullopt);
}

TEST(HyperLogLogTest, EstimateErrorStaysSmall) {
  std::string h = HllNew();
  for (int n = 1; n <= 50000; n++) {
    ASSERT_GE(HllAdd(&h, "e" + std::to_string(n), 3000), 0);
    if (n % 997 == 0) {
      const double err = std::abs(static_cast<double>(*HllEstimate(h)) - n) / n;
      EXPECT_LT(err, 0.05) << n;
    }
  }
  EXPECT_EQ(HllSelfTest(), "");
}

TEST(HyperLogLogTest, HeaderChecks) {
  EXPECT_FALSE(HllIsValid("HYLL"));
  EXPECT_FALSE(HllIsValid(std::string("HYLX\x01", 5) + std::string(13, '\0')));
  std::string bad_enc = HllNew();
  bad_enc[4] = 2;
  EXPECT_FALSE(HllIsValid(bad_enc));
  std::string short_dense = HllNew();
  short_dense[4] = 0;
  EXPECT_FALSE(HllIsValid(short_dense));
  std::string dense = HllNew();
  ASSERT_TRUE(HllToDense(&dense));
  EXPECT_TRUE(HllIsValid(dense));
  EXPECT_FALSE(HllIsValid(dense + "x"));
}

TEST(HyperLogLogTest, CorruptSparseBodiesAreReported) {
  const std::string header = HllNew().substr(0, hll::kHeaderSize);
  const std::string cases[] = {
      header,                                  // no registers at all
      header + "\x7f",                         // XZERO cut short: 16129 registers
      header + "\x7f\xfe",                     // one register short
      header + std::string("\x7f\xff\x00", 3),  // one register too many
      header + "\x7f\xfe\x83",                 // a VAL overrunning the count
      header + "\x7f\xff\x80",                 // a VAL after a full body
      header + std::string(300, '\xff'),       // VAL runs far past 16384
      header + "\x7f\xff" + "hello",           // garbage after a full body
  };
  for (const std::string& c : cases) {
    ASSERT_TRUE(HllIsValid(c));
    EXPECT_EQ(HllEstimate(c), std::nullopt);
    HllRegisters r{};
    EXPECT_FALSE(HllMaxInto(c, &r));
    std::string d = c;
    EXPECT_FALSE(HllToDense(&d));
    EXPECT_EQ(d, c);
    HllDecodeSparse(c);
  }
  std::string empty_body = header;
  EXPECT_EQ(HllRaise(&empty_body, 0, 1, 3000), -1);
  std::string short_body = header + std::string(1, '\0');  // covers register 0 only
  EXPECT_EQ(HllRaise(&short_body, 100, 1, 3000), -1);
}

TEST(HyperLogLogTest, RandomBytesNeverCrash) {
  std::mt19937 rng(99);
  std::printf("seed 99\n");
  for (int round = 0; round < 2000; round++) {
    std::string h = AddAll(static_cast<int>(rng() % 3000));
    for (int k = 0; k < 1 + static_cast<int>(rng() % 5); k++) {
      h[hll::kHeaderSize + rng() % (h.size() - hll::kHeaderSize)] = static_cast<char>(rng());
    }
    if (rng() % 4 == 0) h.resize(hll::kHeaderSize + rng() % (h.size() - hll::kHeaderSize + 1));
    if (!HllIsValid(h)) continue;
    (void)HllEstimate(h);
    HllRegisters r{};
    (void)HllMaxInto(h, &r);
    for (int k = 0; k < 20; k++) {
      if (HllAdd(&h, std::to_string(rng()), 3000) < 0 || !HllIsValid(h)) break;
    }
  }
}

}  // namespace
}  // namespace rankd
