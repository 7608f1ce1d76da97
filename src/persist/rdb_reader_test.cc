// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The Redis RDB reader on hand-made RDB bytes, one encoding at a time.
// Real redis-server RDBs (both encodings of every type) are covered by
// tests/test_migrate_from_redis.py through replication.

#include "persist/rdb_reader.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace rankd {
namespace {

std::string B(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

std::string Str(std::string_view s) {  // 6-bit length string
  return B({static_cast<int>(s.size())}) + std::string(s);
}

// A complete RDB: header, `body`, EOF and the CRC64.
std::string Rdb(const std::string& body, bool crc = true) {
  std::string r = "REDIS0010" + body + B({0xFF});
  uint64_t c = crc ? Crc64Redis(0, r) : 0;
  for (int i = 0; i < 8; i++) r.push_back(static_cast<char>(c >> (8 * i)));
  return r;
}

// A listpack from raw entries (encoding + data); backlens added here.
std::string Listpack(const std::vector<std::string>& entries) {
  std::string body;
  for (const std::string& e : entries) body += e + B({static_cast<int>(e.size())});
  body += B({0xFF});
  std::string lp;
  const uint32_t total = static_cast<uint32_t>(body.size() + 6);
  for (int i = 0; i < 4; i++) lp.push_back(static_cast<char>(total >> (8 * i)));
  lp += B({static_cast<int>(entries.size()), 0});
  return lp + body;
}

std::string Blob(const std::string& s) {  // a 14-bit length string
  return B({0x40 | static_cast<int>(s.size() >> 8), static_cast<int>(s.size() & 0xff)}) + s;
}

struct Loaded {
  std::vector<std::unique_ptr<Database>> dbs;
  SnapshotLoadStats stats;
  std::vector<std::pair<std::string, std::string>> aux;
  Status status;
  const Value* Get(int db, std::string_view key) const {
    const Database::Entry* e = dbs[db]->Peek(key);
    return e ? &e->value : nullptr;
  }
};

Loaded Load(const std::string& rdb) {
  Loaded l;
  for (int i = 0; i < 4; i++) l.dbs.push_back(std::make_unique<Database>(i));
  SnapshotLoadOptions opts;
  opts.now_ms = 1000;
  opts.on_aux = [&](std::string_view k, std::string_view v) {
    l.aux.emplace_back(k, v);
    return Status::OK();
  };
  l.status = LoadRedisRdb(
      rdb, [&](int i) { return i < 4 ? l.dbs[i].get() : nullptr; }, opts, &l.stats);
  return l;
}

TEST(RdbReaderTest, Crc64CheckValue) {
  EXPECT_EQ(Crc64Redis(0, "123456789"), 0xe9c6d914c4b8d9caULL);  // redis/src/crc64.c
}

TEST(RdbReaderTest, StringsOpcodesAndExpiry) {
  std::string body = B({0xFA}) + Str("redis-ver") + Str("7.0.15") + B({0xFE, 0x01, 0xFB, 3, 1}) +
                     B({0x00}) + Str("s") + Str("hello") +                    // plain
                     B({0x00}) + Str("i8") + B({0xC0, 0xF6}) +                // int8 -10
                     B({0x00}) + Str("i16") + B({0xC1, 0x39, 0x30}) +         // 12345
                     B({0x00}) + Str("i32") + B({0xC2, 0xFF, 0xFF, 0xFF, 0x7F}) +
                     B({0xF8, 0x05, 0xF9, 0x03}) +                             // IDLE, FREQ
                     B({0xFC, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10}) +
                     B({0x00}) + Str("ttl") + Str("v") +
                     B({0xFD, 0x00, 0x00, 0x00, 0x00}) +  // seconds deadline 0: expired
                     B({0x00}) + Str("gone") + Str("v") +
                     B({0x00}) + Str("lzf") + B({0xC3, 5, 10, 0x00, 'a', 0xE0, 0x00, 0x00}) +
                     B({0x00}) + Blob(std::string(300, 'x')).insert(0, Str("long"));
  Loaded l = Load(Rdb(body));
  ASSERT_TRUE(l.status.ok()) << l.status.message();
  EXPECT_EQ(l.aux.size(), 1u);
  EXPECT_EQ(l.dbs[0]->size(), 0u);
  EXPECT_EQ(l.Get(1, "s")->str(), "hello");
  EXPECT_EQ(l.Get(1, "i8")->str(), "-10");
  EXPECT_EQ(l.Get(1, "i16")->str(), "12345");
  EXPECT_EQ(l.Get(1, "i32")->str(), "2147483647");
  EXPECT_EQ(l.dbs[1]->ExpireMs(l.dbs[1]->Peek("ttl")), int64_t{1} << 60);
  EXPECT_EQ(l.Get(1, "gone"), nullptr);
  EXPECT_EQ(l.stats.keys_expired, 1u);
  EXPECT_EQ(l.Get(1, "lzf")->str(), std::string(10, 'a'));
  EXPECT_EQ(l.Get(1, "long")->str(), std::string(300, 'x'));
}

TEST(RdbReaderTest, SortedSets) {
  std::string lp = Listpack({B({0x81, 'a'}), B({0x05}),                    // a 5 (7-bit uint)
                             B({0x81, 'b'}), B({0x83, 'i', 'n', 'f'}),      // b inf
                             B({0x81, 'c'}), B({0xDF, 0xFD}),               // c -3 (13-bit)
                             B({0x81, 'd'}), B({0xF1, 0xE8, 0x03}),         // d 1000 (int16)
                             B({0x81, 'e'}), B({0xF2, 0xFF, 0xFF, 0xFF}),   // e -1 (int24)
                             B({0x81, 'f'}), B({0x82, '-', '0'})});        // f -0
  double neg_zero = -0.0, tiny = 1e-300;
  std::string z2 = B({0x05}) + Str("z2") + B({2}) + Str("m") + std::string(8, '\0') + Str("n") +
                   std::string(8, '\0');
  std::memcpy(z2.data() + z2.size() - 8, &tiny, 8);
  std::memcpy(z2.data() + z2.size() - 18, &neg_zero, 8);
  std::string old = B({0x03}) + Str("z1") + B({2}) + Str("p") + B({254}) + Str("q") + Str("2.5");
  Loaded l = Load(Rdb(B({0x11}) + Str("zl") + Blob(lp) + z2 + old));
  ASSERT_TRUE(l.status.ok()) << l.status.message();
  const SortedSet& zl = l.Get(0, "zl")->zset();
  EXPECT_EQ(*zl.Score("a"), 5);
  EXPECT_EQ(*zl.Score("b"), HUGE_VAL);
  EXPECT_EQ(*zl.Score("c"), -3);
  EXPECT_EQ(*zl.Score("d"), 1000);
  EXPECT_EQ(*zl.Score("e"), -1);
  EXPECT_TRUE(std::signbit(*zl.Score("f")));
  EXPECT_TRUE(std::signbit(*l.Get(0, "z2")->zset().Score("m")));
  EXPECT_EQ(*l.Get(0, "z2")->zset().Score("n"), 1e-300);
  EXPECT_EQ(*l.Get(0, "z1")->zset().Score("p"), HUGE_VAL);
  EXPECT_EQ(*l.Get(0, "z1")->zset().Score("q"), 2.5);
}

TEST(RdbReaderTest, SetsHashesLists) {
  std::string intset = B({2, 0, 0, 0, 3, 0, 0, 0, 0x01, 0x00, 0xFE, 0xFF, 0x2C, 0x01});
  // zlbytes 23, zltail 18 (the last entry), 4 entries.
  std::string zl_hash = B({0x17, 0, 0, 0, 0x12, 0, 0, 0, 4, 0}) + B({0, 0x01, 'f'}) + B({3, 0xF8}) +
                        B({2, 0x01, 'g'}) + B({3, 0xC0, 0x18, 0xFC}) + B({0xFF});
  std::string body =
      B({0x0B}) + Str("is") + Blob(intset) +                                     // 1 -2 300
      B({0x02}) + Str("set") + B({2}) + Str("x") + Str("y") +
      B({0x10}) + Str("hl") + Blob(Listpack({B({0x81, 'k'}), B({0x82, 'v', 'w'})})) +
      B({0x0D}) + Str("hz") + Blob(zl_hash) +                                    // f 7, g -1000
      B({0x04}) + Str("h") + B({1}) + Str("a") + Str("b") +
      B({0x12}) + Str("l") + B({2, 1}) + Str("plain") + B({2}) +
      Blob(Listpack({B({0x81, 'x'}), B({0x07})}));
  Loaded l = Load(Rdb(body));
  ASSERT_TRUE(l.status.ok()) << l.status.message();
  const PlainSet& is = l.Get(0, "is")->set();
  EXPECT_EQ(is.size(), 3u);
  EXPECT_TRUE(is.Contains("1") && is.Contains("-2") && is.Contains("300"));
  EXPECT_TRUE(l.Get(0, "set")->set().Contains("y"));
  EXPECT_EQ(*l.Get(0, "hl")->hash().Get("k"), "vw");
  EXPECT_EQ(*l.Get(0, "hz")->hash().Get("f"), "7");
  EXPECT_EQ(*l.Get(0, "hz")->hash().Get("g"), "-1000");
  EXPECT_EQ(*l.Get(0, "h")->hash().Get("a"), "b");
  const QuickList& list = l.Get(0, "l")->list();
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list.At(0), "plain");
  EXPECT_EQ(list.At(1), "x");
  EXPECT_EQ(list.At(2), "7");
}

TEST(RdbReaderTest, ErrorsNameTheProblem) {
  Loaded module = Load(Rdb(B({0x07}) + Str("md") + Str("junk")));
  EXPECT_EQ(module.status.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(module.status.message().find("value type 7 (module)"), std::string::npos);
  EXPECT_NE(module.status.message().find("'md'"), std::string::npos);
  // A stream is read now; a malformed one is corruption.
  Loaded stream = Load(Rdb(B({0x13}) + Str("st") + Str("junk")));
  EXPECT_EQ(stream.status.code(), Status::Code::kCorruption);
  std::string good = Rdb(B({0x00}) + Str("k") + Str("v"));
  good[13] = 'w';
  EXPECT_EQ(Load(good).status.message(), "RDB: checksum mismatch (RDB CRC error)");
  EXPECT_TRUE(Load(Rdb(B({0x00}) + Str("k") + Str("v"), /*crc=*/false)).status.ok());
  EXPECT_FALSE(Load("REDIS0010" + B({0x00}) + Str("k")).status.ok());  // truncated
  EXPECT_FALSE(Load(Rdb(B({0xFE, 9}))).status.ok());                   // db out of range
  EXPECT_EQ(Load("REDIS0012").status.code(), Status::Code::kInvalidArgument);
  // A function library without on_function; with it, the code is handed over.
  const std::string fn = Rdb(B({0xF5}) + Str("#!lua name=x"));
  EXPECT_EQ(Load(fn).status.code(), Status::Code::kInvalidArgument);
  SnapshotLoadOptions opts;
  std::string code;
  opts.on_function = [&](std::string_view c) {
    code = c;
    return Status::OK();
  };
  SnapshotLoadStats stats;
  Database db(0);
  EXPECT_TRUE(LoadRedisRdb(fn, [&](int) { return &db; }, opts, &stats).ok());
  EXPECT_EQ(code, "#!lua name=x");
  EXPECT_NE(Load(Rdb(B({0xF7}))).status.message().find("module"), std::string::npos);
}

// Every truncation and many single-byte changes of a valid RDB holding
// every encoding: an error or a load, never a crash or a runaway allocation
// (run under the sanitizers by `make asan` where available).
TEST(RdbReaderTest, DamagedInputIsAnErrorNotACrash) {
  std::string lp = Listpack({B({0x81, 'a'}), B({0x05}), B({0x81, 'b'}), B({0xF1, 0xE8, 0x03})});
  std::string zl = B({0x10, 0, 0, 0, 0x0D, 0, 0, 0, 2, 0}) + B({0, 0x01, 'f'}) + B({3, 0xF8}) +
                   B({0xFF});
  std::string intset = B({2, 0, 0, 0, 2, 0, 0, 0, 0x01, 0x00, 0xFE, 0xFF});
  std::string body = B({0xFA}) + Str("k") + Str("v") + B({0xFE, 0x01}) + B({0x11}) + Str("z") +
                     Blob(lp) + B({0x0D}) + Str("h") + Blob(zl) + B({0x0B}) + Str("i") +
                     Blob(intset) + B({0x12}) + Str("l") + B({1, 2}) + Blob(lp) + B({0x00}) +
                     Str("s") + B({0xC3, 5, 10, 0x00, 'a', 0xE0, 0x00, 0x00});
  const std::string good = Rdb(body, /*crc=*/false);
  ASSERT_TRUE(Load(good).status.ok()) << Load(good).status.message();
  for (size_t n = 0; n + 9 < good.size(); n++) {
    EXPECT_FALSE(Load(good.substr(0, n)).status.ok()) << n;
  }
  for (size_t i = 9; i + 9 < good.size(); i++) {
    for (int v : {0x00, 0x01, 0x3F, 0x40, 0x7F, 0x80, 0x81, 0xC3, 0xF0, 0xF4, 0xFE, 0xFF}) {
      std::string bad = good;
      bad[i] = static_cast<char>(v);
      (void)Load(bad);  // either outcome; it must return
    }
  }
}

}  // namespace
}  // namespace rankd
