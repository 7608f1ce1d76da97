// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "cluster/cluster_state.h"

#include "gtest/gtest.h"

namespace rankd {

TEST(ClusterStateTest, NodeIdsAreFortyHex) {
  std::string id = ClusterState::NewNodeId();
  ASSERT_EQ(id.size(), kNodeIdLen);
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(id, ClusterState::NewNodeId());
}

TEST(ClusterStateTest, SlotOwnershipKeepsNodeBitsInStep) {
  ClusterState s;
  ClusterNode* a = s.AddNode("", kNodeMaster | kNodeMyself);
  ClusterNode* b = s.AddNode("", kNodeMaster);
  s.set_myself(a);
  for (int slot = 0; slot < 100; slot++) s.SetOwner(slot, a);
  s.SetOwner(5, b);
  EXPECT_EQ(a->slot_count, 99);
  EXPECT_EQ(b->slot_count, 1);
  EXPECT_TRUE(b->slots.test(5));
  EXPECT_FALSE(a->slots.test(5));
  EXPECT_EQ(s.owner(5), b);
  EXPECT_EQ(s.SizedMasters(), 2);
  s.SetMigrating(7, b);
  s.RemoveNode(b);
  EXPECT_EQ(s.owner(5), nullptr);
  EXPECT_EQ(s.migrating_to(7), nullptr);
  EXPECT_EQ(s.SizedMasters(), 1);
  EXPECT_EQ(s.nodes().size(), 1u);
}

TEST(ClusterStateTest, ReplicasFollowTheirPrimary) {
  ClusterState s;
  ClusterNode* m = s.AddNode("", kNodeMaster);
  ClusterNode* r = s.AddNode("", kNodeReplica);
  s.SetPrimary(r, m);
  ASSERT_EQ(m->replicas.size(), 1u);
  std::string old_id = m->id;
  s.RenameNode(m, std::string(40, 'a'));
  EXPECT_EQ(s.Find(std::string(40, 'a')), m);
  EXPECT_EQ(s.Find(old_id), nullptr);
  s.RemoveNode(m);
  EXPECT_EQ(r->primary, nullptr);
}

TEST(ClusterStateTest, TodoIsTakenOnce) {
  ClusterState s;
  s.Todo(ClusterState::kTodoSaveConfig);
  s.Todo(ClusterState::kTodoUpdateState);
  EXPECT_EQ(s.TakeTodo(), ClusterState::kTodoSaveConfig | ClusterState::kTodoUpdateState);
  EXPECT_EQ(s.TakeTodo(), 0u);
}

}  // namespace rankd
