// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// ClusterBus: the cluster bus of Redis 7.0 — a listener on the bus port,
// one outbound link to every known node, and the binary messages (MEET,
// PING, PONG with gossip sections, UPDATE, PUBLISH, PUBLISHSHARD, FAIL and
// the failover messages) in Redis's exact layout, so redis-server nodes are
// peers. It updates the ClusterState from what it hears and asks for the
// before-sleep work (ClusterState::Todo).
//
// Not thread-safe: the event loop's thread.

#pragma once

#include <string_view>

#include "base/status.h"

namespace rankd {

class Cluster;

class ClusterBus {
 public:
  explicit ClusterBus(Cluster& cluster);
  ~ClusterBus();
  ClusterBus(const ClusterBus&) = delete;
  ClusterBus& operator=(const ClusterBus&) = delete;

  // Binds the bus port. Returns an error when it cannot.
  Status Listen(std::string_view bind, int port);

  // Sends PUBLISH (shard: PUBLISHSHARD to the slot's master and replicas
  // only) of `message` on `channel` to the nodes that need it.
  void Publish(std::string_view channel, std::string_view message, bool shard);

 private:
  Cluster& cluster_;
};

}  // namespace rankd
