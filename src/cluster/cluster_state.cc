// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "cluster/cluster_state.h"

#include <algorithm>
#include <cassert>
#include <random>

namespace rankd {

ClusterState::ClusterState()
    : owner_(kClusterSlots, nullptr),
      importing_(kClusterSlots, nullptr),
      migrating_(kClusterSlots, nullptr) {}

std::string ClusterState::NewNodeId() {
  static std::mt19937_64 rng{std::random_device{}()};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id(kNodeIdLen, '0');
  for (char& c : id) c = kHex[rng() & 15];
  return id;
}

ClusterNode* ClusterState::AddNode(std::string id, uint16_t flags) {
  if (id.empty()) id = NewNodeId();
  auto node = std::make_unique<ClusterNode>();
  node->id = id;
  node->flags = flags;
  ClusterNode* n = node.get();
  auto [it, inserted] = nodes_.emplace(std::move(id), std::move(node));
  assert(inserted);
  (void)it;
  node_list_.push_back(n);
  return n;
}

void ClusterState::RemoveNode(ClusterNode* n) {
  assert(n != myself_);
  for (int slot = 0; slot < kClusterSlots; slot++) {
    if (owner_[slot] == n) SetOwner(slot, nullptr);
    if (importing_[slot] == n) importing_[slot] = nullptr;
    if (migrating_[slot] == n) migrating_[slot] = nullptr;
  }
  SetPrimary(n, nullptr);
  for (ClusterNode* r : n->replicas) r->primary = nullptr;
  for (ClusterNode* other : node_list_) other->fail_reports.erase(n);
  node_list_.erase(std::find(node_list_.begin(), node_list_.end(), n));
  nodes_.erase(n->id);
}

void ClusterState::RenameNode(ClusterNode* n, std::string id) {
  auto it = nodes_.find(n->id);
  assert(it != nodes_.end() && !nodes_.contains(id));
  std::unique_ptr<ClusterNode> owned = std::move(it->second);
  nodes_.erase(it);
  owned->id = id;
  nodes_.emplace(std::move(id), std::move(owned));
}

ClusterNode* ClusterState::Find(std::string_view id) const {
  // Heterogeneous lookup: no string is built per call (gossip looks up every entry).
  auto it = nodes_.find(absl::string_view(id.data(), id.size()));
  return it == nodes_.end() ? nullptr : it->second.get();
}

void ClusterState::SetPrimary(ClusterNode* replica, ClusterNode* primary) {
  if (replica->primary) {
    auto& list = replica->primary->replicas;
    list.erase(std::remove(list.begin(), list.end(), replica), list.end());
  }
  replica->primary = primary;
  if (primary) {
    // A master that has had replicas may receive a migrating one when it is
    // orphaned (replica_migration.cc), as Redis's MIGRATE_TO flag says.
    primary->flags |= kNodeMigrateTo;
    // Sorted by id, as Redis keeps them, so every node lists a master's
    // replicas (CLUSTER SLOTS, SHARDS, REPLICAS) in the same order.
    auto& list = primary->replicas;
    list.insert(std::upper_bound(list.begin(), list.end(), replica,
                                 [](const ClusterNode* a, const ClusterNode* b) {
                                   return a->id < b->id;
                                 }),
                replica);
  }
}

void ClusterState::SetOwner(int slot, ClusterNode* n) {
  ClusterNode* old = owner_[slot];
  if (old == n) return;
  if (old) {
    old->slots.reset(slot);
    old->slot_count--;
  }
  owner_[slot] = n;
  if (n) {
    n->slots.set(slot);
    n->slot_count++;
  }
}

uint64_t ClusterState::MaxConfigEpoch() const {
  uint64_t max = 0;
  for (const ClusterNode* n : node_list_) max = std::max(max, n->config_epoch);
  return max;
}

int ClusterState::SizedMasters() const {
  int count = 0;
  for (const ClusterNode* n : node_list_) {
    if (n->is_master() && n->slot_count > 0) count++;
  }
  return count;
}

}  // namespace rankd
