// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Incoming bus messages, following Redis 7.0's rules: epochs only grow;
// only a MEET introduces an unknown sender; a handshake node takes its real
// id from the first PONG; slots go to the claim with the higher config
// epoch (a stale claimer gets an UPDATE); two masters with the same config
// epoch are told apart by the lower id taking a new one.

#include <arpa/inet.h>
#include <sys/socket.h>

#include <algorithm>

#include "base/clock.h"
#include "base/logging.h"
#include "cluster/bus.h"
#include "cluster/cluster.h"
#include "cluster/failover.h"
#include "server/pubsub.h"

namespace rankd {
namespace {

constexpr uint32_t kSave = ClusterState::kTodoSaveConfig | ClusterState::kTodoUpdateState |
                           ClusterState::kTodoFsyncConfig;

// The address of the socket's `local` (or peer) end, without the port.
std::string SocketIp(int fd, bool local) {
  sockaddr_storage ss;
  socklen_t len = sizeof(ss);
  if ((local ? getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len)
             : getpeername(fd, reinterpret_cast<sockaddr*>(&ss), &len)) != 0) {
    return "";
  }
  char buf[INET6_ADDRSTRLEN] = {0};
  if (ss.ss_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(&ss)->sin_addr, buf, sizeof(buf));
  } else {
    inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(&ss)->sin6_addr, buf, sizeof(buf));
  }
  return buf;
}

// The sender's address: what it announced, else where the message came from.
std::string SenderIp(const ClusterLink* link, const BusMsg& m) {
  return m.myip.empty() ? SocketIp(link->fd, false) : m.myip;
}

}  // namespace

void ClusterBus::Process(ClusterLink* link, const BusMsg& m) {
  ClusterState& s = cluster_.state();
  if (m.type < kMsgTypeCount) received_[m.type]++;
  if (m.type == drop_filter_) {
    LOG_WARNING("Dropping packet that matches debug drop filter");
    return;
  }
  if (m.sender == s.myself()->id) return;  // our own message looped back
  ClusterNode* sender = s.Find(m.sender);
  if (sender && link->inbound && link->node != sender) {
    link->node = sender;
    sender->inbound_link = link;
  }
  if (sender) sender->data_received_ms = WallMs();
  if (sender && !sender->in_handshake()) {
    if (m.current_epoch > s.current_epoch) {
      s.current_epoch = m.current_epoch;
      s.Todo(kSave);
    }
    if (m.config_epoch > sender->config_epoch) {
      sender->config_epoch = m.config_epoch;
      s.Todo(kSave);
    }
    sender->repl_offset = m.offset;
    sender->repl_offset_time_ms = WallMs();
    cluster_.failover().OnHeader(sender, m);
  }
  switch (m.type) {
    case kMsgPing:
    case kMsgPong:
    case kMsgMeet:
      ProcessPingGroup(link, m, sender);
      return;
    case kMsgFail: {
      if (!sender) return;
      ClusterNode* failing = s.Find(m.node);
      if (failing && !(failing->flags & (kNodeFail | kNodeMyself))) {
        LOG_NOTICE("FAIL message received from %s about %s", m.sender.c_str(), m.node.c_str());
        failing->flags = static_cast<uint16_t>((failing->flags | kNodeFail) & ~kNodePFail);
        failing->fail_time_ms = WallMs();
        s.Todo(kSave);
      }
      return;
    }
    case kMsgPublish:
    case kMsgPublishShard:
      if (!sender) return;
      cluster_.server().pubsub().Publish(
          m.type == kMsgPublish ? PubSub::kChannel : PubSub::kShard, m.channel, m.message);
      return;
    case kMsgUpdate: {
      if (!sender) return;
      ClusterNode* n = s.Find(m.node);
      if (!n || n->config_epoch >= m.update_epoch) return;
      if (n->is_replica()) {  // promoted: a master that had replicas
        s.SetPrimary(n, nullptr);
        n->flags = static_cast<uint16_t>((n->flags & ~kNodeReplica) | kNodeMaster |
                                         kNodeMigrateTo);
      }
      n->config_epoch = m.update_epoch;
      UpdateSlots(n, m.update_epoch, m.update_slots);
      s.Todo(kSave);
      return;
    }
    case kMsgAuthRequest:
      if (sender) cluster_.failover().OnAuthRequest(sender, m);
      return;
    case kMsgAuthAck:
      if (sender) cluster_.failover().OnAuthAck(sender, m);
      return;
    case kMsgMfStart:
      if (sender) cluster_.failover().OnMfStart(sender);
      return;
    default:
      return;
  }
}

