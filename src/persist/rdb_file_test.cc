// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The Redis RDB file writer (persist/rdb_file.h) streams: a value in a
// plain encoding goes out in pieces of about DumpOptions::kSpillBytes as it
// is written, never whole in memory (a BGSAVE child of a 10^8-member board
// would otherwise hold a 2.5 GB string), and the file reads back the same.

#include "persist/rdb_file.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "persist/rdb_reader.h"

namespace rankd {
namespace {

// Keeps what is appended, and the largest single append.
class MemoryFile : public WritableFile {
 public:
  Status Append(std::string_view data) override {
    bytes.append(data);
    largest = std::max(largest, data.size());
    return Status::OK();
  }
  Status Sync() override { return Status::OK(); }
  Status Truncate(uint64_t size) override {
    bytes.resize(size);
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }

  std::string bytes;
  size_t largest = 0;
};

constexpr int kMembers = 200000;  // ~5 MB for each big value below

void Fill(Database& db) {
  db.Insert("first", Value(std::string("a")));
  auto z = std::make_unique<SortedSet>(SortedSetLimits{});
  for (int i = 0; i < kMembers; i++) {
    z->Add("member:" + std::to_string(i), i * 0.25, AddOptions{}, SortedSetLimits{});
  }
  db.Insert("board", Value(std::move(z)));
  auto h = std::make_unique<Hash>();
  for (int i = 0; i < kMembers; i++) h->Set("field:" + std::to_string(i), "v", {});
  db.Insert("hash", Value(std::move(h)));
  auto s = std::make_unique<PlainSet>();
  for (int i = 0; i < kMembers; i++) s->Add("elem:" + std::to_string(i), {});
  db.Insert("set", Value(std::move(s)));
  auto l = std::make_unique<QuickList>();
  for (int i = 0; i < kMembers; i++) l->PushBack("item:" + std::to_string(i), {});
  db.Insert("list", Value(std::move(l)));
  db.Insert("last", Value(std::string("z")));
}

TEST(RdbFileTest, BigValuesAreWrittenInPiecesAndReadBack) {
  Database db(0);
  Fill(db);
  Database* dbs[] = {&db};
  MemoryFile file;
  SnapshotWriteStats stats;
  DumpOptions values;
  values.compress = false;  // member names would compress: keep the sizes plain
  ASSERT_TRUE(WriteRedisRdbStream(&file, dbs, {}, values, &stats).ok());
  EXPECT_EQ(stats.keys, 6u);
  ASSERT_GT(file.bytes.size(), size_t{8} << 20);
  // Every append is about a spill's worth: one element past the threshold,
  // never a whole 5 MB value.
  EXPECT_LT(file.largest, size_t{2} << 20);  // twice DumpOptions::kSpillBytes

  Database back(0);
  SnapshotLoadStats load;
  Status s = LoadRedisRdb(
      file.bytes, [&](int i) { return i == 0 ? &back : nullptr; }, SnapshotLoadOptions{},
      &load);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(load.keys_loaded, 6u);
  ASSERT_NE(back.Peek("board"), nullptr);
  const SortedSet& z = back.Peek("board")->value.zset();
  EXPECT_EQ(z.size(), static_cast<uint64_t>(kMembers));
  EXPECT_EQ(z.Score("member:12345"), std::optional<double>(12345 * 0.25));
  EXPECT_EQ(back.Peek("hash")->value.hash().size(), static_cast<size_t>(kMembers));
  EXPECT_EQ(back.Peek("hash")->value.hash().Get("field:777"),
            std::optional<std::string_view>("v"));
  EXPECT_EQ(back.Peek("set")->value.set().size(), static_cast<size_t>(kMembers));
  EXPECT_TRUE(back.Peek("set")->value.set().Contains("elem:199999"));
  EXPECT_EQ(back.Peek("list")->value.list().size(), static_cast<size_t>(kMembers));
  EXPECT_EQ(back.Peek("first")->value.str(), "a");
  EXPECT_EQ(back.Peek("last")->value.str(), "z");
}

}  // namespace
}  // namespace rankd
