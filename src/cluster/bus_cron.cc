// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The bus's 100 ms cron, with Redis 7.0's rhythm: drop handshakes that did
// not finish in time, connect to nodes without a link, once a second ping
// the node with the oldest pong among a few random ones, ping every node not
// heard from for half the node timeout, reconnect links that went quiet, and
// mark nodes that did not answer a ping within the node timeout PFAIL.

#include <random>

#include "absl/container/flat_hash_map.h"

#include "base/clock.h"
#include "base/logging.h"
#include "cluster/bus.h"
#include "cluster/cluster.h"
#include "cluster/failover.h"

namespace rankd {

void ClusterBus::Cron() {
  ClusterState& s = cluster_.state();
  const int64_t now = WallMs();
  const int64_t timeout = cluster_.settings().node_timeout_ms();
  const int64_t handshake_timeout = std::max<int64_t>(timeout, 1000);
  iteration_++;
  if (cluster_.RefreshMyself()) s.Todo(ClusterState::kTodoSaveConfig);
  const std::vector<ClusterNode*> nodes = s.nodes();  // a copy: may delete
  for (ClusterNode* n : nodes) {
    if (n->is_myself() || (n->flags & kNodeNoAddr)) continue;
    if (n->in_handshake() && now - n->ctime_ms > handshake_timeout) {
      DeleteNode(n);
      continue;
    }
    if (!n->link && !Connect(n) && n->ping_sent_ms == 0) n->ping_sent_ms = now;
  }
  if (iteration_ % 10 == 0) PingOldest();
  FreeLinksOverLimit(static_cast<size_t>(cluster_.settings().link_sendbuf_limit()));
  for (ClusterNode* n : s.nodes()) {
    if (n->is_myself() || (n->flags & kNodeNoAddr) || n->in_handshake()) continue;
    CheckNode(n, now);
  }
  // A replica keeps replicating from its primary's current address.
  ClusterNode* me = s.myself();
  if (me->is_replica() && me->primary && !me->primary->ip.empty()) {
    Replication& r = cluster_.server().replication();
    if (r.master_host() != me->primary->ip || r.master_port() != me->primary->port) {
      r.ReplicaOf(me->primary->ip, me->primary->port);
    }
  }
  cluster_.failover().Cron();
  s.Todo(ClusterState::kTodoUpdateState);
}

void ClusterBus::PingOldest() {
  static std::mt19937 rng{std::random_device{}()};
  const auto& nodes = cluster_.state().nodes();
  ClusterNode* oldest = nullptr;
  for (int i = 0; i < 5 && !nodes.empty(); i++) {
    ClusterNode* n = nodes[rng() % nodes.size()];
    if (!n->link || n->link->connecting || n->ping_sent_ms != 0 || n->is_myself() ||
        n->in_handshake()) {
      continue;
    }
    if (!oldest || n->pong_received_ms < oldest->pong_received_ms) oldest = n;
  }
  if (oldest) SendPing(oldest->link, kMsgPing);
}

void ClusterBus::CheckNode(ClusterNode* n, int64_t now) {
  const int64_t timeout = cluster_.settings().node_timeout_ms();
  ClusterLink* link = n->link;
  // A link up for long whose ping is unanswered past half the timeout, with
  // nothing else heard either: reconnect (the old link may be stuck).
  if (link && !link->connecting && now - link->ctime_ms > timeout && n->ping_sent_ms &&
      now - n->ping_sent_ms > timeout / 2 && now - n->data_received_ms > timeout / 2) {
    FreeLink(link);
    link = nullptr;
  }
  if (link && !link->connecting && n->ping_sent_ms == 0 &&
      now - n->pong_received_ms > timeout / 2) {
    SendPing(link, kMsgPing);
    return;
  }
  if (n->ping_sent_ms && now - n->ping_sent_ms > timeout &&
      !(n->flags & (kNodePFail | kNodeFail))) {
    LOG_VERBOSE("*** NODE %s possibly failing", n->id.c_str());
    n->flags |= kNodePFail;
    cluster_.state().Todo(ClusterState::kTodoUpdateState);
  }
}

void ClusterBus::MarkFailingIfNeeded(ClusterNode* n) {
  ClusterState& s = cluster_.state();
  if (!(n->flags & kNodePFail) || n->failed()) return;
  const int64_t now = WallMs();
  const int64_t validity = cluster_.settings().node_timeout_ms() * 2;
  absl::erase_if(n->fail_reports, [&](const auto& r) { return now - r.second > validity; });
  int failures = static_cast<int>(n->fail_reports.size());
  if (s.myself()->is_master()) failures++;
  if (failures < s.SizedMasters() / 2 + 1) return;
  LOG_NOTICE("Marking node %s as failing (quorum reached).", n->id.c_str());
  n->flags = static_cast<uint16_t>((n->flags | kNodeFail) & ~kNodePFail);
  n->fail_time_ms = now;
  BusMsg m = Header(kMsgFail);
  m.node = n->id;
  Broadcast(m);
  s.Todo(ClusterState::kTodoSaveConfig | ClusterState::kTodoUpdateState);
}

void ClusterBus::ClearFailureIfNeeded(ClusterNode* n) {
  const int64_t now = WallMs();
  if (n->is_replica() || n->slot_count == 0 ||
      now - n->fail_time_ms > cluster_.settings().node_timeout_ms() * 2) {
    LOG_NOTICE("Clear FAIL state for node %s: it is reachable again.", n->id.c_str());
    n->flags &= ~kNodeFail;
    cluster_.state().Todo(ClusterState::kTodoSaveConfig | ClusterState::kTodoUpdateState);
  }
}

}  // namespace rankd