void ClusterBus::ProcessPingGroup(ClusterLink* link, const BusMsg& m, ClusterNode* sender) {
  ClusterState& s = cluster_.state();
  const int64_t now = WallMs();
  if (m.type == kMsgPing || m.type == kMsgMeet) {
    // Learn our own address from the socket the peer reached us on.
    if ((m.type == kMsgMeet || s.myself()->ip.empty()) &&
        cluster_.settings().announce_ip().empty()) {
      LearnMyIp(link);
    }
    if (!sender && m.type == kMsgMeet) {
      ClusterNode* n = s.AddNode("", kNodeHandshake);
      n->ip = SenderIp(link, m);
      n->port = m.port;
      n->pport = m.pport;
      n->cport = m.cport;
      n->ctime_ms = now;
      s.Todo(kSave);
      ProcessGossip(m, nullptr);
    }
    SendPing(link, kMsgPong);
  }
  ClusterNode* peer = link->inbound ? nullptr : link->node;
  if (peer && peer->in_handshake()) {
    if (m.type != kMsgPong) return;
    if (sender) {
      // Already known under its real id: this handshake was redundant, but
      // it tells where that node is now.
      const std::string ip = SenderIp(link, m);
      if (ip != sender->ip || m.port != sender->port || m.cport != sender->cport) {
        sender->ip = ip;
        sender->port = m.port;
        sender->pport = m.pport;
        sender->cport = m.cport;
        if (sender->link) FreeLink(sender->link);
        s.Todo(kSave);
      }
      DeleteNode(peer);
      return;
    }
    LOG_NOTICE("Handshake with node %s completed.", m.sender.c_str());
    s.RenameNode(peer, m.sender);
    peer->flags = static_cast<uint16_t>(
        (peer->flags & ~kNodeHandshake) | (m.flags & (kNodeMaster | kNodeReplica)));
    s.Todo(kSave);
    sender = peer;
    // Its epochs count from this first message on (its slots follow below).
    s.current_epoch = std::max(s.current_epoch, m.current_epoch);
    sender->config_epoch = std::max(sender->config_epoch, m.config_epoch);
  } else if (peer && peer->id != m.sender) {
    LOG_NOTICE("PONG contains mismatching sender ID: %s, closing the link to %s",
               m.sender.c_str(), peer->id.c_str());
    peer->flags |= kNodeNoAddr;
    peer->ip.clear();
    peer->port = peer->cport = peer->pport = 0;
    FreeLink(link);
    s.Todo(kSave);
    return;
  }
  if (!sender) return;
  if (sender->hostname != (m.has_hostname ? m.hostname : "")) {
    sender->hostname = m.has_hostname ? m.hostname : "";
    s.Todo(kSave);
  }
  sender->flags = static_cast<uint16_t>((sender->flags & ~kNodeNoFailover) |
                                        (m.flags & kNodeNoFailover));
  if (peer == sender && m.type == kMsgPong) {
    sender->pong_received_ms = now;
    sender->ping_sent_ms = 0;
    if (sender->flags & kNodePFail) {
      sender->flags &= ~kNodePFail;
      s.Todo(kSave);
    } else if (sender->failed()) {
      ClearFailureIfNeeded(sender);
    }
  }
  // An address change we can see (the node restarted elsewhere).
  if (peer == sender && !link->inbound) {
    const std::string ip = SenderIp(link, m);
    if (ip != sender->ip || m.port != sender->port || m.cport != sender->cport) {
      sender->ip = ip;
      sender->port = m.port;
      sender->pport = m.pport;
      sender->cport = m.cport;
      s.Todo(kSave);
    }
  }
  if (sender->in_handshake()) return;
  UpdateRole(sender, m);
  if (m.primary.empty() && sender->slots != m.slots) {
    UpdateSlots(sender, m.config_epoch, m.slots);
  }
  // Someone claims slots owned under a newer epoch: tell it.
  if (m.primary.empty()) {
    for (int slot = 0; slot < kClusterSlots; slot++) {
      if (!m.slots.test(slot)) continue;
      ClusterNode* owner = s.owner(slot);
      if (owner && owner != sender && owner->config_epoch > m.config_epoch) {
        SendUpdate(link, owner);
        break;
      }
    }
  }
  if (sender->is_master() && s.myself()->is_master() &&
      sender->config_epoch == s.myself()->config_epoch) {
    HandleEpochCollision(sender);
  }
  ProcessGossip(m, sender);
}

void ClusterBus::LearnMyIp(ClusterLink* link) {
  const std::string ip = SocketIp(link->fd, true);
  ClusterNode* me = cluster_.state().myself();
  if (!ip.empty() && ip != me->ip) {
    me->ip = ip;
    LOG_NOTICE("IP address for this node updated to %s", ip.c_str());
    cluster_.state().Todo(kSave);
  }
}

void ClusterBus::UpdateRole(ClusterNode* sender, const BusMsg& m) {
  ClusterState& s = cluster_.state();
  if (m.primary.empty()) {
    if (sender->is_replica()) {  // promoted: a master that had replicas
      s.SetPrimary(sender, nullptr);
      sender->flags = static_cast<uint16_t>((sender->flags & ~kNodeReplica) | kNodeMaster |
                                            kNodeMigrateTo);
      s.Todo(kSave);
    }
    return;
  }
  ClusterNode* primary = s.Find(m.primary);
  if (sender->is_master()) {
    for (int slot = 0; slot < kClusterSlots; slot++) {
      if (s.owner(slot) == sender) s.SetOwner(slot, nullptr);
    }
    sender->flags = static_cast<uint16_t>((sender->flags & ~kNodeMaster) | kNodeReplica);
    s.Todo(kSave);
  }
  if (primary && sender->primary != primary) {
    s.SetPrimary(sender, primary);
    s.Todo(kSave);
  }
}

