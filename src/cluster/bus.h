// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// ClusterBus: the cluster bus of Redis 7.0 — a listener on the bus port,
// one outbound link to every known node (plus the inbound ones they open
// to us), and the binary messages of bus_msg.h: MEET / PING / PONG with
// gossip, UPDATE, PUBLISH / PUBLISHSHARD and FAIL, so redis-server nodes
// are peers. It updates the ClusterState from what it hears (bus_recv.cc),
// builds pings and their gossip (bus_ping.cc) and runs the 100 ms cron
// (bus_cron.cc); links and sockets are bus.cc.
//
// A malformed message (bad signature, length, version or counts) closes
// its link and is logged; a message from an unknown sender changes nothing
// (only MEET introduces a node; any PING gets its PONG).
//
// Not thread-safe: the event loop's thread.

#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "base/status.h"
#include "cluster/bus_msg.h"

namespace rankd {

class Cluster;
struct ClusterNode;

// One TCP connection of the bus.
struct ClusterLink {
  int fd = -1;
  bool inbound = false;    // accepted (the peer's outbound link)
  bool connecting = false; // outbound, connect() not finished yet
  ClusterNode* node = nullptr;  // outbound: the node; inbound: once known
  int64_t ctime_ms = 0;    // wall clock
  std::string in, out;
  size_t out_pos = 0;
};

class ClusterBus {
 public:
  explicit ClusterBus(Cluster& cluster);
  ~ClusterBus();
  ClusterBus(const ClusterBus&) = delete;
  ClusterBus& operator=(const ClusterBus&) = delete;

  // Binds the bus port on each of `binds` ("*" and "::*" allowed; "-" and
  // "-::*" prefixes as Redis's bind). Returns an error when it cannot.
  Status Listen(const std::vector<std::string>& binds, int port);

  // Sends PUBLISH (shard: PUBLISHSHARD) of `message` on `channel` to every
  // connected node (shard: only the nodes of this node's shard).
  void Publish(std::string_view channel, std::string_view message, bool shard);

  // CLUSTER MEET: starts a handshake with ip:port@cport. Returns false when
  // the address is invalid; true also when a handshake is already going on.
  bool Meet(std::string ip, int port, int cport);
  // Drops `n` and its links (FORGET, a failed handshake). REQUIRES: not myself.
  void DeleteNode(ClusterNode* n);
  // CLUSTER FORGET's 60-second blacklist: gossip does not re-add `id`.
  void Blacklist(const std::string& id);
  bool Blacklisted(const std::string& id);
  // DEBUG CLUSTERLINK KILL: closes the link to `n` (to) and / or the one
  // from it (from); the cron reconnects.
  void KillLinks(ClusterNode* n, bool to, bool from);
  // Closes every link (CLUSTER RESET).
  void CloseAllLinks();
  // Sends a PONG to every connected node now, so they learn a change (new
  // slots, epoch, role) without waiting for the cron; `my_shard_replicas`:
  // only to the other replicas of myself's master (an election's rank).
  void BroadcastPong(bool my_shard_replicas = false);
  // A message with only the header (FAILOVER_AUTH_ACK, MFSTART) or a PING
  // to `n` over the link to it; nothing when there is none.
  void SendTo(ClusterNode* n, uint16_t type);
  // FAILOVER_AUTH_REQUEST to every connected node; `force`: the FORCEACK
  // flag (a manual failover: voters need not see the master failed).
  void BroadcastAuthRequest(bool force);

  // DEBUG DROP-CLUSTER-PACKET-FILTER: received messages of this type are
  // dropped (counted, then ignored); -1: none.
  void set_drop_filter(int64_t type) { drop_filter_ = type; }

  // Every 100 ms (cluster.cc's timer).
  void Cron();
  // cluster-link-sendbuf-limit (bytes; 0: none): frees every link whose send
  // buffer takes more (the cron reconnects), counting each
  // (total_cluster_links_buffer_limit_exceeded). Called by Cron.
  void FreeLinksOverLimit(size_t limit);
  uint64_t links_over_limit() const { return links_over_limit_; }
  // The memory the links take (INFO mem_cluster_links).
  size_t LinksMemory() const;
  // Frees links closed since the last call (before sleep).
  void Reap();

  // CLUSTER INFO / LINKS.
  const std::array<uint64_t, kMsgTypeCount>& sent() const { return sent_; }
  const std::array<uint64_t, kMsgTypeCount>& received() const { return received_; }
  const std::vector<std::unique_ptr<ClusterLink>>& links() const { return links_; }

 private:
  // bus.cc: sockets.
  void Accept(int listen_fd);
  bool Connect(ClusterNode* n);
  void OnEvents(ClusterLink* link, uint32_t events);
  void OnConnected(ClusterLink* link);
  void ReadFrom(ClusterLink* link);
  void Flush(ClusterLink* link);
  void Send(ClusterLink* link, const BusMsg& m);
  void FreeLink(ClusterLink* link);
  void Broadcast(const BusMsg& m);
  // bus_ping.cc: outgoing messages.
  BusMsg Header(uint16_t type) const;
  void SendPing(ClusterLink* link, uint16_t type);
  void AddGossip(BusMsg* m) const;
  void SendUpdate(ClusterLink* link, const ClusterNode* n);
  // bus_recv.cc: incoming messages.
  void Process(ClusterLink* link, const BusMsg& m);
  void ProcessPingGroup(ClusterLink* link, const BusMsg& m, ClusterNode* sender);
  void ProcessGossip(const BusMsg& m, ClusterNode* sender);
  void UpdateRole(ClusterNode* sender, const BusMsg& m);
  void UpdateSlots(ClusterNode* sender, uint64_t epoch, const SlotBits& slots);
  void HandleEpochCollision(ClusterNode* sender);
  void LearnMyIp(ClusterLink* link);
  // bus_cron.cc
  void PingOldest();
  // A suspected (PFAIL) node that a majority of masters report is failed:
  // FAIL, broadcast. A FAIL node heard from again is cleared when it serves
  // no slots, or after twice the node timeout.
  void MarkFailingIfNeeded(ClusterNode* n);
  void ClearFailureIfNeeded(ClusterNode* n);
  void CheckNode(ClusterNode* n, int64_t now);

  Cluster& cluster_;
  std::vector<int> listen_fds_;
  std::vector<std::unique_ptr<ClusterLink>> links_;
  std::vector<std::unique_ptr<ClusterLink>> closed_;
  absl::flat_hash_map<std::string, int64_t> blacklist_;  // id -> expiry (wall ms)
  std::array<uint64_t, kMsgTypeCount> sent_{}, received_{};
  uint64_t iteration_ = 0;
  uint64_t links_over_limit_ = 0;
  int64_t drop_filter_ = -1;
};

}  // namespace rankd
