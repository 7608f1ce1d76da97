// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// QuickList against a std::deque model with small and large chunks, with
// compression off and at depths 1-3; Redis's compression thresholds.

#include "core/quick_list.h"

#include <algorithm>
#include <deque>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "base/lzf.h"
#include "gtest/gtest.h"

namespace rankd {
namespace {

std::vector<std::string> All(const QuickList& l, bool reverse = false) {
  std::vector<std::string> out;
  l.ForEach(0, l.size(), reverse, [&](std::string_view v) { out.emplace_back(v); });
  return out;
}

// Mostly short values from a small pool (so LREM finds matches), some
// longer compressible ones, some random (incompressible) ones.
std::string RandomValue(std::mt19937& rng) {
  switch (rng() % 16) {
    case 0: {
      std::string s(40 + rng() % 80, '\0');
      for (char& c : s) c = static_cast<char>(rng());
      return s;
    }
    case 1: return std::string(40 + rng() % 300, static_cast<char>('a' + rng() % 3));
    case 2: return R"({"user":)" + std::to_string(rng() % 5) + R"(,"name":"player","x":1})";
    default: return std::string(rng() % 10, static_cast<char>('a' + rng() % 3));
  }
}

// (fill, compress depth)
class QuickListModelTest : public ::testing::TestWithParam<std::tuple<int64_t, int64_t>> {};

TEST_P(QuickListModelTest, MatchesModelAfterRandomOps) {
  const auto [fill, depth] = GetParam();
  const uint32_t seed = 7 + static_cast<uint32_t>(depth);
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  // Depth-3 runs also store elements of 40 bytes and more plain (alone in
  // their chunk), as after DEBUG QUICKLIST-PACKED-THRESHOLD 40.
  ListLimits limits{fill, depth, depth == 3 ? 40 : ListLimits::kDefaultPlainThreshold};
  QuickList l(depth);
  std::deque<std::string> model;
  size_t most_compressed = 0;
  for (int i = 0; i < 6000; i++) {  // a long list first, so chunks reach the interior
    std::string v = RandomValue(rng);
    l.PushBack(v, limits);
    model.push_back(v);
  }
  for (int i = 0; i < 20000; i++) {
    std::string v = RandomValue(rng);
    switch (rng() % 10) {
      case 0: l.PushFront(v, limits); model.push_front(v); break;
      case 1: case 8: l.PushBack(v, limits); model.push_back(v); break;
      case 2:
        if (!model.empty()) { ASSERT_EQ(l.PopFront(), model.front()); model.pop_front(); }
        break;
      case 3:
        if (!model.empty()) { ASSERT_EQ(l.PopBack(), model.back()); model.pop_back(); }
        break;
      case 4: {
        size_t at = rng() % (model.size() + 1);
        l.Insert(at, v, limits);
        model.insert(model.begin() + at, v);
        break;
      }
      case 5:
        if (!model.empty()) {
          size_t at = rng() % model.size(), n = std::min<size_t>(rng() % 20, model.size() - at);
          if (rng() % 50 == 0) n = model.size() - at;  // LTRIM-like cuts
          l.Erase(at, n);
          model.erase(model.begin() + at, model.begin() + at + n);
        }
        break;
      case 6:
        if (!model.empty()) {
          size_t at = rng() % model.size();
          l.Replace(at, v, limits);
          model[at] = v;
        }
        break;
      case 7: {
        if (rng() % 4 != 0) break;
        const std::string target(rng() % 10, static_cast<char>('a' + rng() % 3));
        const uint64_t limit = rng() % 3 == 0 ? UINT64_MAX : rng() % 4;
        const bool from_tail = rng() % 2;
        auto match = [&](std::string_view x) { return x == target; };
        uint64_t expect = 0;
        if (from_tail) {
          for (size_t j = model.size(); j-- > 0 && expect < limit;) {
            if (model[j] == target) model.erase(model.begin() + j), expect++;
          }
        } else {
          for (size_t j = 0; j < model.size() && expect < limit;) {
            if (model[j] == target) {
              model.erase(model.begin() + j), expect++;
            } else {
              j++;
            }
          }
        }
        ASSERT_EQ(l.RemoveIf(match, limit, from_tail), expect);
        break;
      }
      default:
        if (!model.empty()) {
          size_t at = rng() % model.size();
          ASSERT_EQ(l.At(at), model[at]);
        }
    }
    ASSERT_EQ(l.size(), model.size());
    most_compressed = std::max(most_compressed, l.CompressedChunks());
    if (i % 250 == 0) {
      ASSERT_TRUE(l.CheckInvariants()) << "op " << i;
    }
  }
  ASSERT_TRUE(l.CheckInvariants());
  if (depth == 0) {
    EXPECT_EQ(most_compressed, 0u);
  } else if (fill >= -2) {
    EXPECT_GT(most_compressed, 0u);
  }
  std::vector<std::string> expect(model.begin(), model.end());
  EXPECT_EQ(All(l), expect);
  auto copy = l.Clone();
  EXPECT_EQ(All(*copy), expect);
  EXPECT_EQ(copy->compress_depth(), l.compress_depth());
  EXPECT_EQ(copy->CompressedChunks(), l.CompressedChunks());
  EXPECT_TRUE(copy->CheckInvariants());
  std::reverse(expect.begin(), expect.end());
  EXPECT_EQ(All(l, true), expect);
  if (model.size() > 10) {
    std::vector<std::string> mid;
    l.ForEach(3, 5, true, [&](std::string_view v) { mid.emplace_back(v); });
    EXPECT_EQ(mid, std::vector<std::string>(model.rbegin() + (model.size() - 8),
                                            model.rbegin() + (model.size() - 3)));
  }
  // Drain from both ends: chunks move from the interior to the ends.
  while (!model.empty()) {
    if (rng() % 2) {
      ASSERT_EQ(l.PopFront(), model.front());
      model.pop_front();
    } else {
      ASSERT_EQ(l.PopBack(), model.back());
      model.pop_back();
    }
    if (model.size() % 97 == 0) {
      ASSERT_TRUE(l.CheckInvariants());
    }
  }
  EXPECT_EQ(l.chunk_count(), 0u);
}

// Plain elements stand alone: pushing, inserting next to and replacing
// them never shares their chunk, and a replaced one gives its chunk back.
TEST(QuickListTest, PlainElementsStayAlone) {
  ListLimits limits{-2, 0, 10};
  QuickList l;
  const std::string big(20, 'b');
  for (const char* v : {"a", "b"}) l.PushBack(v, limits);
  l.PushBack(big, limits);
  l.PushBack("c", limits);
  l.PushFront(big, limits);
  EXPECT_EQ(l.chunk_count(), 4u);  // [big] [a b] [big] [c]
  l.Insert(3, "x", limits);        // before the inner plain one: joins [a b]
  EXPECT_EQ(l.chunk_count(), 4u);
  l.Insert(2, big, limits);        // between a and b: cuts [a b x] in three
  EXPECT_EQ(l.chunk_count(), 6u);
  l.Replace(1, big, limits);       // a becomes plain in its own chunk
  EXPECT_EQ(l.chunk_count(), 6u);
  l.Replace(0, "small", limits);   // the head is no longer plain
  l.PushFront("y", limits);        // ... so it takes another element
  EXPECT_EQ(l.chunk_count(), 6u);
  EXPECT_TRUE(l.CheckInvariants());
  EXPECT_EQ(All(l), (std::vector<std::string>{"y", "small", big, big, "b", "x", big, "c"}));
}

INSTANTIATE_TEST_SUITE_P(
    FillAndDepth, QuickListModelTest,
    ::testing::Combine(::testing::Values(-2, -1, 3, 1, 8, -5), ::testing::Values(0, 1, 2, 3)),
    [](const auto& info) {
      const int64_t fill = std::get<0>(info.param);
      return (fill < 0 ? "fill_minus" + std::to_string(-fill) : "fill" + std::to_string(fill)) +
             "_depth" + std::to_string(std::get<1>(info.param));
    });

// A list of compressible values: every chunk but `depth` at each end is
// compressed, reads see through it, and it costs less memory.
TEST(QuickListTest, InteriorChunksAreCompressed) {
  for (int64_t depth : {1, 2, 3}) {
    SCOPED_TRACE("depth " + std::to_string(depth));
    ListLimits limits{8, depth};
    QuickList plain(0), packed(depth);
    for (int i = 0; i < 1000; i++) {
      const std::string v = R"({"id":)" + std::to_string(i % 10) + R"(,"state":"waiting"})";
      plain.PushBack(v, limits);
      packed.PushBack(v, limits);
    }
    EXPECT_EQ(packed.chunk_count(), 125u);
    EXPECT_EQ(packed.CompressedChunks(), 125u - 2 * depth);
    EXPECT_LT(packed.MemoryUsage() * 3, plain.MemoryUsage() * 2)
        << packed.MemoryUsage() << " vs " << plain.MemoryUsage();
    EXPECT_EQ(packed.UncompressedBytes(), plain.UncompressedBytes());
    EXPECT_EQ(All(packed), All(plain));
    EXPECT_EQ(packed.At(500), plain.At(500));
    packed.Replace(500, "x", limits);  // an interior edit is compressed again
    packed.Insert(300, "y", limits);
    packed.Erase(700, 3);
    EXPECT_EQ(packed.CompressedChunks(), packed.chunk_count() - 2 * depth);
    EXPECT_TRUE(packed.CheckInvariants());
  }
}

TEST(QuickListTest, ShortListsAndLargeDepthsStayRaw) {
  ListLimits limits{4, 3};
  QuickList l(3);
  for (int i = 0; i < 24; i++) l.PushBack(std::string(30, 'q'), limits);  // 6 chunks = 2 x 3
  EXPECT_EQ(l.CompressedChunks(), 0u);
  l.PushBack("r", limits);  // a 7th chunk: the middle one compresses
  EXPECT_EQ(l.CompressedChunks(), 1u);
  l.PopBack();
  EXPECT_EQ(l.CompressedChunks(), 0u);
  EXPECT_TRUE(l.CheckInvariants());
  EXPECT_EQ(QuickList(1 << 20).compress_depth(), 65535u);
  EXPECT_EQ(QuickList(-4).compress_depth(), 0u);
}

TEST(QuickListTest, LargeElementsGetTheirOwnChunk) {
  QuickList l;
  ListLimits limits{-1};
  l.PushBack(std::string(10000, 'x'), limits);
  l.PushBack("a", limits);
  l.PushFront(std::string(5000, 'y'), limits);
  EXPECT_EQ(l.chunk_count(), 3u);
  EXPECT_EQ(l.At(1).size(), 10000u);
  EXPECT_TRUE(l.CheckInvariants());
}

// The head chunk grows at its front (free space before its first entry):
// chunk boundaries, reads, edits and compression see the same list as one
// built by PushBack in the opposite order, and a chunk that stops being the
// head gives its slack back.
TEST(QuickListTest, HeadPushesKeepChunksAsPushBack) {
  for (int64_t fill : {-2, -1, 5, 100}) {
    for (int64_t depth : {0, 1, 2}) {
      SCOPED_TRACE("fill " + std::to_string(fill) + " depth " + std::to_string(depth));
      ListLimits limits{fill, depth};
      QuickList front(depth), back(depth);
      std::deque<std::string> model;
      for (int i = 0; i < 5000; i++) {
        const std::string v = i % 97 == 0 ? std::string(200 + i % 50, 'z') : std::to_string(i);
        front.PushFront(v, limits);
        model.push_front(v);
      }
      for (const std::string& v : model) back.PushBack(v, limits);
      ASSERT_TRUE(front.CheckInvariants());
      EXPECT_EQ(front.size(), 5000u);
      EXPECT_EQ(front.chunk_count(), back.chunk_count());
      EXPECT_EQ(front.UncompressedBytes(), back.UncompressedBytes());
      EXPECT_EQ(All(front), std::vector<std::string>(model.begin(), model.end()));
      EXPECT_EQ(All(front, true), All(back, true));
      for (size_t i : {size_t{0}, size_t{1}, size_t{2}, size_t{1637}, size_t{1638}, size_t{4999}}) {
        EXPECT_EQ(front.At(i), model[i]) << i;
      }
      // Every chunk but the head is trimmed: at most the head's slack more.
      EXPECT_LE(front.MemoryUsage(), back.MemoryUsage() + 8192 + 64);
      // Edits at the head after head pushes (LSET 0, LINSERT, LREM, LTRIM).
      front.Replace(0, "head", limits);
      model[0] = "head";
      front.Replace(1, std::string(300, 'w'), limits);
      model[1] = std::string(300, 'w');
      front.Insert(1, "ins", limits);
      model.insert(model.begin() + 1, "ins");
      front.PushFront("again", limits);
      model.push_front("again");
      EXPECT_EQ(front.PopFront(), "again");
      model.pop_front();
      EXPECT_EQ(front.PopFront(), "head");
      model.pop_front();
      front.PushFront("p1", limits);
      front.PushFront("p2", limits);
      model.push_front("p1");
      model.push_front("p2");
      front.Erase(1, 2);
      model.erase(model.begin() + 1, model.begin() + 3);
      EXPECT_EQ(front.RemoveIf([](std::string_view v) { return v == "p2"; }, 1, false), 1u);
      model.pop_front();
      for (int i = 0; i < 2000; i++) {  // pops across a chunk boundary, then pushes again
        ASSERT_EQ(front.PopFront(), model.front());
        model.pop_front();
      }
      for (int i = 0; i < 1000; i++) {
        front.PushFront("n" + std::to_string(i), limits);
        model.push_front("n" + std::to_string(i));
      }
      ASSERT_TRUE(front.CheckInvariants());
      EXPECT_EQ(All(front), std::vector<std::string>(model.begin(), model.end()));
      EXPECT_EQ(front.PopBack(), model.back());
      model.pop_back();
      auto copy = front.Clone();
      EXPECT_EQ(All(*copy), All(front));
      EXPECT_TRUE(copy->CheckInvariants());
    }
  }
}

// A one-chunk list used from both ends: pushes at the back and pops at the
// front keep the entries between the lead and the end.
TEST(QuickListTest, OneChunkUsedFromBothEnds) {
  ListLimits limits{-2, 0};
  QuickList l;
  std::deque<std::string> model;
  for (int i = 0; i < 300; i++) {
    const std::string v(i % 7, static_cast<char>('a' + i % 26));
    if (i % 3 == 0) {
      l.PushFront(v, limits);
      model.push_front(v);
    } else {
      l.PushBack(v, limits);
      model.push_back(v);
    }
    if (i % 5 == 0 && !model.empty()) {
      ASSERT_EQ(l.PopFront(), model.front());
      model.pop_front();
    }
    if (i % 11 == 0 && !model.empty()) {
      ASSERT_EQ(l.PopBack(), model.back());
      model.pop_back();
    }
    ASSERT_TRUE(l.CheckInvariants());
  }
  EXPECT_EQ(l.chunk_count(), 1u);
  EXPECT_EQ(All(l), std::vector<std::string>(model.begin(), model.end()));
}

// Redis's thresholds: chunks under 48 bytes are never compressed, and a
// compression that saves fewer than 8 bytes is not kept.
TEST(QuickListTest, CompressionThresholds) {
  std::string lzf;
  EXPECT_FALSE(QuickList::CompressChunk(std::string(47, 'a'), &lzf));
  EXPECT_TRUE(QuickList::CompressChunk(std::string(48, 'a'), &lzf));
  std::string back(48, '\0');
  ASSERT_TRUE(LzfDecompress(lzf, back.data(), back.size()));
  EXPECT_EQ(back, std::string(48, 'a'));
  // Find inputs that compress by exactly 8 and exactly 9 bytes: a random
  // prefix, then a run the compressor turns into one reference.
  std::mt19937 rng(21);
  bool saw8 = false, saw9 = false;
  for (int prefix = 48; prefix < 120 && !(saw8 && saw9); prefix++) {
    for (int run = 3; run < 40; run++) {
      std::string raw(prefix, '\0');
      for (char& c : raw) c = static_cast<char>(rng());
      raw += std::string(run, '\x01');
      std::string out(raw.size() * 2, '\0');
      const size_t n = LzfCompress(raw, out.data(), out.size());
      const size_t saved = raw.size() > n ? raw.size() - n : 0;
      const bool kept = QuickList::CompressChunk(raw, &lzf);
      EXPECT_EQ(kept, saved >= 9) << "size " << raw.size() << " saved " << saved;
      saw8 |= saved == 8;
      saw9 |= saved == 9;
    }
  }
  EXPECT_TRUE(saw8 && saw9);
}

}  // namespace
}  // namespace rankd
