// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Sorted sets in board mode and BoardView against a reference model: a
// member -> (score, seq, ms) map whose board order and ranks are computed by
// sorting and counting, with explicit sequence numbers. Random SET / INCR /
// BEST writes (with NX / XX) over a few scores give many-way ties, INCR
// back to an earlier score, and deletions; every policy and rank mode.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/leaderboard.h"
#include "core/sorted_set.h"

namespace rankd {
namespace {

struct Row {
  uint64_t rank;
  std::string member;
  double score;
  bool operator==(const Row&) const = default;
};

class BoardModel {
 public:
  explicit BoardModel(BoardPolicy p) : p_(p) {}

  struct Entry {
    double score;
    BoardStamp stamp;
  };
  std::map<std::string, Entry> members;
  uint64_t next_seq = 1;

  // SortedSet::Add's rules, with a new stamp on every score change.
  void Add(const std::string& m, double score, const AddOptions& o, int64_t ms) {
    auto it = members.find(m);
    if (it == members.end()) {
      if (!o.xx) members[m] = {score, {next_seq++, ms}};
      return;
    }
    if (o.nx) return;
    double next = o.incr ? it->second.score + score : score;
    if ((o.gt && !(next > it->second.score)) || (o.lt && !(next < it->second.score))) return;
    if (next == it->second.score) return;
    it->second = {next, {next_seq++, ms}};
  }

  bool Better(double a, double b) const { return p_.order == BoardOrder::kDesc ? a > b : a < b; }

  // Members best first.
  std::vector<std::string> Order() const {
    std::vector<std::string> out;
    for (auto& [m, e] : members) out.push_back(m);
    std::sort(out.begin(), out.end(), [&](const std::string& a, const std::string& b) {
      const Entry &x = members.at(a), &y = members.at(b);
      if (x.score != y.score) return Better(x.score, y.score);
      return p_.ties == BoardTies::kFirst ? x.stamp.seq < y.stamp.seq : x.stamp.seq > y.stamp.seq;
    });
    return out;
  }

  uint64_t RankOfScore(double s, RankMode mode, uint64_t pos) const {
    if (mode == RankMode::kOrdinal) return pos + 1;
    std::set<double> distinct;
    uint64_t better = 0;
    for (auto& [m, e] : members) {
      if (Better(e.score, s)) better++, distinct.insert(e.score);
    }
    return 1 + (mode == RankMode::kCompetition ? better : distinct.size());
  }

  std::vector<Row> Rows(RankMode mode) const {
    std::vector<Row> rows;
    std::vector<std::string> order = Order();
    for (uint64_t i = 0; i < order.size(); ++i) {
      double s = members.at(order[i]).score;
      rows.push_back({RankOfScore(s, mode, i), order[i], s});
    }
    return rows;
  }

