// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// TreeSet internals the SortedSet model tests reach only by chance: arena
// compaction after heavy removal of varied-size members, exact-size reuse
// of freed records, out-of-line members, and the in-place score update
// that must refresh cached separator hints.

#include "core/tree_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/record_arena.h"

namespace rankd {
namespace {

void InsertNew(TreeSet& t, const std::string& m, double s) {
  t.Insert(m, MemberIndex::Hash(m), s);
}

TEST(TreeSetTest, CompactionAfterHeavyRemovalKeepsEverythingFindable) {
  std::mt19937_64 rng(77);
  std::printf("TreeSetTest compaction seed=77\n");
  TreeSet t;
  std::map<std::string, double> model;
  while (model.size() < 30000) {
    std::string m(1 + rng() % 60, 'a');
    for (char& c : m) c = static_cast<char>('a' + rng() % 26);
    double s = static_cast<double>(rng() % 1000);
    if (model.emplace(m, s).second) InsertNew(t, m, s);
  }
  const size_t full = t.MemoryUsage();
  std::vector<std::string> members;
  for (auto& [m, s] : model) members.push_back(m);
  std::shuffle(members.begin(), members.end(), rng);
  for (size_t i = 0; i < 27000; ++i) {
    const std::string& m = members[i];
    uint64_t hash = MemberIndex::Hash(m);
    TreeSet::Handle h = t.Find(m, hash);
    ASSERT_NE(h, RecordArena::kNoHandle);
    t.Remove(h, hash);
    model.erase(m);
    if (i % 5000 == 0) {
      ASSERT_EQ(t.CheckInvariants(), "");
    }
  }
  ASSERT_EQ(t.CheckInvariants(), "");
  // Compaction (and index shrinking) returned most of the memory.
  EXPECT_LT(t.MemoryUsage(), full / 4);
  uint64_t rank = 0;
  std::vector<std::pair<double, std::string>> order;
  for (auto& [m, s] : model) order.emplace_back(s, m);
  std::sort(order.begin(), order.end());
  for (auto& [s, m] : order) {
    TreeSet::Handle h = t.Find(m, MemberIndex::Hash(m));
    ASSERT_NE(h, RecordArena::kNoHandle) << m;
    EXPECT_EQ(t.ScoreOf(h), s);
    EXPECT_EQ(t.RankOf(h), rank++);
  }
}

TEST(TreeSetTest, InPlaceScoreUpdateRefreshesSeparatorHints) {
  TreeSet t;
  for (int i = 0; i < 5000; ++i) InsertNew(t, "m" + std::to_string(i), i * 10.0);
  // Small moves keep each element between its neighbours, so the tree is
  // not restructured; some of these elements are separators.
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 5000; ++i) {
      std::string m = "m" + std::to_string(i);
      TreeSet::Handle h = t.Find(m, MemberIndex::Hash(m));
      t.UpdateScore(h, t.ScoreOf(h) + 1);
    }
    ASSERT_EQ(t.CheckInvariants(), "");
  }
  EXPECT_EQ(t.CountScoreBelow(13.0, false), 1u);  // only m0 (3) is below 13
  EXPECT_EQ(t.CountScoreBelow(13.0, true), 2u);   // m1 is 13
}

TEST(RecordArenaTest, RecordsRoundTripAndFreedSlotsAreReused) {
  RecordArena a;
  const std::string big(5000, 'q');
  std::string binary("a\0b", 3);
  RecordArena::Handle h1 = a.New("hello", 1.5);
  RecordArena::Handle h2 = a.New(big, -2.0);
  RecordArena::Handle h3 = a.New(binary, 0.0);
  RecordArena::Handle h4 = a.New("", 7.0);
  EXPECT_EQ(a.Member(h1), "hello");
  EXPECT_EQ(a.Member(h2), big);
  EXPECT_EQ(a.Member(h3), binary);
  EXPECT_EQ(a.Member(h4), "");
  EXPECT_EQ(a.Score(h2), -2.0);
  a.SetScore(h1, 9.0);
  EXPECT_EQ(a.Score(h1), 9.0);
  EXPECT_GT(a.MemoryUsage(), big.size());
  a.Free(h1);
  EXPECT_EQ(a.waste_bytes(), RecordArena::RecordSize(5));
  RecordArena::Handle h5 = a.New("world", 3.0);  // same size: same slot
  EXPECT_EQ(h5, h1);
  EXPECT_EQ(a.waste_bytes(), 0u);
  a.Free(h2);  // out-of-line bytes are released at once
  EXPECT_LT(a.MemoryUsage(), big.size());
  EXPECT_EQ(a.Member(h3), binary);
}

TEST(RecordArenaTest, AdoptMovesRecordsAndOutOfLineBuffers) {
  RecordArena from, to;
  const std::string big(3000, 'z');
  RecordArena::Handle a = from.New("small", 1.0), b = from.New(big, 2.0);
  RecordArena::Handle na = to.Adopt(&from, a), nb = to.Adopt(&from, b);
  from.SetForward(a, na);
  from.SetForward(b, nb);
  EXPECT_EQ(from.Forward(a), na);
  EXPECT_EQ(from.Forward(b), nb);
  EXPECT_EQ(to.Member(na), "small");
  EXPECT_EQ(to.Member(nb), big);
  EXPECT_EQ(to.Score(nb), 2.0);
  to.Free(nb);  // `to` owns the big buffer now; `from` must not free it again
}

TEST(RecordArenaTest, LargeArenasCarveBlocksFromHugeChunksAndStayReadable) {
  // 400,000 25-byte records: ~10 MB, so blocks past the first 2 MiB come out
  // of huge-page chunks. Every record reads back, frees are reused, and
  // Swap and Adopt carry carved blocks like malloc'd ones.
  RecordArena a;
  std::vector<RecordArena::Handle> hs;
  char name[17];
  for (int i = 0; i < 400000; ++i) {
    std::snprintf(name, sizeof name, "%016d", i);
    hs.push_back(a.New(name, i));
  }
  EXPECT_GE(a.MemoryUsage(), a.live_bytes());
  EXPECT_LT(a.MemoryUsage(), a.live_bytes() + (size_t{5} << 20));  // < one chunk + bookkeeping
  for (int i = 0; i < 400000; i += 997) {
    std::snprintf(name, sizeof name, "%016d", i);
    ASSERT_EQ(a.Member(hs[i]), name);
    ASSERT_EQ(a.Score(hs[i]), i);
  }
  a.Free(hs[399999]);
  EXPECT_EQ(a.New("x000000000000000", -1), hs[399999]);
  RecordArena b;
  b.Swap(a);
  EXPECT_EQ(b.Member(hs[123456]), "0000000000123456");
  RecordArena c;
  const RecordArena::Handle moved = c.Adopt(&b, hs[300000]);
  EXPECT_EQ(c.Member(moved), "0000000000300000");
}

}  // namespace
}  // namespace rankd
