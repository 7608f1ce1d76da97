// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/manifest.h"

#include "gtest/gtest.h"
#include "persist/fault_env.h"

namespace rankd {
namespace {

TEST(ManifestTest, SerializeParseRoundTrip) {
  Manifest m;
  m.files = {{BaseFileName("appendonly.aof", 3), 3, true},
             {IncrFileName("appendonly.aof", 5), 5, false},
             {IncrFileName("appendonly.aof", 6), 6, false}};
  std::string text = m.Serialize();
  EXPECT_EQ(text.substr(0, text.find('\n')), "file appendonly.aof.3.base.rdb seq 3 type b");
  Manifest back;
  ASSERT_TRUE(Manifest::Parse("m", text, &back).ok());
  ASSERT_EQ(back.files.size(), 3u);
  EXPECT_EQ(back.base_file()->name, "appendonly.aof.3.base.rdb");
  EXPECT_EQ(back.last_incr()->name, "appendonly.aof.6.incr.aof");
  EXPECT_EQ(back.max_base_seq(), 3u);  // Redis numbers bases and incrs apart
  EXPECT_EQ(back.max_incr_seq(), 6u);
  // rankd's own names (persist-format rankd).
  EXPECT_EQ(BaseFileName("appendonly.aof", 3, false), "appendonly.aof.3.base.snap");
  EXPECT_EQ(IncrFileName("appendonly.aof", 4, false), "appendonly.aof.4.incr.log");
}

TEST(ManifestTest, RejectsMalformedLines) {
  Manifest m;
  for (const char* bad : {"file x seq 1 type q\n", "file x seq -1 type i\n", "fil x seq 1 type i\n",
                          "file a/b seq 1 type i\n", "file x seq 1 type i extra\n",
                          "file b seq 1 type b\nfile c seq 2 type b\n",
                          "file i seq 2 type i\nfile j seq 1 type i\n", "", "\n",
                          "file x seq 1 type i\n\nfile y seq 2 type i\n", "file x type i\n",
                          "file x seq 1 type i k\n", "file \"x seq 1 type i\n"}) {
    Status s = Manifest::Parse("dir/m", bad, &m);
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << bad;
    EXPECT_NE(s.message().find("dir/m"), std::string::npos);
  }
}

TEST(ManifestTest, ReadsRedisManifests) {
  // Redis 7.0's own layouts: keys in any order, unknown keys, history
  // entries, quoted names, and a base listed after an incr.
  Manifest m;
  ASSERT_TRUE(Manifest::Parse("m",
                              "file appendonly.aof.2.incr.aof seq 2 type i\n"
                              "file appendonly.aof.1.base.rdb type b seq 1 newkey newvalue\n"
                              "file appendonly.aof.1.incr.aof seq 1 type h\n"
                              "# a comment\n"
                              "file \" a b\\n.aof.3.incr.aof\" seq 3 type i\n",
                              &m)
                  .ok());
  ASSERT_EQ(m.files.size(), 3u);
  EXPECT_EQ(m.base_file()->name, "appendonly.aof.1.base.rdb");
  EXPECT_EQ(m.last_incr()->name, " a b\n.aof.3.incr.aof");
  Manifest back;
  ASSERT_TRUE(Manifest::Parse("m", m.Serialize(), &back).ok());
  EXPECT_EQ(back.Serialize(), m.Serialize());
  EXPECT_EQ(back.last_incr()->name, " a b\n.aof.3.incr.aof");
}

TEST(ManifestTest, HistoryIsKeptInOrderBetweenBaseAndIncrs) {
  // As Redis 7.0 writes it under aof-disable-auto-gc: base, history
  // (newest first), incrs. History names nothing to load.
  const std::string text =
      "file appendonly.aof.3.base.rdb seq 3 type b\n"
      "file appendonly.aof.2.incr.aof seq 2 type h\n"
      "file appendonly.aof.2.base.rdb seq 2 type h\n"
      "file appendonly.aof.3.incr.aof seq 3 type i\n";
  Manifest m;
  ASSERT_TRUE(Manifest::Parse("m", text, &m).ok());
  ASSERT_EQ(m.files.size(), 2u);
  ASSERT_EQ(m.history.size(), 2u);
  EXPECT_EQ(m.history[0].name, "appendonly.aof.2.incr.aof");
  EXPECT_EQ(m.Serialize(), text);
  // History alone is an empty manifest, as Redis judges it.
  EXPECT_FALSE(Manifest::Parse("m", "file a.1.base.rdb seq 1 type h\n", &m).ok());
}

TEST(ManifestTest, WriteIsAtomicAcrossCrashes) {
  FaultEnv env;
  Manifest m1, m2, got;
  m1.files = {{IncrFileName("a", 1), 1, false}};
  m2.files = {{BaseFileName("a", 2), 2, true}, {IncrFileName("a", 2), 2, false}};
  EXPECT_EQ(ReadManifest(&env, "d", "a", &got).code(), Status::Code::kNotFound);
  ASSERT_TRUE(WriteManifest(&env, "d", "a", m1).ok());
  env.set_rename_error(true);
  EXPECT_FALSE(WriteManifest(&env, "d", "a", m2).ok());
  env.Crash();
  ASSERT_TRUE(ReadManifest(&env, "d", "a", &got).ok());
  EXPECT_EQ(got.Serialize(), m1.Serialize());
  env.set_rename_error(false);
  ASSERT_TRUE(WriteManifest(&env, "d", "a", m2).ok());
  env.Crash();
  ASSERT_TRUE(ReadManifest(&env, "d", "a", &got).ok());
  EXPECT_EQ(got.Serialize(), m2.Serialize());
}

}  // namespace
}  // namespace rankd
