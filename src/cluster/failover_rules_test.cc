// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "cluster/failover_rules.h"

#include "gtest/gtest.h"

namespace rankd {
namespace {

constexpr int64_t kTimeout = 1000;
constexpr int64_t kNow = 1'000'000;

// Myself: a master of slots 0-99 (config epoch 1); another master F of
// slots 100-199 (config epoch 2) with replica R asking for votes.
class VoteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    me_ = s_.AddNode("", kNodeMaster | kNodeMyself);
    s_.set_myself(me_);
    f_ = s_.AddNode("", kNodeMaster | kNodeFail);
    r_ = s_.AddNode("", kNodeReplica);
    s_.SetPrimary(r_, f_);
    me_->config_epoch = 1;
    f_->config_epoch = 2;
    for (int slot = 0; slot < 100; slot++) s_.SetOwner(slot, me_);
    for (int slot = 100; slot < 200; slot++) s_.SetOwner(slot, f_);
    s_.current_epoch = 5;
    claimed_ = f_->slots;
    req_.current_epoch = 5;
    req_.config_epoch = 2;
    req_.claimed = &claimed_;
  }
  std::string Refusal() { return VoteRefusal(s_, *r_, req_, kNow, kTimeout); }

  ClusterState s_;
  ClusterNode *me_, *f_, *r_;
  SlotBits claimed_;
  VoteRequest req_;
};

TEST_F(VoteTest, GrantsAVoteForAFailedMastersReplica) { EXPECT_EQ(Refusal(), ""); }

TEST_F(VoteTest, OneVotePerEpoch) {
  s_.last_vote_epoch = 5;
  EXPECT_EQ(Refusal(), "already voted for epoch 5");
  s_.last_vote_epoch = 4;
  EXPECT_EQ(Refusal(), "");
}

TEST_F(VoteTest, RefusesAnOlderEpoch) {
  req_.current_epoch = 4;
  EXPECT_EQ(Refusal(), "request epoch 4 < my epoch 5");
}

TEST_F(VoteTest, TheMasterMustBeFailedUnlessForced) {
  f_->flags = kNodeMaster | kNodePFail;  // suspected only
  EXPECT_EQ(Refusal(), "its master is up");
  req_.force = true;  // a manual failover
  EXPECT_EQ(Refusal(), "");
}

TEST_F(VoteTest, NoSecondVoteForTheSameMasterWithinTwiceTheTimeout) {
  f_->voted_time_ms = kNow - 2 * kTimeout + 1;
  EXPECT_EQ(Refusal(), "can't vote about this master before 1 milliseconds");
  f_->voted_time_ms = kNow - 2 * kTimeout;
  EXPECT_EQ(Refusal(), "");
}

TEST_F(VoteTest, RefusesAStaleClaim) {
  claimed_.set(50);  // one of mine, owned under config epoch 1 <= 2: fine
  EXPECT_EQ(Refusal(), "");
  me_->config_epoch = 3;  // now newer than the request's
  EXPECT_EQ(Refusal(), "slot 50 epoch 3 > reqEpoch 2");
}

TEST_F(VoteTest, OnlyMastersWithSlotsVote) {
  for (int slot = 0; slot < 100; slot++) s_.SetOwner(slot, nullptr);
  EXPECT_EQ(Refusal(), "not a voting master");
}

TEST_F(VoteTest, TheRequesterMustBeAReplicaWithAKnownMaster) {
  ClusterNode* orphan = s_.AddNode("", kNodeReplica);
  EXPECT_EQ(VoteRefusal(s_, *orphan, req_, kNow, kTimeout), "I don't know its master");
  EXPECT_EQ(VoteRefusal(s_, *f_, req_, kNow, kTimeout), "it is a master node");
}

TEST(FailoverRulesTest, RankCountsReplicasAheadThatMayFailOver) {
  ClusterState s;
  ClusterNode* m = s.AddNode("", kNodeMaster);
  ClusterNode* me = s.AddNode("", kNodeReplica | kNodeMyself);
  ClusterNode* a = s.AddNode("", kNodeReplica);
  ClusterNode* b = s.AddNode("", kNodeReplica | kNodeNoFailover);
  ClusterNode* c = s.AddNode("", kNodeReplica);
  for (ClusterNode* r : {me, a, b, c}) s.SetPrimary(r, m);
  a->repl_offset = 200;  // ahead
  b->repl_offset = 300;  // ahead, but may not fail over
  c->repl_offset = 100;  // equal: not ahead
  EXPECT_EQ(ReplicaRank(*me, 100), 1);
  EXPECT_EQ(ReplicaRank(*me, 250), 0);
  EXPECT_EQ(ReplicaRank(*m, 0), 0);  // no master: rank 0
}

TEST(FailoverRulesTest, DelayAndTimeoutsAsRedis) {
  EXPECT_EQ(ElectionDelayMs(0, 0), 500);
  EXPECT_EQ(ElectionDelayMs(0, 1499), 999);
  EXPECT_EQ(ElectionDelayMs(2, 10), 2510);
  EXPECT_EQ(AuthTimeoutMs(500), 2000);  // at least 2 s
  EXPECT_EQ(AuthTimeoutMs(5000), 10000);
  EXPECT_EQ(AuthRetryMs(5000), 20000);
}

TEST(FailoverRulesTest, DataAgeLimit) {
  // Limit: ping period + timeout * factor = 10 s + 5 s * 10 = 60 s, after
  // one node timeout is taken off the age.
  EXPECT_FALSE(DataTooOld(65000, 5000, 10, 10));
  EXPECT_TRUE(DataTooOld(65001, 5000, 10, 10));
  EXPECT_FALSE(DataTooOld(1'000'000'000, 5000, 0, 10));  // factor 0: no limit
}

}  // namespace
}  // namespace rankd
