// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SortedSet against a std::map/std::set model, under each encoding and
// across the conversion thresholds. Every batch of random operations ends
// with CheckInvariants and a comparison of every query.

#include "core/sorted_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/sorted_set_test_util.h"

namespace rankd {
namespace {

using testing::RandomMember;
using testing::RandomOptions;
using testing::RandomScore;
using testing::SameBits;
using testing::ZSetModel;
using Element = std::pair<double, std::string>;

struct Config {
  const char* name;
  SortedSetLimits limits;
  size_t pool;      // distinct members in play
  size_t max_len;   // member length bound
  bool same_score;  // all scores 0: lex queries are meaningful
  int batches, ops_per_batch;
};

class SortedSetModelTest : public ::testing::TestWithParam<Config> {
 protected:
  void SetUp() override {
    const Config& c = GetParam();
    seed_ = 0x5EED0000u + static_cast<uint32_t>(std::hash<std::string>{}(c.name) % 1000);
    std::printf("SortedSetModelTest/%s seed=%u\n", c.name, seed_);
    rng_.seed(seed_);
    for (size_t i = 0; i < c.pool; ++i) pool_.push_back(RandomMember(rng_, c.max_len));
    set_ = std::make_unique<SortedSet>(c.limits);
    expect_tree_ = c.limits.max_compact_entries == 0;
  }

  const std::string& PickMember() { return pool_[rng_() % pool_.size()]; }

  // Redis's conversion rules, tracked independently.
  void NoteAdded(const std::string& m) {
    const SortedSetLimits& l = GetParam().limits;
    if (model_.scores.size() > l.max_compact_entries || m.size() > l.max_compact_value) {
      expect_tree_ = true;
    }
  }
  void NoteShrink() {
    const SortedSetLimits& l = GetParam().limits;
    if (!expect_tree_ || model_.scores.size() > l.max_compact_entries) return;
    for (auto& [m, s] : model_.scores) {
      if (m.size() > l.max_compact_value) return;
    }
    expect_tree_ = false;
  }

  void RandomOp(bool grow);
  void CheckAll();

