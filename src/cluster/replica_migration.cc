// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Replica migration, as Redis 7.0 decides it: a master is orphaned when it
// serves slots, has had replicas (the MIGRATE_TO flag) and has no working
// one left. The replicas of the masters with the most working replicas
// (at least two) consider moving; the one with the smallest id among them
// moves, when its own master keeps more than cluster-migration-barrier
// working replicas and the target has been orphaned for 5 seconds.

#include "base/clock.h"
#include "base/logging.h"
#include "cluster/cluster.h"
#include "cluster/failover.h"

namespace rankd {
namespace {

constexpr int64_t kMigrationDelayMs = 5000;

int WorkingReplicas(const ClusterNode* master) {
  int n = 0;
  for (const ClusterNode* r : master->replicas) {
    if (!r->failed()) n++;
  }
  return n;
}

}  // namespace

void FailoverControl::MigrateIfNeeded() {
  ClusterState& s = cluster_.state();
  ClusterNode* me = s.myself();
  if (!me->is_replica() || !me->primary) return;
  // Who is orphaned, and how many working replicas the best-served master has.
  int orphaned = 0, max_replicas = 0, mine = 0;
  for (ClusterNode* n : s.nodes()) {
    if (!n->is_master() || n->failed()) continue;
    const int ok = WorkingReplicas(n);
    if (ok == 0 && n->slot_count > 0 && (n->flags & kNodeMigrateTo)) orphaned++;
    max_replicas = std::max(max_replicas, ok);
    if (me->primary == n) mine = ok;
  }
  if (orphaned == 0 || max_replicas < 2 || mine != max_replicas ||
      !cluster_.settings().allow_replica_migration() || !s.ok()) {
    return;
  }
  int healthy = 0;
  for (const ClusterNode* r : me->primary->replicas) {
    if (!(r->flags & (kNodeFail | kNodePFail))) healthy++;
  }
  if (healthy <= cluster_.settings().migration_barrier()) return;
  const int64_t now = WallMs();
  ClusterNode* target = nullptr;
  const ClusterNode* candidate = me;
  for (ClusterNode* n : s.nodes()) {
    const int ok = n->is_master() ? WorkingReplicas(n) : 0;
    const bool is_orphaned =
        n->is_master() && !n->failed() && (n->flags & kNodeMigrateTo) && ok == 0;
    if (is_orphaned) {
      if (!target && n->slot_count > 0) target = n;
      if (n->orphaned_time_ms == 0) n->orphaned_time_ms = now;
    } else {
      n->orphaned_time_ms = 0;
    }
    // Among the replicas of the best-served masters the smallest id moves.
    if (n->is_master() && ok == max_replicas) {
      for (const ClusterNode* r : n->replicas) {
        if (r->id < candidate->id) candidate = r;
      }
    }
  }
  if (target && candidate == me && now - target->orphaned_time_ms > kMigrationDelayMs) {
    LOG_WARNING("Migrating to orphaned master %.40s", target->id.c_str());
    cluster_.SetMyPrimary(target);
  }
}

}  // namespace rankd
