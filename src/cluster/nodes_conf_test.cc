// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "cluster/nodes_conf.h"

#include "gtest/gtest.h"

namespace rankd {
namespace {

// As redis-server 7.0.15 writes it (a master with a migrating slot, a
// replica with a hostname).
const char kRedisFile[] =
    "af8a635b7b8ab36fc0e07f16941ad138b61e1798 127.0.0.1:23122@33122,hb slave "
    "101072ff3f4ff4c2c2c375a4762477ce88105e70 0 1796312113996 1 connected\n"
    "101072ff3f4ff4c2c2c375a4762477ce88105e70 127.0.0.1:23121@33121 myself,master - 0 0 1 "
    "connected 0-2 5 [5->-af8a635b7b8ab36fc0e07f16941ad138b61e1798]\n"
    "vars currentEpoch 4 lastVoteEpoch 2\n";

TEST(NodesConfTest, ParsesRedisFileAndWritesItBack) {
  ClusterState s;
  ASSERT_EQ(ParseNodesConf(kRedisFile, &s), "");
  ClusterNode* me = s.myself();
  ASSERT_NE(me, nullptr);
  EXPECT_EQ(me->id, "101072ff3f4ff4c2c2c375a4762477ce88105e70");
  EXPECT_EQ(me->slot_count, 4);
  EXPECT_EQ(me->port, 23121);
  EXPECT_EQ(me->cport, 33121);
  EXPECT_EQ(s.current_epoch, 4u);
  EXPECT_EQ(s.last_vote_epoch, 2u);
  ClusterNode* r = s.Find("af8a635b7b8ab36fc0e07f16941ad138b61e1798");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->primary, me);
  EXPECT_EQ(r->hostname, "hb");
  EXPECT_TRUE(r->is_replica());
  EXPECT_EQ(s.migrating_to(5), r);
  EXPECT_EQ(NodeLine(s, *me),
            "101072ff3f4ff4c2c2c375a4762477ce88105e70 127.0.0.1:23121@33121 myself,master - 0 0 "
            "1 connected 0-2 5 [5->-af8a635b7b8ab36fc0e07f16941ad138b61e1798]");
  // Written and read again: the same lines.
  ClusterState again;
  ASSERT_EQ(ParseNodesConf(FormatNodesConf(s), &again), "");
  EXPECT_EQ(FormatNodesConf(again), FormatNodesConf(s));
}

TEST(NodesConfTest, EmptyFileIsANewNode) {
  ClusterState s;
  EXPECT_EQ(ParseNodesConf("", &s), "");
  EXPECT_EQ(s.myself(), nullptr);
  EXPECT_EQ(ParseNodesConf("\n\n", &s), "");
}

TEST(NodesConfTest, CorruptFilesAreRefused) {
  const std::string good = kRedisFile;
  const std::string bad[] = {
      "this is not a nodes file\n",
      good.substr(0, good.size() / 2),
      "101072ff3f4ff4c2c2c375a4762477ce88105e70 127.0.0.1:1@2 myself,master - 0 0 1 "
      "connected 0-99999\n",
      "xyz 127.0.0.1:1@2 myself,master - 0 0 1 connected\n",
      "af8a635b7b8ab36fc0e07f16941ad138b61e1798 127.0.0.1:1@2 master - 0 0 1 connected\n",
      "101072ff3f4ff4c2c2c375a4762477ce88105e70 127.0.0.1:1@2 myself,master - 0 0 1 "
      "connected\nvars currentEpoch x 4 lastVoteEpoch 0\n",
      std::string("\x00\x01\x02\n", 4),
      "101072ff3f4ff4c2c2c375a4762477ce88105e70 127.0.0.1:1@2 myself,bogus - 0 0 1 "
      "connected\n",
  };
  for (const std::string& text : bad) {
    ClusterState s;
    EXPECT_NE(ParseNodesConf(text, &s), "") << text;
  }
}

TEST(NodesConfTest, FlagsText) {
  EXPECT_EQ(NodeFlagsText(kNodeMyself | kNodeMaster), "myself,master");
  EXPECT_EQ(NodeFlagsText(kNodeReplica | kNodePFail), "slave,fail?");
  EXPECT_EQ(NodeFlagsText(0), "noflags");
}

}  // namespace
}  // namespace rankd
