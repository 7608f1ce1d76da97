// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "cluster/cluster.h"

#include "cluster/bus.h"

namespace rankd {

Cluster::Cluster(Server& server)
    : server_(server), bus_(std::make_unique<ClusterBus>(*this)) {}

Cluster::~Cluster() = default;

Cluster* Cluster::Of(Server& server) { return static_cast<Cluster*>(server.cluster()); }

Status Cluster::Start(Server& server) {
  auto cluster = std::make_unique<Cluster>(server);
  ClusterState& s = cluster->state();
  s.set_myself(s.AddNode("", kNodeMaster | kNodeMyself));
  Cluster* c = cluster.get();
  server.db(0).EnableSlotIndex();  // routing: keys by slot (router.cc)
  server.loop().AddBeforeSleep([c] { c->BeforeSleep(); });
  server.set_cluster(std::move(cluster));
  c->state().Todo(ClusterState::kTodoUpdateState | ClusterState::kTodoSaveConfig);
  return Status::OK();
}

void Cluster::BeforeSleep() {
  const uint32_t todo = state_.TakeTodo();
  if (todo & ClusterState::kTodoUpdateState) {
    UpdateState();
    AfterSlotChanges();  // router.cc
  }
  if (todo & ClusterState::kTodoSaveConfig) SaveConfig();
}

void Cluster::UpdateState() {
  bool ok = true;
  for (int slot = 0; slot < kClusterSlots && ok; slot++) {
    const ClusterNode* n = state_.owner(slot);
    ok = n && !n->failed();
  }
  state_.set_ok(ok);
}

bool Cluster::SaveConfig() { return true; }

}  // namespace rankd
