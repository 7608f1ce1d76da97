// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "db/value.h"
#include "persist/rdb_writer.h"

namespace rankd {
namespace {

std::vector<std::string> Dump(const Stream& s) {
  std::vector<std::string> out;
  s.Range({}, StreamId::Max(), false, 0, [&](StreamId id, const Stream::Fields& f) {
    std::string line = id.ToString();
    for (std::string_view x : f) line += " " + std::string(x);
    out.push_back(line);
    return true;
  });
  return out;
}

Value Sample() {
  auto s = std::make_unique<Stream>();
  for (uint64_t i = 1; i <= 250; i++) {
    if (i % 3 == 0) {
      s->Append({i, i % 2}, {"name", "v" + std::to_string(i), "n", std::to_string(i)}, {4096, 7});
    } else {
      s->Append({i, i % 2}, {"other", "x"}, {4096, 7});
    }
  }
  for (uint64_t i = 1; i <= 250; i += 4) EXPECT_TRUE(s->Delete({i, i % 2}));
  StreamGroup& g = s->groups()["grp"];
  g.last_id = {100, 0};
  g.entries_read = 90;
  bool created;
  StreamConsumer* c = g.GetOrCreateConsumer("alice", 1234, &created);
  g.GetOrCreateConsumer("bob", 99, &created);
  StreamPending& p = g.Assign({2, 0}, c);
  p.delivery_time_ms = 777;
  p.delivery_count = 3;
  s->groups()["empty"].entries_read = -1;
  return Value(std::move(s));
}

TEST(RdbStreamTest, PayloadRoundTrips) {
  Value v = Sample();
  const std::string payload = DumpPayload(v);
  ASSERT_EQ(static_cast<uint8_t>(payload[0]), 19);
  Value back;
  ASSERT_TRUE(ReadDumpPayload(payload, SnapshotLoadOptions{}, &back).ok());
  ASSERT_EQ(back.type(), ValueType::kStream);
  const Stream& a = v.stream();
  const Stream& b = back.stream();
  EXPECT_EQ(Dump(a), Dump(b));
  EXPECT_EQ(a.last_id(), b.last_id());
  EXPECT_EQ(a.first_id(), b.first_id());
  EXPECT_EQ(a.max_deleted_id(), b.max_deleted_id());
  EXPECT_EQ(a.entries_added(), b.entries_added());
  ASSERT_EQ(b.groups().size(), 2u);
  const StreamGroup& g = b.groups().at("grp");
  EXPECT_EQ(g.entries_read, 90);
  EXPECT_EQ(b.groups().at("empty").entries_read, -1);
  ASSERT_EQ(g.pel.size(), 1u);
  EXPECT_EQ(g.pel.begin()->second.delivery_count, 3u);
  EXPECT_EQ(g.pel.begin()->second.consumer->name, "alice");
  EXPECT_EQ(g.consumers.at("bob").seen_time_ms, 99);
  EXPECT_TRUE(b.CheckInvariants());
  // A second dump of the loaded stream is accepted too.
  Value again;
  EXPECT_TRUE(ReadDumpPayload(DumpPayload(back), SnapshotLoadOptions{}, &again).ok());
}

TEST(RdbStreamTest, HostilePayloadsFailCleanly) {
  const std::string good = DumpPayload(Sample());
  std::mt19937 rng(7);
  int rejected = 0;
  for (int trial = 0; trial < 3000; trial++) {
    std::string body = good.substr(0, good.size() - 10);
    const int flips = 1 + rng() % 4;
    for (int i = 0; i < flips; i++) body[rng() % body.size()] = static_cast<char>(rng());
    if (trial % 5 == 0) body.resize(rng() % body.size());
    std::string payload = body;
    rdb::AppendDumpFooter(&payload);
    Value out;
    if (!ReadDumpPayload(payload, SnapshotLoadOptions{}, &out).ok()) {
      rejected++;
    } else if (out.type() == ValueType::kStream) {
      EXPECT_TRUE(out.stream().CheckInvariants());
    }
  }
  EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace rankd
