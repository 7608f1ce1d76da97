// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// LZF codec: round trips over random, compressible and incompressible
// data of every small size, liblzf streams read back, output limits, and
// hostile streams refused without reading or writing out of bounds.

#include "base/lzf.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace rankd {
namespace {

// Compresses with room to spare (worst case: one control byte per 32).
std::string Compress(std::string_view in) {
  std::string out(in.size() + in.size() / 32 + 16, '\0');
  const size_t n = LzfCompress(in, out.data(), out.size());
  out.resize(n);
  return out;
}

std::string Decompress(std::string_view lzf, size_t len) {
  std::string out(len, '\0');
  EXPECT_TRUE(LzfDecompress(lzf, out.data(), len));
  return out;
}

std::string RandomBytes(std::mt19937& rng, size_t n, int alphabet) {
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() % alphabet);
  return s;
}

std::string JsonRecords(size_t count) {
  std::string s;
  for (size_t i = 0; i < count; i++) {
    s += R"({"user":")" + std::to_string(1000 + i % 97) +
         R"(","name":"player","level":12,"guild":"north","online":true})";
  }
  return s;
}

TEST(LzfTest, RoundTripsEverySmallSize) {
  std::mt19937 rng(11);
  for (size_t n = 1; n <= 700; n++) {
    for (int alphabet : {2, 4, 256}) {
      const std::string in = RandomBytes(rng, n, alphabet);
      const std::string lzf = Compress(in);
      ASSERT_GT(lzf.size(), 0u) << n;
      ASSERT_EQ(Decompress(lzf, n), in) << "n=" << n << " alphabet=" << alphabet;
    }
  }
}

TEST(LzfTest, RoundTripsLargeMixedData) {
  std::mt19937 rng(12);
  for (int round = 0; round < 20; round++) {
    std::string in;
    while (in.size() < 70000) {
      switch (rng() % 4) {
        case 0: in += RandomBytes(rng, rng() % 300, 256); break;
        case 1: in += std::string(rng() % 1000, static_cast<char>(rng())); break;  // runs
        case 2: in += JsonRecords(rng() % 5); break;
        default:  // a copy of something up to 10 KB back: near and past the 8 KB reach
          if (!in.empty()) {
            const size_t back = 1 + rng() % std::min<size_t>(in.size(), 10000);
            in += in.substr(in.size() - back, rng() % 400);
          }
      }
    }
    const std::string lzf = Compress(in);
    ASSERT_GT(lzf.size(), 0u);
    ASSERT_EQ(Decompress(lzf, in.size()), in) << "round " << round;
  }
}

TEST(LzfTest, CompressibleDataShrinks) {
  const std::string in = JsonRecords(100);
  const std::string lzf = Compress(in);
  EXPECT_LT(lzf.size() * 4, in.size());
  EXPECT_EQ(Decompress(lzf, in.size()), in);
  const std::string run(100000, 'z');  // long references of 264 bytes
  EXPECT_LT(Compress(run).size(), run.size() / 80);
  EXPECT_EQ(Decompress(Compress(run), run.size()), run);
}

TEST(LzfTest, IncompressibleDataDoesNotFitItsOwnSize) {
  std::mt19937 rng(13);
  for (size_t n : {48, 100, 1000, 8192}) {
    const std::string in = RandomBytes(rng, n, 256);
    std::string out(n, '\0');
    EXPECT_EQ(LzfCompress(in, out.data(), n), 0u) << n;  // literals cost 1 byte per 32
    EXPECT_EQ(Decompress(Compress(in), n), in);
  }
}

TEST(LzfTest, OutputLimitIsExact) {
  const std::string in = JsonRecords(10);
  const std::string lzf = Compress(in);
  // As liblzf, the room checks are conservative: up to 4 bytes more than
  // the result are asked for.
  std::string out(lzf.size() + 4, '\0');
  EXPECT_EQ(LzfCompress(in, out.data(), out.size()), lzf.size());
  EXPECT_EQ(out.substr(0, lzf.size()), lzf);
  EXPECT_EQ(LzfCompress(in, out.data(), lzf.size() - 1), 0u);
  EXPECT_EQ(LzfCompress("", out.data(), out.size()), 0u);
}

TEST(LzfTest, ReadsLiblzfStreams) {
  // Literal "a", then a long reference of 9 bytes one back (Redis's RDB of
  // "aaaaaaaaaa"); literal "abc", then a short reference of 6 bytes 3 back.
  EXPECT_EQ(Decompress(std::string("\x00" "a\xE0\x00\x00", 5), 10), std::string(10, 'a'));
  EXPECT_EQ(Decompress(std::string("\x02" "abc\x80\x02", 6), 9), "abcabcabc");
}

