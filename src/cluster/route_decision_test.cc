// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// DecideRoute over hand-built ClusterStates: each of Redis 7.0's answers.

#include "cluster/route_decision.h"

#include <set>

#include "gtest/gtest.h"

namespace rankd {
namespace {

// "foo" hashes to 12182, "bar" to 5061.
class RouteDecisionTest : public ::testing::Test {
 protected:
  RouteDecisionTest() {
    me_ = state_.AddNode("", kNodeMaster | kNodeMyself);
    state_.set_myself(me_);
    other_ = state_.AddNode("", kNodeMaster);
    me_->ip = other_->ip = "127.0.0.1";
    me_->port = 7000;
    other_->port = 7001;
    other_->hostname = "other.example";
    for (int s = 0; s < 8192; s++) state_.SetOwner(s, me_);
    for (int s = 8192; s < kClusterSlots; s++) state_.SetOwner(s, other_);
    state_.set_ok(true);
  }

  std::string Route(std::vector<std::string_view> keys, bool write = false) {
    in_.keys.assign(keys.begin(), keys.end());
    in_.write = write;
    return DecideRoute(
        state_, in_, [this] { return settings_; },
        [this](std::string_view k) { return present_.count(std::string(k)) > 0; });
  }

  ClusterState state_;
  ClusterNode* me_;
  ClusterNode* other_;
  RouteInput in_;
  RouteSettings settings_;
  std::set<std::string> present_;
};

TEST_F(RouteDecisionTest, LocalAndKeylessRunHere) {
  EXPECT_EQ(Route({"bar"}), "");
  EXPECT_EQ(Route({}), "");
  EXPECT_EQ(Route({"{bar}a", "{bar}b", "bar"}), "");
}

TEST_F(RouteDecisionTest, MovedNamesTheOwnerByEndpointType) {
  EXPECT_EQ(Route({"foo"}), "MOVED 12182 127.0.0.1:7001");
  settings_.endpoint_type = "hostname";
  EXPECT_EQ(Route({"foo"}), "MOVED 12182 other.example:7001");
  settings_.endpoint_type = "unknown-endpoint";
  EXPECT_EQ(Route({"foo"}), "MOVED 12182 ?:7001");
}

TEST_F(RouteDecisionTest, CrossSlotBeforeAnythingElse) {
  EXPECT_EQ(Route({"bar", "foo"}), "CROSSSLOT Keys in request don't hash to the same slot");
  state_.set_ok(false);
  EXPECT_EQ(Route({"bar", "foo"}), "CROSSSLOT Keys in request don't hash to the same slot");
}

TEST_F(RouteDecisionTest, UnassignedSlotAndDownCluster) {
  state_.SetOwner(5061, nullptr);
  EXPECT_EQ(Route({"bar"}), "CLUSTERDOWN Hash slot not served");
  state_.SetOwner(5061, me_);
  state_.set_ok(false);
  EXPECT_EQ(Route({"bar"}), "CLUSTERDOWN The cluster is down");
  EXPECT_EQ(Route({}), "");
  settings_.allow_reads_when_down = true;
  EXPECT_EQ(Route({"bar"}), "");
  EXPECT_EQ(Route({"bar"}, /*write=*/true),
            "CLUSTERDOWN The cluster is down and only accepts read commands");
  in_.shard_pubsub = true;
  EXPECT_EQ(Route({"bar"}), "");
  settings_.allow_pubsubshard_when_down = false;
  EXPECT_EQ(Route({"bar"}), "CLUSTERDOWN The cluster is down");
}

TEST_F(RouteDecisionTest, MigratingSlotAsksForMissingKeys) {
  state_.SetMigrating(5061, other_);
  present_ = {"bar", "{bar}1"};
  EXPECT_EQ(Route({"bar"}), "");
  EXPECT_EQ(Route({"{bar}2"}), "ASK 5061 127.0.0.1:7001");
  EXPECT_EQ(Route({"bar", "{bar}2"}), "TRYAGAIN Multiple keys request during rehashing of slot");
  in_.migrate = true;
  EXPECT_EQ(Route({"{bar}2"}), "");
}

TEST_F(RouteDecisionTest, ImportingSlotServesAskingOnly) {
  state_.SetImporting(12182, other_);
  present_ = {"foo"};
  EXPECT_EQ(Route({"foo"}), "MOVED 12182 127.0.0.1:7001");
  in_.asking = true;
  EXPECT_EQ(Route({"foo"}), "");
  EXPECT_EQ(Route({"{foo}new"}), "");
  EXPECT_EQ(Route({"foo", "{foo}new"}), "TRYAGAIN Multiple keys request during rehashing of slot");
  present_.insert("{foo}new");
  EXPECT_EQ(Route({"foo", "{foo}new"}), "");
}

TEST_F(RouteDecisionTest, ReadOnlyReplicaServesItsMastersReads) {
  ClusterState s;
  ClusterNode* master = s.AddNode("", kNodeMaster);
  ClusterNode* me = s.AddNode("", kNodeReplica | kNodeMyself);
  s.set_myself(me);
  s.SetPrimary(me, master);
  master->ip = "127.0.0.1";
  master->port = 7000;
  for (int slot = 0; slot < kClusterSlots; slot++) s.SetOwner(slot, master);
  s.set_ok(true);
  auto route = [&](bool readonly, bool write) {
    RouteInput in;
    in.keys = {"foo"};
    in.readonly = readonly;
    in.write = write;
    return DecideRoute(
        s, in, [] { return RouteSettings(); }, [](std::string_view) { return true; });
  };
  EXPECT_EQ(route(false, false), "MOVED 12182 127.0.0.1:7000");
  EXPECT_EQ(route(true, false), "");
  EXPECT_EQ(route(true, true), "MOVED 12182 127.0.0.1:7000");
}

}  // namespace
}  // namespace rankd
