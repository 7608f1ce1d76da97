// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "cluster/cluster.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "base/clock.h"
#include "base/logging.h"
#include "cluster/bus.h"
#include "cluster/failover.h"
#include "cluster/nodes_conf.h"
#include "db/database.h"
#include "server/replication.h"

namespace rankd {
namespace {

constexpr int64_t kCronMs = 100;

void ScheduleCron(Cluster* c) {
  c->server().loop().AddTimer(kCronMs, [c] {
    c->bus().Cron();
    ScheduleCron(c);
  });
}

}  // namespace

Cluster::Cluster(Server& server)
    : server_(server),
      bus_(std::make_unique<ClusterBus>(*this)),
      failover_(std::make_unique<FailoverControl>(*this)) {}

Cluster::~Cluster() = default;

Cluster* Cluster::Of(Server& server) { return static_cast<Cluster*>(server.cluster()); }

std::string Cluster::ConfigPath() const { return settings().config_file(); }

Status Cluster::Start(Server& server) {
  auto cluster = std::make_unique<Cluster>(server);
  Cluster* c = cluster.get();
  server.db(0).EnableSlotIndex();  // routing: keys by slot (router.cc)
  ClusterState& s = c->state();
  const std::string path = c->ConfigPath();
  std::ifstream in(path, std::ios::binary);
  if (in) {
    std::stringstream text;
    text << in.rdbuf();
    const std::string why = ParseNodesConf(text.str(), &s);
    if (!why.empty()) {
      LOG_WARNING("Unrecoverable error: corrupted cluster config file.");
      return Status::InvalidArgument("corrupted cluster config file " + path + ": " + why);
    }
  }
  if (!s.myself()) {
    s.set_myself(s.AddNode("", kNodeMaster | kNodeMyself));
    LOG_NOTICE("No cluster configuration found, I'm %s", s.myself()->id.c_str());
  } else {
    LOG_NOTICE("Node configuration loaded, I'm %.40s", s.myself()->id.c_str());
  }
  c->RefreshMyself();
  const ClusterSettings settings = c->settings();
  Status st = c->bus().Listen(server.config().bind, settings.bus_port());
  if (!st.ok()) return st;
  server.loop().AddBeforeSleep([c] { c->BeforeSleep(); });
  ScheduleCron(c);
  server.set_cluster(std::move(cluster));
  s.Todo(ClusterState::kTodoUpdateState | ClusterState::kTodoSaveConfig);
  if (!c->SaveConfig()) return Status::InvalidArgument("cannot write " + path);
  return Status::OK();
}

void Cluster::BeforeSleep() {
  bus_->Reap();
  uint32_t todo = state_.TakeTodo();
  // A vote or the paused master's offset arrived: the election moves on
  // now rather than at the next cron.
  if (todo & (ClusterState::kTodoHandleFailover | ClusterState::kTodoHandleManualFailover)) {
    if (todo & ClusterState::kTodoHandleManualFailover) failover_->HandleManual();
    failover_->HandleElection();
    todo |= state_.TakeTodo() & ~(ClusterState::kTodoHandleFailover |
                                   ClusterState::kTodoHandleManualFailover);
  }
  if (todo & ClusterState::kTodoUpdateState) {
    UpdateState();
    AfterSlotChanges();  // router.cc
  }
  if (todo & ClusterState::kTodoSaveConfig) SaveConfig(todo & ClusterState::kTodoFsyncConfig);
}

// As Redis 7.0: fail when a slot has no owner or a failed one (under
// cluster-require-full-coverage), or when this node sees fewer than a
// majority of the slot-serving masters.
void Cluster::UpdateState() {
  constexpr int64_t kWritableDelayMs = 2000, kMinRejoinMs = 500, kMaxRejoinMs = 5000;
  const int64_t now = WallMs();
  if (first_update_ms_ == 0) first_update_ms_ = now;
  if (state_.myself()->is_master() && !state_.ok() && now - first_update_ms_ < kWritableDelayMs) {
    return;
  }
  bool ok = true;
  if (settings().require_full_coverage()) {
    for (int slot = 0; slot < kClusterSlots && ok; slot++) {
      const ClusterNode* n = state_.owner(slot);
      ok = n && !n->failed();
    }
  }
  int size = 0, unreachable = 0;
  for (const ClusterNode* n : state_.nodes()) {
    if (!n->is_master() || n->slot_count == 0) continue;
    size++;
    if (n->flags & (kNodeFail | kNodePFail)) unreachable++;
  }
  if (size - unreachable < size / 2 + 1) {
    ok = false;
    minority_since_ms_ = now;
  }
  if (ok == state_.ok()) return;
  const int64_t rejoin =
      std::clamp(settings().node_timeout_ms(), kMinRejoinMs, kMaxRejoinMs);
  if (ok && state_.myself()->is_master() && now - minority_since_ms_ < rejoin) return;
  LOG_WARNING("Cluster state changed: %s", ok ? "ok" : "fail");
  state_.set_ok(ok);
}

bool Cluster::SaveConfig(bool durable) {
  const std::string path = ConfigPath();
  const std::string tmp = path + ".tmp";
  const std::string text = FormatNodesConf(state_);
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  bool ok = fd >= 0;
  for (size_t off = 0; ok && off < text.size();) {
    const ssize_t w = write(fd, text.data() + off, text.size() - off);
    ok = w > 0;
    if (ok) off += static_cast<size_t>(w);
  }
  ok = ok && (!durable || fsync(fd) == 0);
  if (fd >= 0) close(fd);
  ok = ok && rename(tmp.c_str(), path.c_str()) == 0;
  if (!ok) LOG_WARNING("Could not save the cluster configuration %s: %s", path.c_str(),
                       strerror(errno));
  return ok;
}

bool Cluster::RefreshMyself() {
  const ClusterSettings st = settings();
  ClusterNode* me = state_.myself();
  bool changed = false;
  auto set = [&changed](auto& field, const auto& value) {
    if (field != value) {
      field = value;
      changed = true;
    }
  };
  set(me->port, st.announced_port());
  set(me->cport, st.announced_bus_port());
  set(me->hostname, st.announce_hostname());
  // A replica that may not fail over says so in its flags.
  const bool no_failover = me->is_replica() && st.replica_no_failover();
  set(me->flags, static_cast<uint16_t>(no_failover ? me->flags | kNodeNoFailover
                                                   : me->flags & ~kNodeNoFailover));
  if (std::string ip = st.announce_ip(); !ip.empty()) set(me->ip, ip);
  return changed;
}

uint64_t Cluster::ReplOffset() { return server_.replication().offset(); }

void Cluster::SetMyPrimary(ClusterNode* primary) {
  ClusterNode* me = state_.myself();
  failover_->ResetManual();
  if (primary) {
    for (int slot = 0; slot < kClusterSlots; slot++) {
      if (state_.owner(slot) == me) state_.SetOwner(slot, nullptr);
      state_.SetImporting(slot, nullptr);
      state_.SetMigrating(slot, nullptr);
    }
    me->flags = static_cast<uint16_t>((me->flags & ~kNodeMaster) | kNodeReplica);
    state_.SetPrimary(me, primary);
    if (!primary->ip.empty()) server_.replication().ReplicaOf(primary->ip, primary->port);
  } else {
    me->flags = static_cast<uint16_t>((me->flags & ~kNodeReplica) | kNodeMaster);
    state_.SetPrimary(me, nullptr);
    if (server_.replication().is_replica()) server_.replication().BecomePrimary();
  }
  state_.Todo(ClusterState::kTodoSaveConfig | ClusterState::kTodoUpdateState);
}

void Cluster::Reset(bool hard) {
  ClusterNode* me = state_.myself();
  if (me->is_replica()) {
    // A replica's data was its master's: a reset node starts empty (Redis).
    SetMyPrimary(nullptr);
    for (int i = 0; i < server_.db_count(); i++) server_.db(i).Clear(nullptr);
  }
  for (int slot = 0; slot < kClusterSlots; slot++) {
    state_.SetOwner(slot, nullptr);
    state_.SetImporting(slot, nullptr);
    state_.SetMigrating(slot, nullptr);
  }
  const std::vector<ClusterNode*> nodes = state_.nodes();
  for (ClusterNode* n : nodes) {
    if (n != me) bus_->DeleteNode(n);
  }
  if (hard) {
    state_.current_epoch = 0;
    state_.last_vote_epoch = 0;
    me->config_epoch = 0;
    const std::string id = ClusterState::NewNodeId();
    LOG_NOTICE("Node hard reset, now I'm %s", id.c_str());
    state_.RenameNode(me, id);
  }
  // Durable, as Redis: a hard reset's new id and zeroed epochs must not
  // come back after a crash.
  state_.Todo(ClusterState::kTodoSaveConfig | ClusterState::kTodoUpdateState |
              ClusterState::kTodoFsyncConfig);
}

}  // namespace rankd