 private:
  BoardPolicy p_;
};

constexpr RankMode kModes[] = {RankMode::kOrdinal, RankMode::kCompetition, RankMode::kDense};

std::vector<Row> ViewRows(const BoardView& v, RankMode mode) {
  std::vector<Row> rows;
  if (v.size() == 0) return rows;
  v.ForEachRow(0, v.size() - 1, mode, [&](uint64_t r, std::string_view m, double s) {
    rows.push_back({r, std::string(m), s});
  });
  return rows;
}

void ExpectSame(const SortedSet& z, const BoardModel& model, std::mt19937& rng) {
  ASSERT_EQ(z.CheckInvariants(), "");
  ASSERT_EQ(z.size(), model.members.size());
  BoardView v(z);
  for (RankMode mode : kModes) {
    std::vector<Row> want = model.Rows(mode);
    ASSERT_EQ(ViewRows(v, mode), want) << "mode " << int(mode);
    // Every member's position and rank.
    for (uint64_t i = 0; i < want.size(); ++i) {
      ASSERT_EQ(v.PositionOf(want[i].member), i);
      ASSERT_EQ(v.RankAt(i, want[i].score, mode), want[i].rank);
    }
    // Rank ranges: every member holding a rank in [a, b].
    for (int t = 0; t < 20; ++t) {
      uint64_t a = 1 + rng() % (want.size() + 3), b = a + rng() % 4;
      std::optional<std::pair<uint64_t, uint64_t>> got = v.PositionsForRanks(a, b, mode);
      std::vector<uint64_t> in;
      for (uint64_t i = 0; i < want.size(); ++i) {
        if (want[i].rank >= a && want[i].rank <= b) in.push_back(i);
      }
      if (in.empty()) {
        ASSERT_FALSE(got.has_value()) << a << ".." << b << " mode " << int(mode);
      } else {
        ASSERT_TRUE(got.has_value()) << a << ".." << b << " mode " << int(mode);
        ASSERT_EQ(got->first, in.front());
        ASSERT_EQ(got->second, in.back());
        ASSERT_EQ(in.back() - in.front() + 1, in.size());  // contiguous
      }
    }
    // The rank a score would get; the score a rank takes.
    for (double s = -1.5; s <= 8; s += 0.5) {
      uint64_t better = 0, equal = 0;
      std::set<double> distinct;
      for (const Row& r : want) {
        if (model.Better(r.score, s)) better++, distinct.insert(r.score);
        if (r.score == s) equal++;
      }
      uint64_t expect = mode == RankMode::kCompetition ? better + 1
                        : mode == RankMode::kDense     ? distinct.size() + 1
                        : v.policy().ties == BoardTies::kFirst ? better + equal + 1
                                                               : better + 1;
      ASSERT_EQ(v.RankFor(s, mode), expect) << s;
    }
    for (uint64_t r = 1; r <= want.size() + 1; ++r) {
      std::optional<double> got = v.ScoreAt(r, mode);
      if (mode == RankMode::kDense) {
        std::vector<double> scores;
        for (const Row& w : want) {
          if (scores.empty() || scores.back() != w.score) scores.push_back(w.score);
        }
        if (r > scores.size()) ASSERT_FALSE(got.has_value());
        else ASSERT_EQ(got, scores[r - 1]);
      } else if (r > want.size()) {
        ASSERT_FALSE(got.has_value());
      } else {
        ASSERT_EQ(got, want[r - 1].score);
      }
    }
  }
  for (auto& [m, e] : model.members) ASSERT_EQ(z.BoardStampOf(m), e.stamp) << m;
  ASSERT_EQ(z.BoardNextSeq(), model.next_seq);
}

class BoardTest : public ::testing::TestWithParam<std::tuple<BoardOrder, BoardTies>> {};

TEST_P(BoardTest, RandomWritesMatchModel) {
  const BoardPolicy policy{std::get<0>(GetParam()), std::get<1>(GetParam())};
  const uint32_t seed = 1000 + 10 * int(policy.order) + int(policy.ties);
  std::printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  for (int members : {6, 40, 400}) {
    std::unique_ptr<SortedSet> z = SortedSet::NewBoard(policy);
    BoardModel model(policy);
    const SortedSetLimits limits;
    for (int op = 0; op < 3000; ++op) {
      std::string m = "m" + std::to_string(rng() % members);
      AddOptions o;
      double score = static_cast<double>(rng() % 6);
      switch (rng() % 8) {
        case 0: case 1: break;                                    // SET
        case 2: o.incr = true, score = (rng() % 2) ? 1 : -1; break;  // INCR back and forth
        case 3: (policy.order == BoardOrder::kDesc ? o.gt : o.lt) = true; break;  // BEST
        case 4: o.nx = true; break;
        case 5: o.xx = true, o.incr = true, score = 0; break;     // INCR 0: unchanged
        case 6: {
          z->Remove(m);
          model.members.erase(m);
          continue;
        }
        case 7: {
          if (z->size() < 3 || rng() % 4) break;
          uint64_t start = rng() % z->size(), stop = std::min<uint64_t>(z->size() - 1, start + 2);
          std::vector<std::string> gone;
          z->ForEachInRankRange(start, stop, false,
                                [&](std::string_view mm, double) { gone.emplace_back(mm); });
          z->RemoveRankRange(start, stop);
          for (auto& g : gone) model.members.erase(g);
          continue;
        }
      }
      z->Add(m, score, o, limits, /*now_ms=*/1000 + op);
      model.Add(m, score, o, 1000 + op);
      if (op % 300 == 0) ExpectSame(*z, model, rng);
      if (HasFatalFailure()) return;
    }
    ExpectSame(*z, model, rng);
    // A clone keeps policy, stamps, order and the sequence counter.
    std::unique_ptr<SortedSet> copy = z->Clone();
    ASSERT_NE(copy->board(), nullptr);
    EXPECT_EQ(*copy->board(), policy);
    ExpectSame(*copy, model, rng);
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, BoardTest,
                         ::testing::Combine(::testing::Values(BoardOrder::kDesc, BoardOrder::kAsc),
                                            ::testing::Values(BoardTies::kFirst, BoardTies::kLast)));

TEST(BoardEngineTest, DescFirstListsInZRevRangeOrder) {
  auto z = SortedSet::NewBoard({});
  SortedSetLimits limits;
  z->Add("a", 5, {}, limits, 1);
  z->Add("b", 5, {}, limits, 2);
  z->Add("c", 7, {}, limits, 3);
  // Ascending engine order: (5, b #2) (5, a #1) (7, c #3); ZREVRANGE: c a b.
  EXPECT_EQ(z->At(0).first, "b");
  EXPECT_EQ(z->At(2).first, "c");
  EXPECT_EQ(z->encoding(), SortedSet::Encoding::kTree);
  // b overtakes, then falls back to 5 later than a: a stays first.
  z->Add("b", 1, AddOptions{.incr = true}, limits, 4);
  z->Add("b", -1, AddOptions{.incr = true}, limits, 5);
  EXPECT_EQ(z->At(1).first, "a");
  EXPECT_EQ(z->At(0).first, "b");
  EXPECT_EQ(z->BoardStampOf("b")->seq, 5u);
  EXPECT_EQ(z->BoardStampOf("b")->ms, 5);
  // An unchanged score keeps the stamp.
  z->Add("a", 5, {}, limits, 9);
  EXPECT_EQ(z->BoardStampOf("a")->seq, 1u);
  // BoardPut imports exactly and raises the counter.
  z->BoardPut("d", 5, {100, 42});
  EXPECT_EQ(z->BoardNextSeq(), 101u);
  EXPECT_EQ(z->At(0).first, "d");  // latest at 5 under FIRST: last in board order
  EXPECT_EQ(z->CheckInvariants(), "");
  z->ShrinkIfFits(limits);  // boards never go compact
  EXPECT_EQ(z->encoding(), SortedSet::Encoding::kTree);
}

TEST(BoardEngineTest, PlainSetViewIsZRevRangeOrder) {
  SortedSet z(SortedSetLimits{});
  for (auto [m, s] : {std::pair{"a", 5.0}, {"b", 5.0}, {"c", 7.0}, {"d", 1.0}}) {
    z.Add(m, s, {}, SortedSetLimits{});
  }
  BoardView v(z);
  EXPECT_FALSE(v.dense());
  std::vector<Row> rows = ViewRows(v, RankMode::kCompetition);
  std::vector<Row> want = {{1, "c", 7}, {2, "b", 5}, {2, "a", 5}, {4, "d", 1}};
  EXPECT_EQ(rows, want);
  EXPECT_EQ(v.PositionOf("a"), 2u);
  EXPECT_EQ(v.PositionsForRanks(2, 2, RankMode::kCompetition), std::make_pair(uint64_t{1}, uint64_t{2}));
  EXPECT_EQ(v.RankFor(5, RankMode::kCompetition), 2u);
  EXPECT_DOUBLE_EQ(v.Percentile(5), 100.0 * (1 + 1) / 4);
}

TEST(BoardEngineTest, StampsSurviveArenaCompaction) {
  auto z = SortedSet::NewBoard({BoardOrder::kAsc, BoardTies::kLast});
  SortedSetLimits limits;
  for (int i = 0; i < 20000; ++i) z->Add("member:" + std::to_string(i), i % 7, {}, limits, i);
  for (int i = 0; i < 20000; i += 3) z->Remove("member:" + std::to_string(i));  // compacts
  EXPECT_EQ(z->CheckInvariants(), "");
  EXPECT_EQ(z->BoardStampOf("member:1")->ms, 1);
  EXPECT_EQ(z->BoardStampOf("member:19999")->seq, 20000u);
  EXPECT_EQ(z->BoardDistinct(), 7u);
}

}  // namespace
}  // namespace rankd
