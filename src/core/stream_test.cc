// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/stream.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

namespace rankd {
namespace {

using Model = std::map<StreamId, std::vector<std::string>>;

std::vector<StreamId> Ids(const Stream& s, StreamId lo, StreamId hi, bool rev, size_t count) {
  std::vector<StreamId> out;
  s.Range(lo, hi, rev, count, [&](StreamId id, const Stream::Fields&) {
    out.push_back(id);
    return true;
  });
  return out;
}

std::vector<StreamId> ModelIds(const Model& m, StreamId lo, StreamId hi, bool rev, size_t count) {
  std::vector<StreamId> out;
  for (const auto& [id, f] : m) {
    if (id >= lo && id <= hi) out.push_back(id);
  }
  if (rev) std::reverse(out.begin(), out.end());
  if (count != 0 && out.size() > count) out.resize(count);
  return out;
}

TEST(StreamTest, AppendRangeDeleteMatchModel) {
  for (StreamNodeLimits limits : {StreamNodeLimits{4096, 100}, StreamNodeLimits{64, 3},
                                  StreamNodeLimits{0, 1}, StreamNodeLimits{0, 0}}) {
    const uint32_t seed = 42;
    SCOPED_TRACE(seed);
    std::mt19937 rng(seed);
    Stream s;
    Model m;
    StreamId next{1, 0};
    for (int op = 0; op < 3000; op++) {
      const int r = rng() % 10;
      if (r < 6) {
        next.ms += rng() % 3;
        next.seq = next.ms % 2 ? rng() % 5 : 0;
        if (next <= s.last_id()) next = {s.last_id().ms, s.last_id().seq + 1};
        std::vector<std::string> f = {"f", std::to_string(op), "x" + std::string(rng() % 40, 'y'),
                                      "v"};
        Stream::Fields fv(f.begin(), f.end());
        s.Append(next, fv, limits);
        m[next] = f;
      } else if (r < 8 && !m.empty()) {
        auto it = m.begin();
        std::advance(it, rng() % m.size());
        EXPECT_TRUE(s.Delete(it->first));
        EXPECT_FALSE(s.Delete(it->first));
        m.erase(it);
      } else {
        StreamId lo{rng() % (next.ms + 1), rng() % 3}, hi{lo.ms + rng() % 50, rng() % 5};
        const bool rev = rng() % 2;
        const size_t count = rng() % 4 == 0 ? 0 : rng() % 20;
        EXPECT_EQ(Ids(s, lo, hi, rev, count), ModelIds(m, lo, hi, rev, count));
      }
      ASSERT_EQ(s.size(), m.size());
      ASSERT_TRUE(s.CheckInvariants());
    }
    // Fields come back intact.
    for (const auto& [id, f] : m) {
      Stream::Fields got;
      ASSERT_TRUE(s.Find(id, &got));
      ASSERT_EQ(std::vector<std::string>(got.begin(), got.end()), f);
    }
  }
}

TEST(StreamTest, TrimMaxLenExactAndApprox) {
  Stream s;
  for (uint64_t i = 1; i <= 250; i++) s.Append({i, 0}, {"a", "b"}, {4096, 100});
  EXPECT_EQ(s.node_count(), 3u);
  // Approximate: only whole nodes go (two of 100 would leave 50 < 120).
  EXPECT_EQ(s.TrimMaxLen(120, true, 0), 100);
  EXPECT_EQ(s.size(), 150u);
  EXPECT_EQ(s.first_id(), (StreamId{101, 0}));
  // LIMIT stops before a node that would pass it.
  EXPECT_EQ(s.TrimMaxLen(0, true, 99), 0);
  EXPECT_EQ(s.TrimMaxLen(10, false, 0), 140);
  EXPECT_EQ(s.size(), 10u);
  EXPECT_EQ(s.first_id(), (StreamId{241, 0}));
  EXPECT_TRUE(s.CheckInvariants());
}

TEST(StreamTest, TrimMinId) {
  Stream s;
  for (uint64_t i = 1; i <= 30; i++) s.Append({i, 0}, {"a", "b"}, {4096, 10});
  EXPECT_EQ(s.TrimMinId({15, 0}, true, 0), 10);
  EXPECT_EQ(s.TrimMinId({15, 0}, false, 0), 4);
  EXPECT_EQ(s.first_id(), (StreamId{15, 0}));
  EXPECT_TRUE(s.CheckInvariants());
}

TEST(StreamTest, GroupsAssignAckAndClone) {
  Stream s;
  s.Append({1, 1}, {"a", "b"}, {});
  StreamGroup& g = s.groups()["g"];
  bool created;
  StreamConsumer* alice = g.GetOrCreateConsumer("alice", 5, &created);
  EXPECT_TRUE(created);
  StreamConsumer* bob = g.GetOrCreateConsumer("bob", 5, &created);
  g.Assign({1, 1}, alice);
  g.Assign({1, 1}, bob);
  EXPECT_TRUE(alice->pending.empty());
  EXPECT_EQ(bob->pending.size(), 1u);
  auto copy = s.Clone();
  EXPECT_TRUE(copy->CheckInvariants());
  EXPECT_TRUE(g.Ack({1, 1}));
  EXPECT_FALSE(g.Ack({1, 1}));
  EXPECT_EQ(copy->groups().at("g").pel.size(), 1u);
}

}  // namespace
}  // namespace rankd
