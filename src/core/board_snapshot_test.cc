// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Stable views (core/board_snapshot.h) against a full copy: random board
// writes (SET / INCR over few scores for many-way ties, removals, rank-range
// removals, exact puts, metadata) interleaved with snapshots; at each check
// every read of the view is compared with the same read of a Clone() taken
// when the view was. Long members and mass removals make the board compact
// its arena, which moves the handles the view keeps.

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/board_snapshot.h"
#include "core/leaderboard.h"
#include "core/sorted_set.h"

namespace rankd {
namespace {

std::string Name(int i, bool long_names) {
  std::string m = "m" + std::to_string(i);
  if (long_names) m += std::string(40, 'x');
  return m;
}

// Every read of `v` equals the same read of `ref`, the board as it was.
void ExpectSameAs(const SortedSet& ref, const BoardSnapshot& v, std::mt19937_64& rng,
                  int universe, bool long_names) {
  ASSERT_EQ(v.size(), ref.size());
  const uint64_t n = ref.size();
  for (uint64_t r = 0; r < n; ++r) {
    auto [m, s] = ref.At(r);
    BoardSnapshot::Entry e = v.At(r);
    ASSERT_EQ(e.member, m) << "rank " << r;
    ASSERT_EQ(e.score, s);
    ASSERT_EQ(e.stamp, *ref.BoardStampOf(m));
  }
  for (int i = 0; i < universe; ++i) {
    const std::string m = Name(i, long_names);
    ASSERT_EQ(v.Rank(m), ref.Rank(m)) << m;
    std::optional<BoardSnapshot::Entry> e = v.Find(m);
    ASSERT_EQ(e.has_value(), ref.Score(m).has_value());
    if (e) {
      ASSERT_EQ(e->score, *ref.Score(m));
    }
  }
  for (int k = 0; k < 20; ++k) {
    const double x = static_cast<double>(static_cast<int>(rng() % 24) - 2) / 2;
    ASSERT_EQ(v.CountScoreBelow(x, false), ref.ScoreLowerRank(x, false)) << x;
    ASSERT_EQ(v.CountScoreBelow(x, true), ref.ScoreUpperRank(x, false)) << x;
    ASSERT_EQ(v.DistinctBelow(x, false), ref.BoardDistinctBefore(ref.ScoreLowerRank(x, false)));
    ASSERT_EQ(v.DistinctBelow(x, true), ref.BoardDistinctBefore(ref.ScoreUpperRank(x, false)));
  }
  ASSERT_EQ(v.Distinct(), ref.BoardDistinct());
  for (uint64_t k = 0; k < ref.BoardDistinct(); ++k) {
    ASSERT_EQ(v.DistinctScore(k), ref.At(ref.BoardDistinctStart(k)).second) << k;
  }
  for (int k = 0; k < 10 && n > 0; ++k) {
    uint64_t a = rng() % n, b = rng() % n;
    if (a > b) std::swap(a, b);
    const bool reverse = rng() % 2;
    std::vector<std::string> want, got;
    ref.ForEachInRankRange(a, b, reverse,
                           [&](std::string_view m, double) { want.emplace_back(m); });
    v.ForEachInRankRange(a, b, reverse,
                         [&](const BoardSnapshot::Entry& e) { got.emplace_back(e.member); });
    ASSERT_EQ(got, want) << a << ".." << b << (reverse ? " reverse" : "");
  }
}

// BoardView over the view answers every LB read as BoardView over the copy.
void ExpectSameBoardView(const SortedSet& ref, const SortedSet& live, std::mt19937_64& rng) {
  const BoardView want(ref), got(live, live.board_snapshot());
  ASSERT_EQ(got.size(), want.size());
  ASSERT_EQ(got.Distinct(), want.Distinct());
  const uint64_t n = want.size();
  for (RankMode mode : {RankMode::kOrdinal, RankMode::kCompetition, RankMode::kDense}) {
    for (int k = 0; k < 8 && n > 0; ++k) {
      uint64_t a = rng() % n, b = rng() % n;
      if (a > b) std::swap(a, b);
      std::vector<std::tuple<uint64_t, std::string, double>> w, g;
      want.ForEachRow(a, b, mode, [&](uint64_t r, std::string_view m, double s) {
        w.emplace_back(r, std::string(m), s);
      });
      got.ForEachRow(a, b, mode, [&](uint64_t r, std::string_view m, double s) {
        g.emplace_back(r, std::string(m), s);
      });
      ASSERT_EQ(g, w);
      ASSERT_EQ(got.PositionsForRanks(a + 1, b + 1, mode), want.PositionsForRanks(a + 1, b + 1, mode));
      ASSERT_EQ(got.ScoreAt(a + 1, mode), want.ScoreAt(a + 1, mode));
      const double x = static_cast<double>(static_cast<int>(rng() % 24) - 2) / 2;
      ASSERT_EQ(got.RankFor(x, mode), want.RankFor(x, mode));
      ASSERT_EQ(got.Percentile(x), want.Percentile(x));
    }
  }
}

void RunModel(BoardPolicy policy, uint64_t seed, bool long_names) {
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  const int universe = long_names ? 900 : 300;
  std::unique_ptr<SortedSet> z = SortedSet::NewBoard(policy);
  std::unique_ptr<SortedSet> ref;  // the board when the view was taken
  const SortedSetLimits limits;
  int64_t ms = 1000;
  for (int op = 0; op < 12000; ++op) {
    const std::string m = Name(static_cast<int>(rng() % universe), long_names);
    const double score = static_cast<double>(static_cast<int>(rng() % 20)) / 2;
    switch (rng() % 10) {
      case 0: case 1: case 2:
        (void)z->Add(m, score, {}, limits, ++ms);
        break;
      case 3: case 4: {
        AddOptions o;
        o.incr = true;
        (void)z->Add(m, rng() % 2 ? 0.5 : -0.5, o, limits, ++ms);
        break;
      }
      case 5: case 6:
        z->Remove(m);
        break;
      case 7:
        if (z->size() > 5 && rng() % 8 == 0) {
          const uint64_t a = rng() % z->size();
          z->RemoveRankRange(a, std::min<uint64_t>(z->size() - 1, a + rng() % 40));
        }
        break;
      case 8:
        if (z->Score(m)) z->SetMemberMeta(m, rng() % 3 ? "meta" + std::to_string(op) : "");
        break;
      case 9:
        if (rng() % 4 == 0) z->BoardPut(m, score, z->BoardStampOf(m).value_or(BoardStamp{z->BoardNextSeq(), ms}));
        break;
    }
    if (op % 1500 == 700 || (ref && rng() % 400 == 0)) {
      z->BoardTakeView(ms);
      ref = z->Clone();
    }
    if (ref && (op % 500 == 499)) {
      ASSERT_EQ(z->CheckInvariants(), "") << "op " << op;
      ASSERT_NO_FATAL_FAILURE(ExpectSameAs(*ref, *z->board_snapshot(), rng, universe, long_names))
          << "op " << op;
      ASSERT_NO_FATAL_FAILURE(ExpectSameBoardView(*ref, *z, rng)) << "op " << op;
      for (int i = 0; i < universe; ++i) {
        const std::string name = Name(i, long_names);
        ASSERT_EQ(z->board_snapshot()->Meta(name, z->MemberMeta(name)), ref->MemberMeta(name));
      }
    }
  }
}

TEST(BoardSnapshotTest, MatchesCopyAtSnapshot) {
  const BoardPolicy policies[] = {{BoardOrder::kDesc, BoardTies::kFirst},
                                  {BoardOrder::kDesc, BoardTies::kLast},
                                  {BoardOrder::kAsc, BoardTies::kFirst},
                                  {BoardOrder::kAsc, BoardTies::kLast}};
  uint64_t seed = 17;
  for (const BoardPolicy& p : policies) {
    ASSERT_NO_FATAL_FAILURE(RunModel(p, seed++, false));
  }
}

TEST(BoardSnapshotTest, SurvivesArenaCompaction) {
  ASSERT_NO_FATAL_FAILURE(RunModel({}, 99, true));
}

TEST(BoardSnapshotTest, ViewCostsNothingUntilWrites) {
  std::unique_ptr<SortedSet> z = SortedSet::NewBoard({});
  const SortedSetLimits limits;
  for (int i = 0; i < 10000; ++i) (void)z->Add("m" + std::to_string(i), i % 100, {}, limits, i);
  const size_t before = z->MemoryUsage();
  const std::optional<uint64_t> rank_before = z->Rank("m5");
  z->BoardTakeView(1);
  const size_t after = z->MemoryUsage();
  EXPECT_LT(after - before, 4096u);
  for (int i = 0; i < 100; ++i) (void)z->Add("m" + std::to_string(i), 1000 + i, {}, limits, 2);
  EXPECT_EQ(z->board_snapshot()->changed(), 100u);
  // The view still answers as the board was.
  EXPECT_EQ(z->board_snapshot()->Find("m5")->score, 5);
  EXPECT_EQ(z->board_snapshot()->Rank("m5"), rank_before);
  z->BoardDropView();
  EXPECT_EQ(z->board_snapshot(), nullptr);
}

}  // namespace
}  // namespace rankd
