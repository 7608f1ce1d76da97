// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Outgoing bus messages: the header every message carries (myself as the
// others should see it), PING / PONG / MEET with their gossip sections,
// UPDATE, PUBLISH, and CLUSTER MEET's handshake start.

#include <arpa/inet.h>

#include <random>

#include "absl/container/flat_hash_set.h"
#include "base/clock.h"
#include "cluster/bus.h"
#include "cluster/cluster.h"
#include "cluster/failover.h"

namespace rankd {

BusMsg ClusterBus::Header(uint16_t type) const {
  const ClusterState& s = cluster_.state();
  const ClusterNode* me = s.myself();
  const ClusterNode* master = me->is_replica() && me->primary ? me->primary : me;
  BusMsg m;
  m.type = type;
  m.sender = me->id;
  m.myip = cluster_.settings().announce_ip();
  m.port = static_cast<uint16_t>(me->port);
  m.pport = static_cast<uint16_t>(me->pport);
  m.cport = static_cast<uint16_t>(me->cport);
  m.flags = me->flags;
  m.state = s.ok() ? 0 : 1;
  m.current_epoch = s.current_epoch;
  m.config_epoch = master->config_epoch;
  m.slots = master->slots;
  if (me->is_replica() && me->primary) m.primary = me->primary->id;
  m.offset = cluster_.ReplOffset();
  m.mflags0 = kMsgFlagExtData;
  if (me->is_master() && cluster_.failover().master_paused()) m.mflags0 |= kMsgFlagPaused;
  return m;
}

// As Redis 7.0: a tenth of the known nodes, at least 3, at most all but
// myself and the receiver; picked at random among the nodes worth telling
// about, then every node this node suspects (PFAIL) so reports spread.
void ClusterBus::AddGossip(BusMsg* m) const {
  static std::mt19937 rng{std::random_device{}()};
  const auto& nodes = cluster_.state().nodes();
  int fresh = static_cast<int>(nodes.size()) - 2;
  int wanted = std::min(std::max(3, static_cast<int>(nodes.size()) / 10), fresh);
  absl::flat_hash_set<const ClusterNode*> picked;
  auto add = [&](const ClusterNode* n) {
    BusGossip g;
    g.id = n->id;
    g.ping_sent = static_cast<uint32_t>(n->ping_sent_ms / 1000);
    g.pong_received = static_cast<uint32_t>(n->pong_received_ms / 1000);
    g.ip = n->ip;
    g.port = static_cast<uint16_t>(n->port);
    g.cport = static_cast<uint16_t>(n->cport);
    g.pport = static_cast<uint16_t>(n->pport);
    g.flags = n->flags;
    m->gossip.push_back(std::move(g));
    picked.insert(n);
  };
  for (int tries = wanted * 3; fresh > 0 && static_cast<int>(picked.size()) < wanted &&
                               tries > 0; tries--) {
    const ClusterNode* n = nodes[rng() % nodes.size()];
    if (n->is_myself() || (n->flags & kNodePFail)) continue;
    if (n->in_handshake() || (n->flags & kNodeNoAddr) || (!n->link && n->slot_count == 0)) {
      fresh--;
      continue;
    }
    if (picked.contains(n)) continue;
    add(n);
    fresh--;
  }
  for (const ClusterNode* n : nodes) {
    if ((n->flags & kNodePFail) && !n->in_handshake() && !(n->flags & kNodeNoAddr) &&
        !picked.contains(n)) {
      add(n);
    }
  }
}

void ClusterBus::SendPing(ClusterLink* link, uint16_t type) {
  BusMsg m = Header(type);
  AddGossip(&m);
  const std::string& hostname = cluster_.state().myself()->hostname;
  m.has_hostname = !hostname.empty();
  m.hostname = hostname;
  if (link->node && type == kMsgPing) link->node->ping_sent_ms = WallMs();
  Send(link, m);
}

void ClusterBus::BroadcastPong(bool my_shard_replicas) {
  const ClusterNode* me = cluster_.state().myself();
  for (ClusterNode* n : cluster_.state().nodes()) {
    if (n->is_myself() || n->in_handshake() || !n->link || n->link->connecting) continue;
    if (my_shard_replicas && !(n->is_replica() && me->primary && n->primary == me->primary)) {
      continue;
    }
    SendPing(n->link, kMsgPong);
  }
}

void ClusterBus::SendTo(ClusterNode* n, uint16_t type) {
  if (!n->link || n->link->connecting) return;
  if (type == kMsgPing || type == kMsgPong) {
    SendPing(n->link, type);
  } else {
    Send(n->link, Header(type));
  }
}

void ClusterBus::BroadcastAuthRequest(bool force) {
  BusMsg m = Header(kMsgAuthRequest);
  if (force) m.mflags0 |= kMsgFlagForceAck;
  Broadcast(m);
}

void ClusterBus::SendUpdate(ClusterLink* link, const ClusterNode* n) {
  if (!link) return;
  BusMsg m = Header(kMsgUpdate);
  m.node = n->id;
  m.update_epoch = n->config_epoch;
  m.update_slots = n->slots;
  Send(link, m);
}

void ClusterBus::Publish(std::string_view channel, std::string_view message, bool shard) {
  BusMsg m = Header(shard ? kMsgPublishShard : kMsgPublish);
  m.channel = std::string(channel);
  m.message = std::string(message);
  if (!shard) {
    Broadcast(m);
    return;
  }
  // The shard: my master (or myself) and its replicas.
  ClusterNode* me = cluster_.state().myself();
  ClusterNode* master = me->is_replica() && me->primary ? me->primary : me;
  std::vector<ClusterNode*> shard_nodes = master->replicas;
  shard_nodes.push_back(master);
  for (ClusterNode* n : shard_nodes) {
    if (n->is_myself() || !n->link || n->link->connecting) continue;
    Send(n->link, m);
  }
}

bool ClusterBus::Meet(std::string ip, int port, int cport) {
  in6_addr a6;
  in_addr a4;
  if (inet_pton(AF_INET, ip.c_str(), &a4) != 1 && inet_pton(AF_INET6, ip.c_str(), &a6) != 1) {
    return false;
  }
  if (port <= 0 || port > 65535 || cport <= 0 || cport > 65535) return false;
  ClusterState& s = cluster_.state();
  for (const ClusterNode* n : s.nodes()) {
    if (n->in_handshake() && n->ip == ip && n->port == port && n->cport == cport) return true;
  }
  ClusterNode* n = s.AddNode("", kNodeHandshake | kNodeMeet);
  n->ip = std::move(ip);
  n->port = port;
  n->cport = cport;
  n->ctime_ms = WallMs();
  return true;
}

}  // namespace rankd