  uint32_t seed_ = 0;
  std::mt19937_64 rng_;
  std::vector<std::string> pool_;
  std::unique_ptr<SortedSet> set_;
  ZSetModel model_;
  bool expect_tree_ = false;
};

void SortedSetModelTest::RandomOp(bool grow) {
  const Config& c = GetParam();
  const int kind = static_cast<int>(rng_() % 100);
  if (kind < (grow ? 80 : 30)) {
    const std::string& m = PickMember();
    double score = c.same_score ? 0.0 : RandomScore(rng_);
    AddOptions o = c.same_score ? AddOptions{} : RandomOptions(rng_);
    AddResult want = model_.Add(m, score, o);
    AddResult got = set_->Add(m, score, o, c.limits);
    ASSERT_EQ(static_cast<int>(got.kind), static_cast<int>(want.kind)) << "member " << m;
    ASSERT_TRUE(SameBits(got.score, want.score)) << got.score << " vs " << want.score;
    if (want.kind == AddResult::Kind::kAdded) NoteAdded(m);
  } else if (kind < 97) {
    const std::string& m = PickMember();
    ASSERT_EQ(set_->Remove(m), model_.Remove(m));
  } else if (kind < 99) {
    if (model_.scores.empty()) return;
    uint64_t n = model_.scores.size();
    uint64_t start = rng_() % n;
    uint64_t stop = std::min(n - 1, start + (rng_() % 40 == 0 ? rng_() % n : rng_() % 4));
    std::vector<Element> doomed;
    auto it = std::next(model_.order.begin(), start);
    for (uint64_t r = start; r <= stop; ++r, ++it) doomed.push_back(*it);
    ASSERT_EQ(set_->RemoveRankRange(start, stop), stop - start + 1);
    for (auto& [s, m] : doomed) model_.Remove(m);
  } else {
    set_->ShrinkIfFits(c.limits);
    NoteShrink();
  }
  ASSERT_EQ(set_->encoding() == SortedSet::Encoding::kTree, expect_tree_);
}

void SortedSetModelTest::CheckAll() {
  const Config& c = GetParam();
  ASSERT_EQ(set_->CheckInvariants(), "");
  const std::vector<Element> snap(model_.order.begin(), model_.order.end());
  const uint64_t n = snap.size();
  ASSERT_EQ(set_->size(), n);
  ASSERT_EQ(set_->empty(), n == 0);
  std::unordered_map<std::string, uint64_t> rank_of;
  for (uint64_t r = 0; r < n; ++r) rank_of[snap[r].second] = r;

  // Whole order, both directions.
  if (n > 0) {
    std::vector<Element> fwd, rev;
    set_->ForEachInRankRange(0, n - 1, false,
                             [&](std::string_view m, double s) { fwd.emplace_back(s, m); });
    set_->ForEachInRankRange(0, n - 1, true,
                             [&](std::string_view m, double s) { rev.emplace_back(s, m); });
    std::reverse(rev.begin(), rev.end());
    ASSERT_EQ(fwd, snap);
    ASSERT_EQ(rev, snap);
  }
  // Point lookups for every pool member, present or not.
  for (const std::string& m : pool_) {
    auto score = set_->Score(m);
    auto rank = set_->Rank(m);
    auto it = model_.scores.find(m);
    ASSERT_EQ(score.has_value(), it != model_.scores.end());
    ASSERT_EQ(rank.has_value(), it != model_.scores.end());
    if (score) {
      ASSERT_TRUE(SameBits(*score, it->second)) << *score << " vs " << it->second;
      ASSERT_EQ(*rank, rank_of[m]);
    }
  }
  for (int q = 0; q < 20 && n > 0; ++q) {
    uint64_t a = rng_() % n, b = rng_() % n;
    if (a > b) std::swap(a, b);
    auto at = set_->At(a);
    ASSERT_EQ(Element(at.second, at.first), snap[a]);
    bool reverse = rng_() % 2;
    std::vector<Element> got;
    set_->ForEachInRankRange(a, b, reverse,
                             [&](std::string_view m, double s) { got.emplace_back(s, m); });
    std::vector<Element> want(snap.begin() + a, snap.begin() + b + 1);
    if (reverse) std::reverse(want.begin(), want.end());
    ASSERT_EQ(got, want);
  }
  // Score bounds: count of elements below a bound, inclusive or not.
  for (int q = 0; q < 20; ++q) {
    double x = (n > 0 && q % 2) ? snap[rng_() % n].first : RandomScore(rng_);
    uint64_t lt = std::count_if(snap.begin(), snap.end(), [&](auto& e) { return e.first < x; });
    uint64_t le = std::count_if(snap.begin(), snap.end(), [&](auto& e) { return e.first <= x; });
    ASSERT_EQ(set_->ScoreLowerRank(x, false), lt);
    ASSERT_EQ(set_->ScoreLowerRank(x, true), le);
    ASSERT_EQ(set_->ScoreUpperRank(x, false), le);
    ASSERT_EQ(set_->ScoreUpperRank(x, true), lt);
  }
  if (!c.same_score) return;
  // Lex bounds (valid only when all scores are equal).
  using K = LexBound::Kind;
  ASSERT_EQ(set_->LexLowerRank({K::kMinusInf, {}}), 0u);
  ASSERT_EQ(set_->LexLowerRank({K::kPlusInf, {}}), n);
  ASSERT_EQ(set_->LexUpperRank({K::kMinusInf, {}}), 0u);
  ASSERT_EQ(set_->LexUpperRank({K::kPlusInf, {}}), n);
  for (int q = 0; q < 20; ++q) {
    std::string x = q % 2 ? PickMember() : RandomMember(rng_, c.max_len);
    uint64_t lt = std::count_if(snap.begin(), snap.end(), [&](auto& e) { return e.second < x; });
    uint64_t le = std::count_if(snap.begin(), snap.end(), [&](auto& e) { return e.second <= x; });
    ASSERT_EQ(set_->LexLowerRank({K::kInclusive, x}), lt);
    ASSERT_EQ(set_->LexLowerRank({K::kExclusive, x}), le);
    ASSERT_EQ(set_->LexUpperRank({K::kInclusive, x}), le);
    ASSERT_EQ(set_->LexUpperRank({K::kExclusive, x}), lt);
  }
}

TEST_P(SortedSetModelTest, RandomOpsMatchModel) {
  const Config& c = GetParam();
  size_t max_size = 0;
  for (int batch = 0; batch < c.batches; ++batch) {
    const bool grow = (batch % 10) < 6;  // phases that grow, then drain
    for (int op = 0; op < c.ops_per_batch; ++op) {
      RandomOp(grow);
      if (HasFatalFailure()) return;
      max_size = std::max(max_size, model_.scores.size());
    }
    CheckAll();
    if (HasFatalFailure()) return;
  }
  std::printf("  %d ops, max size %zu, final size %zu\n", c.batches * c.ops_per_batch, max_size,
              set_->size());
}

TEST_P(SortedSetModelTest, CloneIsDeepAndEqual) {
  const Config& c = GetParam();
  for (int op = 0; op < c.ops_per_batch * 4; ++op) RandomOp(true);
  std::unique_ptr<SortedSet> copy = set_->Clone();
  ASSERT_EQ(copy->CheckInvariants(), "");
  ASSERT_EQ(copy->encoding(), set_->encoding());
  ASSERT_EQ(copy->size(), set_->size());
  for (uint64_t r = 0; r < copy->size(); ++r) ASSERT_EQ(copy->At(r), set_->At(r));
  // Mutating the original leaves the copy alone.
  const uint64_t before = copy->size();
  if (before > 0) set_->RemoveRankRange(0, set_->size() - 1);
  ASSERT_EQ(copy->size(), before);
  ASSERT_EQ(copy->CheckInvariants(), "");
}

// Sizes: ~1.8M random operations in all, each batch fully compared.
INSTANTIATE_TEST_SUITE_P(
    Encodings, SortedSetModelTest,
    ::testing::Values(
        // Converts back and forth around 4 entries / 8 bytes.
        Config{"Tiny", {4, 8}, 24, 10, false, 1500, 100},
        Config{"Small", {8, 16}, 120, 20, false, 800, 200},
        // Redis defaults; some members exceed 64 bytes.
        Config{"Default", {128, 64}, 400, 70, false, 400, 500},
        Config{"AlwaysTree", {0, 64}, 3000, 24, false, 100, 3000},
        Config{"BigTree", {0, 64}, 40000, 40, false, 20, 25000},
        Config{"AlwaysCompact", {1u << 30, 1u << 30}, 500, 24, false, 100, 2000},
        Config{"LexTree", {0, 64}, 2000, 12, true, 50, 2000},
        Config{"LexCompact", {1u << 30, 1u << 30}, 300, 12, true, 50, 1000}),
    [](const ::testing::TestParamInfo<Config>& info) { return info.param.name; });

}  // namespace
}  // namespace rankd