void ClusterBus::UpdateSlots(ClusterNode* sender, uint64_t epoch, const SlotBits& slots) {
  ClusterState& s = cluster_.state();
  ClusterNode* me = s.myself();
  if (sender == me) return;
  ClusterNode* my_master = me->is_replica() && me->primary ? me->primary : me;
  ClusterNode* new_primary = nullptr;
  int sender_slots = 0, taken_from_mine = 0;
  std::vector<int> lost;  // my slots taken over: their keys go ("dirty slots")
  for (int slot = 0; slot < kClusterSlots; slot++) {
    if (!slots.test(slot)) continue;
    sender_slots++;
    ClusterNode* owner = s.owner(slot);
    if (owner == sender || s.importing_from(slot)) continue;
    if (owner && owner->config_epoch >= epoch) continue;
    if (owner == me) lost.push_back(slot);
    if (owner == my_master) {
      new_primary = sender;
      taken_from_mine++;
    }
    s.SetOwner(slot, sender);
    s.Todo(kSave);
  }
  // Every slot of my shard went to the sender: follow it as a replica, as
  // Redis 7.0 does — after a failover (the sender took exactly my shard's
  // slots), else only with cluster-allow-replica-migration.
  if (new_primary && my_master->slot_count == 0 &&
      (cluster_.settings().allow_replica_migration() || sender_slots == taken_from_mine)) {
    LOG_WARNING("Configuration change detected. Reconfiguring myself as a replica of %.40s",
                new_primary->id.c_str());
    cluster_.SetMyPrimary(new_primary);
  } else if (me->primary && me->primary->primary && me->primary->primary != me) {
    // My master turned replica when it lost its last slot: replicate from
    // its master instead (never a replica of a replica).
    LOG_WARNING("I'm a sub-replica! Reconfiguring myself as a replica of grandmaster %.40s",
                me->primary->primary->id.c_str());
    cluster_.SetMyPrimary(me->primary->primary);
    s.Todo(kSave);  // fsynced, as Redis does for a role learnt from the cluster
  }
  if (me->is_master()) {
    for (int slot : lost) cluster_.DeleteKeysInSlot(slot);
  }
}

void ClusterBus::HandleEpochCollision(ClusterNode* sender) {
  ClusterState& s = cluster_.state();
  ClusterNode* me = s.myself();
  if (sender->id <= me->id) return;  // the lower id moves
  s.current_epoch++;
  me->config_epoch = s.current_epoch;
  s.Todo(kSave);
  LOG_VERBOSE("WARNING: configEpoch collision with node %s. configEpoch set to %llu",
              sender->id.c_str(), static_cast<unsigned long long>(me->config_epoch));
}

void ClusterBus::ProcessGossip(const BusMsg& m, ClusterNode* sender) {
  ClusterState& s = cluster_.state();
  const int64_t now = WallMs();
  for (const BusGossip& g : m.gossip) {
    ClusterNode* n = s.Find(g.id);
    if (n) {
      if (n->is_myself()) continue;
      if (sender && sender->is_master()) {
        if (g.flags & (kNodeFail | kNodePFail)) {
          n->fail_reports[sender] = now;
          MarkFailingIfNeeded(n);
        } else {
          n->fail_reports.erase(sender);
        }
      }
      const int64_t pong = static_cast<int64_t>(g.pong_received) * 1000;
      if (!(g.flags & (kNodeFail | kNodePFail)) && n->ping_sent_ms == 0 &&
          n->fail_reports.empty() && pong <= now + 500 && pong > n->pong_received_ms) {
        n->pong_received_ms = pong;
      }
      // A node we cannot reach, seen elsewhere by a node that can: try there.
      if ((n->flags & (kNodeFail | kNodePFail)) && !(g.flags & kNodeNoAddr) &&
          (n->ip != g.ip || n->port != g.port || n->cport != g.cport)) {
        if (n->link) FreeLink(n->link);
        n->ip = g.ip;
        n->port = g.port;
        n->pport = g.pport;
        n->cport = g.cport;
        n->flags &= ~kNodeNoAddr;
      }
      continue;
    }
    // A node we do not know: trusted when a known node tells of it.
    if (sender && !(g.flags & kNodeNoAddr) && !Blacklisted(g.id) &&
        !g.ip.empty() && g.port != 0 && g.cport != 0) {
      ClusterNode* added = s.AddNode(g.id, static_cast<uint16_t>(
          g.flags & ~(kNodeMyself | kNodeMeet | kNodeHandshake | kNodePFail | kNodeFail)));
      added->ip = g.ip;
      added->port = g.port;
      added->pport = g.pport;
      added->cport = g.cport;
      added->ctime_ms = now;
      s.Todo(kSave);
    }
  }
}

}  // namespace rankd