TEST(LzfTest, RefusesBadStreams) {
  char out[64];
  EXPECT_FALSE(LzfDecompress(std::string("\x00" "a\xE0\x00\x00", 5), out, 9));   // too long
  EXPECT_FALSE(LzfDecompress(std::string("\x00" "a\xE0\x00\x00", 5), out, 11));  // too short
  EXPECT_FALSE(LzfDecompress(std::string("\x20\x00", 2), out, 3));       // reference at start
  EXPECT_FALSE(LzfDecompress(std::string("\x00" "a\x20\x05", 4), out, 4));  // reaches back 6
  EXPECT_FALSE(LzfDecompress(std::string("\x05" "ab", 3), out, 6));       // truncated literal
  EXPECT_FALSE(LzfDecompress(std::string("\x00" "a\xE0", 3), out, 10));   // truncated reference
  EXPECT_FALSE(LzfDecompress(std::string("\x00" "a\xE0\x00", 4), out, 10));
  std::mt19937 rng(14);  // random streams: any answer, never out of bounds (ASan)
  for (int i = 0; i < 20000; i++) {
    const std::string in = RandomBytes(rng, rng() % 40, 256);
    (void)LzfDecompress(in, out, rng() % sizeof(out));
  }
}

// Debian's liblzf (redis-server links it) reads our streams and we read its.
TEST(LzfTest, InteroperatesWithSystemLiblzf) {
  void* lib = dlopen("liblzf.so.1", RTLD_NOW);
  if (!lib) GTEST_SKIP() << "liblzf.so.1 not installed";
  using Fn = unsigned (*)(const void*, unsigned, void*, unsigned);
  auto theirs_compress = reinterpret_cast<Fn>(dlsym(lib, "lzf_compress"));
  auto theirs_decompress = reinterpret_cast<Fn>(dlsym(lib, "lzf_decompress"));
  ASSERT_TRUE(theirs_compress && theirs_decompress);
  std::mt19937 rng(15);
  for (int i = 0; i < 300; i++) {
    std::string in = JsonRecords(rng() % 200) + RandomBytes(rng, rng() % 3000, 1 + rng() % 256);
    if (in.empty()) continue;
    const std::string ours = Compress(in);
    std::string back(in.size(), '\0');
    ASSERT_EQ(theirs_decompress(ours.data(), ours.size(), back.data(), back.size()), in.size());
    ASSERT_EQ(back, in);
    std::string lzf(in.size() + in.size() / 16 + 64, '\0');
    const unsigned n = theirs_compress(in.data(), in.size(), lzf.data(), lzf.size());
    ASSERT_GT(n, 0u);
    EXPECT_EQ(Decompress(std::string_view(lzf.data(), n), in.size()), in);
  }
  dlclose(lib);
}

// Clears the stack below the caller: liblzf leaves its 256 KB hash table
// uninitialised (INIT_HTAB 0), so stale positions from an earlier call
// could change which matches it takes.
__attribute__((noinline)) void ClearStack() {
  volatile char junk[600 * 1024];
  for (size_t i = 0; i < sizeof(junk); i += 64) junk[i] = 0;
  std::memset(const_cast<char*>(junk), 0, sizeof(junk));
}

// Byte for byte liblzf's output (redis-server's RDB strings and DUMP
// payloads are lzf_compress's), including the output limit it fails at.
TEST(LzfTest, OutputIsLiblzfsByteForByte) {
  void* lib = dlopen("liblzf.so.1", RTLD_NOW);
  if (!lib) GTEST_SKIP() << "liblzf.so.1 not installed";
  using Fn = unsigned (*)(const void*, unsigned, void*, unsigned);
  auto theirs = reinterpret_cast<Fn>(dlsym(lib, "lzf_compress"));
  ASSERT_TRUE(theirs);
  std::mt19937 rng(16);
  std::vector<std::string> inputs = {std::string(21, 'a'), std::string(100000, 'z'),
                                     JsonRecords(300), "abcabcabcabcabcabcabcabcabc"};
  for (size_t n = 1; n < 300; n++) inputs.push_back(std::string(n, 'x'));
  for (int i = 0; i < 400; i++) {
    std::string in;
    while (in.size() < rng() % 20000) {
      switch (rng() % 4) {
        case 0: in += RandomBytes(rng, rng() % 100, 1 + rng() % 256); break;
        case 1: in += std::string(rng() % 300, static_cast<char>(rng())); break;
        case 2: in += JsonRecords(rng() % 3); break;
        default:
          if (!in.empty()) in += in.substr(in.size() - 1 - rng() % std::min<size_t>(in.size(), 9000), rng() % 300);
      }
    }
    if (!in.empty()) inputs.push_back(in);
  }
  for (const std::string& in : inputs) {
    for (size_t cap : {in.size() + in.size() / 16 + 64, in.size() > 4 ? in.size() - 4 : 1}) {
      std::string a(cap + 8, '\0'), b(cap + 8, '\0');
      ClearStack();
      const unsigned n = theirs(in.data(), in.size(), a.data(), cap);
      const size_t m = LzfCompress(in, b.data(), cap);
      ASSERT_EQ(m, n) << "size " << in.size() << " cap " << cap;
      ASSERT_EQ(a.substr(0, n), b.substr(0, m)) << "size " << in.size();
    }
  }
  dlclose(lib);
}

TEST(LzfTest, MaxDecompressedSizeBoundsRealStreams) {
  const std::string run(264 * 50, 'q');
  const std::string lzf = Compress(run);
  EXPECT_LE(run.size(), LzfMaxDecompressedSize(lzf.size()));
}

}  // namespace
}  // namespace rankd
