// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// DUMP payloads (persist/rdb_writer.h): byte-for-byte against payloads
// redis-server 7.0 DUMPed, and round trips through ReadDumpPayload for every
// type, encoding and number width. tests/test_dump_restore.py covers the
// exchange with a real redis-server both ways.

#include "persist/rdb_writer.h"

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "persist/rdb_reader.h"

namespace rankd {
namespace {

std::string Hex(std::string_view s) {
  static const char* d = "0123456789abcdef";
  std::string h;
  for (char c : s) h += {d[static_cast<uint8_t>(c) >> 4], d[static_cast<uint8_t>(c) & 15]};
  return h;
}

Value ZSet(std::vector<std::pair<std::string, double>> items, SortedSetLimits lim = {}) {
  auto z = std::make_unique<SortedSet>(lim);
  for (auto& [m, s] : items) z->Add(m, s, AddOptions{}, lim);
  return Value(std::move(z));
}

Value RoundTrip(const Value& v) {
  const std::string p = DumpPayload(v);
  EXPECT_TRUE(DumpFooterOk(p));
  Value out;
  Status s = ReadDumpPayload(p, SnapshotLoadOptions{}, &out);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

// Each visited pair of a sorted set, in rank order.
std::vector<std::pair<std::string, double>> Items(const SortedSet& z) {
  std::vector<std::pair<std::string, double>> out;
  if (z.size()) {
    z.ForEachInRankRange(0, z.size() - 1, false,
                         [&](std::string_view m, double s) { out.emplace_back(m, s); });
  }
  return out;
}

TEST(RdbWriterTest, Crc64MatchesRedisTestVector) {
  EXPECT_EQ(Crc64Redis(0, "123456789"), 0xe9c6d914c4b8d9caULL);
  // Slice-by-8 agrees with the bytewise form at every length and split.
  std::string data;
  for (int i = 0; i < 300; i++) data.push_back(static_cast<char>(i * 37 + 11));
  for (size_t len : {0, 1, 7, 8, 9, 63, 64, 65, 300}) {
    uint64_t bytewise = 0;
    for (size_t i = 0; i < len; i++) bytewise = Crc64Redis(bytewise, data.substr(i, 1));
    EXPECT_EQ(Crc64Redis(0, data.substr(0, len)), bytewise) << len;
    EXPECT_EQ(Crc64Redis(Crc64Redis(0, data.substr(0, len / 3)), data.substr(len / 3, len - len / 3)),
              bytewise) << len;
  }
}

// Payloads redis-server 7.0.15 returned for DUMP of the same values.
TEST(RdbWriterTest, MatchesRedisBytes) {
  EXPECT_EQ(Hex(DumpPayload(Value(std::string("hello")))), "000568656c6c6f0a006372df766534200a");
  EXPECT_EQ(Hex(DumpPayload(Value(std::string("12345")))), "00c139300a009d94ea2793fc08b9");
  EXPECT_EQ(Hex(DumpPayload(Value(std::string("-1")))), "00c0ff0a000c937e2485089dc5");
  EXPECT_EQ(Hex(DumpPayload(ZSet({{"a", 1}, {"b", 2.5}, {"c", -HUGE_VAL}, {"d", 0}}))),
            "1122220000000800816302842d696e66058164020001816102010181620283322e3504ff0a00bf01"
            "49a6a3014199");
  auto h = std::make_unique<Hash>();
  h->Set("f", "v", {});
  h->Set("n", "7", {});
  EXPECT_EQ(Hex(DumpPayload(Value(std::move(h)))),
            "1012120000000400816602817602816e020701ff0a00b82adea8407ffaa8");
  auto s = std::make_unique<PlainSet>();
  for (const char* m : {"3", "1", "2", "-70000"}) s->Add(m, {});
  EXPECT_EQ(Hex(DumpPayload(Value(std::move(s)))),
            "0b18040000000400000090eefeff0100000002000000030000000a00a8b63c622cbf2c9c");
}

// Strings above 20 bytes are LZF blobs (0xC3, compressed and plain
// lengths), in listpacks too; redis-server 7.0.15's bytes.
TEST(RdbWriterTest, CompressesAsRedis) {
  const Value a21(std::string(21, 'a'));
  EXPECT_EQ(Hex(DumpPayload(a21)), "00c30615016161e00a000a00fd0cb36807413f68");
  EXPECT_EQ(Hex(DumpPayload(a21, DumpOptions{.compress = false})).substr(0, 4), "0015");
  auto l = std::make_unique<QuickList>();
  for (int i = 0; i < 3; i++) l->PushBack("abcdefghijklmnopqrstuvwxyz" + std::to_string(i), {});
  EXPECT_EQ(Hex(DumpPayload(Value(std::move(l)))),
            "120102c331405e1f5e00000003009b6162636465666768696a6b6c6d6e6f707172737475767778"
            "79027a301ce0121c0031e0131c02321cff0a00c016da91973dd3ec");
}

TEST(RdbWriterTest, FooterChecks) {
  std::string p = DumpPayload(Value(std::string("v")));
  EXPECT_TRUE(DumpFooterOk(p));
  EXPECT_FALSE(DumpFooterOk(p.substr(0, p.size() - 1)));
  EXPECT_FALSE(DumpFooterOk("short"));
  std::string flipped = p;
  flipped[1] ^= 1;
  EXPECT_FALSE(DumpFooterOk(flipped));
  std::string v12 = p.substr(0, p.size() - 10) + std::string("\x0c\x00", 2);
  const uint64_t crc = Crc64Redis(0, v12);
  for (int i = 0; i < 8; i++) v12.push_back(static_cast<char>(crc >> (8 * i)));
  EXPECT_FALSE(DumpFooterOk(v12));  // RDB 12 is newer than rankd reads
}

TEST(RdbWriterTest, StringsOfEveryEncoding) {
  for (std::string s : std::vector<std::string>{"", "0", "-1", "127", "-128", "128", "32767", "-32769", "2147483647",
                        "2147483648", "-2147483648", "007", "+1", "-0", "1e3",
                        "9223372036854775807", std::string(70000, 'x'), std::string("a\0b", 3)}) {
    Value v = RoundTrip(Value(s));
    ASSERT_EQ(v.type(), ValueType::kString);
    EXPECT_EQ(v.str(), s);
  }
}

TEST(RdbWriterTest, SortedSetsBothEncodingsAndOddScores) {
  std::vector<std::pair<std::string, double>> items = {
      {"inf", HUGE_VAL}, {"-inf", -HUGE_VAL}, {"zero", 0.0}, {"tenth", 0.1},
      {"big", 1e300},    {"int", -4096},      {"2^53", 9007199254740992.0},
      {"long" + std::string(100, 'm'), 3.25}, {"5", 5}};
  for (size_t extra : {0, 500}) {
    auto all = items;
    for (size_t i = 0; i < extra; i++) all.emplace_back("m" + std::to_string(i), i * 0.5);
    Value z = ZSet(all, SortedSetLimits{.max_compact_entries = 1000, .max_compact_value = 200});
    Value back = RoundTrip(z);
    ASSERT_EQ(back.type(), ValueType::kZSet);
    EXPECT_EQ(Items(back.zset()), Items(z.zset()));
  }
  Value big = ZSet({{"m", 1}, {"n", -0.5}});
  big.zset().ConvertToTree();
  EXPECT_EQ(static_cast<uint8_t>(DumpPayload(big)[0]), 5);  // ZSET_2
  EXPECT_EQ(Items(RoundTrip(big).zset()), Items(big.zset()));
}

TEST(RdbWriterTest, ListsSpanSeveralNodesAndEveryIntWidth) {
  auto l = std::make_unique<QuickList>();
  std::vector<std::string> want;
  for (int64_t v : std::vector<int64_t>{0LL, 127LL, 128LL, -1LL, 4095LL, -4096LL, 4096LL, 32767LL, -32768LL, 8388607LL,
                    -8388608LL, 8388608LL, 2147483647LL, -2147483648LL, 2147483648LL,
                    INT64_MAX, INT64_MIN}) {
    want.push_back(std::to_string(v));
  }
  for (size_t len : {0, 63, 64, 4095, 4096, 20000}) want.push_back(std::string(len, 's'));
  for (int i = 0; i < 3000; i++) want.push_back("e" + std::to_string(i));
  for (const std::string& s : want) l->PushBack(s, {});
  Value back = RoundTrip(Value(std::move(l)));
  ASSERT_EQ(back.type(), ValueType::kList);
  std::vector<std::string> got;
  back.list().ForEach(0, back.list().size(), false, [&](std::string_view e) { got.emplace_back(e); });
  EXPECT_EQ(got, want);
}

TEST(RdbWriterTest, SetsAndHashesBothEncodings) {
  for (bool ints : {true, false}) {
    auto s = std::make_unique<PlainSet>();
    for (int i = 0; i < 600; i++) s->Add(ints ? std::to_string(i * 100000 - 7) : "m" + std::to_string(i), {});
    Value back = RoundTrip(Value(s->Clone()));
    ASSERT_EQ(back.type(), ValueType::kSet);
    EXPECT_EQ(back.set().size(), 600u);
    s->ForEach([&](std::string_view m) { EXPECT_TRUE(back.set().Contains(m)); });
  }
  for (size_t n : {3, 1000}) {
    auto h = std::make_unique<Hash>();
    for (size_t i = 0; i < n; i++) h->Set("f" + std::to_string(i), std::to_string(i), {});
    Value back = RoundTrip(Value(h->Clone()));
    ASSERT_EQ(back.type(), ValueType::kHash);
    EXPECT_EQ(back.hash().size(), n);
    EXPECT_EQ(back.hash().Get("f2"), std::optional<std::string_view>("2"));
  }
}

TEST(RdbWriterTest, BadPayloadsAreErrors) {
  Value out;
  std::string p = DumpPayload(ZSet({{"a", 1}}));
  std::string cut = p.substr(0, 5) + p.substr(p.size() - 10);
  EXPECT_EQ(ReadDumpPayload(cut, {}, &out).code(), Status::Code::kCorruption);
  std::string stream = std::string("\x0f") + p.substr(p.size() - 10);  // a truncated stream
  EXPECT_EQ(ReadDumpPayload(stream, {}, &out).code(), Status::Code::kCorruption);
  std::string module = std::string("\x07") + p.substr(p.size() - 10);
  EXPECT_EQ(ReadDumpPayload(module, {}, &out).code(), Status::Code::kInvalidArgument);
  std::string unknown = std::string("\x63") + p.substr(p.size() - 10);
  EXPECT_EQ(ReadDumpPayload(unknown, {}, &out).code(), Status::Code::kCorruption);
  std::string empty_set = std::string("\x02\x00", 2) + p.substr(p.size() - 10);
  EXPECT_EQ(ReadDumpPayload(empty_set, {}, &out).code(), Status::Code::kCorruption);
}

// Hostile payloads: valid ones with bytes flipped, cut or repeated (fixed
// seed). Decoding never crashes; what decodes DUMPs again and decodes again.
TEST(RdbWriterTest, MutatedPayloadsNeverCrash) {
  auto l = std::make_unique<QuickList>();
  for (int i = 0; i < 50; i++) l->PushBack(i % 3 ? std::to_string(i * 977) : "elem", {});
  auto h = std::make_unique<Hash>();
  for (int i = 0; i < 10; i++) h->Set("f" + std::to_string(i), std::string(i * 7, 'v'), {});
  std::vector<std::string> seeds = {
      DumpPayload(ZSet({{"a", 1}, {"b", -HUGE_VAL}, {"c", 0.5}})),
      DumpPayload(Value(std::move(l))), DumpPayload(Value(std::move(h))),
      DumpPayload(Value(std::string("12345"))), DumpPayload(Value(std::string(100, 'x')))};
  std::mt19937 rng(20261201);
  int decoded = 0;
  for (int round = 0; round < 20000; round++) {
    std::string p = seeds[rng() % seeds.size()];
    const size_t body = p.size() - 10;
    switch (rng() % 3) {
      case 0: p[rng() % body] ^= static_cast<char>(1 + rng() % 255); break;
      case 1: p.erase(rng() % body, 1 + rng() % 4); break;
      default: p.insert(rng() % body, p.substr(rng() % body, 1 + rng() % 8)); break;
    }
    if (p.size() < 10) continue;
    Value v;
    if (!ReadDumpPayload(p, SnapshotLoadOptions{}, &v).ok()) continue;
    decoded++;
    Value back;
    ASSERT_TRUE(ReadDumpPayload(DumpPayload(v), SnapshotLoadOptions{}, &back).ok()) << round;
    EXPECT_EQ(back.type(), v.type());
  }
  EXPECT_GT(decoded, 0);
}

}  // namespace
}  // namespace rankd
