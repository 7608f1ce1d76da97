// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Cluster: this node's membership in a Redis Cluster. main() creates it
// when `cluster-enabled yes` (Cluster::Start) and hands it to the Server as
// its ClusterRouter; command handlers reach it with Cluster::Of(server).
//
// It owns the ClusterState (cluster_state.h), the bus (bus_*.h: links to
// every known node, MEET / PING / PONG / UPDATE / PUBLISH / FAIL / failover
// messages, in Redis 7.0's binary format) and nodes.conf (nodes_conf.h).
// Routing (router.cc) reads the state and the databases' per-slot key
// index. Once per event-loop iteration, before sleeping, it does the work
// the state asked for (ClusterState::Todo): recompute ok/fail, save and
// fsync nodes.conf.
//
// One thread (the event loop). Not thread-safe.

#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "base/status.h"
#include "cluster/cluster_settings.h"
#include "cluster/cluster_state.h"
#include "cluster/route_decision.h"
#include "server/cluster_router.h"
#include "server/server.h"

namespace rankd {

class ClusterBus;       // bus_*.h
class FailoverControl;  // failover.h

class Cluster : public ClusterRouter {
 public:
  // Loads cluster-config-file (a new node with a fresh id when the file does
  // not exist; an error for a corrupt one: start-up is refused), binds the
  // bus port (cluster-port, else port + 10000), registers the before-sleep
  // work and the cron, and installs itself as `server`'s router.
  // REQUIRES: server.config().cluster_enabled; called once, before Run().
  static Status Start(Server& server);
  // The cluster of `server`, or nullptr when it is not in cluster mode.
  static Cluster* Of(Server& server);

  explicit Cluster(Server& server);
  ~Cluster() override;
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  Server& server() { return server_; }
  ClusterSettings settings() const { return ClusterSettings(server_.config()); }
  ClusterState& state() { return state_; }
  ClusterBus& bus() { return *bus_; }
  FailoverControl& failover() { return *failover_; }

  // --- routing (router.cc) ---
  std::string Route(Client& c, const CommandSpec& spec,
                    std::span<const std::string_view> args) override;
  std::string ScriptAccess(const Client& caller, std::span<const std::string_view> args,
                           int* script_slot) override;
  // The routing settings as configured now (cluster-allow-*-when-down,
  // cluster-preferred-endpoint-type).
  RouteSettings RoutingSettings();
  // Unsubscribes every client from the shard channels whose slot neither
  // this node nor its master serves any more, as Redis 7.0 does when a slot
  // leaves (router.cc). O(shard channels); run after slot table changes.
  void DropUnservedShardChannels();
  // The error that ends a blocked client's wait in cluster mode, as Redis
  // 7.0: "CLUSTERDOWN The cluster is down" in state fail, "CLUSTERDOWN Hash
  // slot not served" or MOVED when its keys' slot is no longer served here
  // (nor imported); "" while it may keep waiting (router.cc).
  std::string BlockedRefusal(const Client& c);
  // DropUnservedShardChannels and the blocked clients' BlockedRefusal:
  // after the slot table or the cluster state changed.
  void AfterSlotChanges();

  // --- state upkeep (cluster.cc) ---
  // Recomputes cluster_state ok/fail from slot coverage and reachable
  // masters, as Redis 7.0 (cluster-require-full-coverage; a minority
  // partition turns to fail after the node timeout). A master stays `fail`
  // for its first 2 s after start-up, and one that was in a minority
  // returns to `ok` only after the rejoin delay (the node timeout, within
  // 0.5..5 s), so it does not take writes before it learns a failover.
  void UpdateState();
  // Writes nodes.conf atomically (temp file, rename). `durable`: fsync the
  // file before the rename — for changes of epochs and votes, as Redis
  // fsyncs only those (a slot move is re-learnt from the cluster after a
  // crash). Returns false (and logs) on an I/O error.
  bool SaveConfig(bool durable = true);
  // myself now replicates `primary` through rankd's replication (CLUSTER
  // REPLICATE, a master that lost its last slot); null: back to a master
  // (its slots stay unassigned until ADDSLOTS or a failover).
  void SetMyPrimary(ClusterNode* primary);
  // Makes myself's address fields (announced ip, hostname, ports) match
  // the settings; returns true when something changed.
  bool RefreshMyself();
  // The offset the bus header carries (replication offset).
  uint64_t ReplOffset();
  // CLUSTER RESET: forget every other node, drop my slots; hard: a new id
  // and epochs back to 0.
  void Reset(bool hard);
  // The path of nodes.conf (under dir).
  std::string ConfigPath() const;
  // Deletes the keys of `slot`, a slot this master lost to a newer
  // configuration (dirty_slots.cc).
  void DeleteKeysInSlot(int slot);

 private:
  void BeforeSleep();
  // Router: adds the keys (shard channels) of one command line to `in`;
  // `spec`: the line's, when the dispatcher resolved it already (else the
  // line is resolved here).
  void AddRouteKeys(std::span<const std::string_view> args, const CommandSpec* spec,
                    RouteInput* in) const;

  Server& server_;
  ClusterState state_;
  std::unique_ptr<ClusterBus> bus_;
  std::unique_ptr<FailoverControl> failover_;
  int64_t first_update_ms_ = 0;   // UpdateState's first call
  int64_t minority_since_ms_ = 0; // last time a majority was unreachable
};

}  // namespace rankd
