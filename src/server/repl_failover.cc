// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// FAILOVER, Redis 7.0's coordinated hand-over of the primary role to a
// replica, both sides (the contract is in replication.h). While it runs,
// writes are paused (Server::SetFailoverPause), so the stream stops growing
// and a replica can catch up; the primary does not PING its replicas then,
// as the PINGs would move the offset they must reach.

#include "base/clock.h"
#include "base/logging.h"
#include "server/replication.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr int64_t kCheckEveryMs = 100;

}  // namespace

std::string_view Replication::failover_state_name() const {
  switch (failover_state_) {
    case FailoverState::kNone:
      return "no-failover";
    case FailoverState::kWaitForSync:
      return "waiting-for-sync";
    case FailoverState::kInProgress:
      return "failover-in-progress";
  }
  return "no-failover";
}

std::string Replication::StartFailover(const FailoverRequest& req) {
  // The checks in Redis 7.0's order, so the same request gets the same error.
  if (is_replica()) return "ERR FAILOVER is not valid when server is a replica.";
  if (replicas_.empty()) return "ERR FAILOVER requires connected replicas.";
  if (req.force && (req.timeout_ms == 0 || req.host.empty())) {
    return "ERR FAILOVER with force option requires both a timeout and target HOST and IP.";
  }
  if (failover_state_ != FailoverState::kNone) return "ERR FAILOVER already in progress.";
  if (!req.host.empty()) {
    const ReplicaInfo* target = nullptr;
    for (const ReplicaInfo& r : replicas_) {
      if (r.ip == req.host && r.port == req.port) target = &r;
    }
    if (!target) return "ERR FAILOVER target HOST and PORT is not a replica.";
    if (target->sync != ReplicaInfo::Sync::kOnline) {
      return "ERR FAILOVER target replica is not online.";
    }
  }
  failover_ = req;
  failover_state_ = FailoverState::kWaitForSync;
  failover_end_ms_ = req.timeout_ms > 0 ? MonoMs() + req.timeout_ms : 0;
  if (req.host.empty()) {
    LOG_NOTICE("FAILOVER requested to any replica.");
  } else {
    LOG_NOTICE("FAILOVER requested to %s:%lld.", req.host.c_str(),
               static_cast<long long>(req.port));
  }
  server_->SetFailoverPause(true);
  RequestAcks();  // replicas report their offsets now rather than within a second
  UpdateFailover();  // arms the check timer
  return "";
}

std::string Replication::AbortFailoverCommand() {
  if (failover_state_ == FailoverState::kNone) return "ERR No failover in progress.";
  EndFailover("Failover manually aborted");
  return "";
}

void Replication::UpdateFailover() {
  if (failover_state_ != FailoverState::kWaitForSync) return;
  const ReplicaInfo* synced = nullptr;
  for (const ReplicaInfo& r : replicas_) {
    if (r.sync != ReplicaInfo::Sync::kOnline || r.ack_offset != offset_) continue;
    if (!failover_.host.empty() && (r.ip != failover_.host || r.port != failover_.port)) continue;
    synced = &r;
    break;
  }
  if (synced) {
    failover_.host = synced->ip;
    failover_.port = synced->port;
    LOG_NOTICE("Failover target %s:%lld is synced, failing over.", failover_.host.c_str(),
               static_cast<long long>(failover_.port));
  } else if (failover_end_ms_ != 0 && MonoMs() >= failover_end_ms_) {
    if (!failover_.force) return EndFailover("Replica never caught up before timeout");
    LOG_NOTICE("FAILOVER to %s:%lld time out exceeded, failing over.", failover_.host.c_str(),
               static_cast<long long>(failover_.port));
  } else {
    if (failover_timer_ == 0) {  // look again soon (ACKs also call in)
      failover_timer_ = server_->loop().AddTimer(kCheckEveryMs, [this] {
        failover_timer_ = 0;
        UpdateFailover();
      });
    }
    return;
  }
  // Demote ourselves first, so there is never a moment with two primaries;
  // the handshake's PSYNC carries FAILOVER (repl_link.cc).
  failover_state_ = FailoverState::kInProgress;
  const std::string host = failover_.host;
  ReplicaOf(host, failover_.port, /*own_history=*/true);
}

void Replication::FailoverPsyncReply(bool ok) {
  if (ok) {
    LOG_NOTICE("Failover target %s:%lld accepted the PSYNC FAILOVER request.",
               failover_.host.c_str(), static_cast<long long>(failover_.port));
    return EndFailover("");
  }
  EndFailover("Failover target rejected psync request");
}

void Replication::EndFailover(std::string_view reason) {
  if (failover_state_ == FailoverState::kNone) return;
  const bool demoted = failover_state_ == FailoverState::kInProgress;
  failover_state_ = FailoverState::kNone;
  failover_end_ms_ = 0;
  if (failover_timer_ != 0) server_->loop().CancelTimer(failover_timer_);
  failover_timer_ = 0;
  if (!reason.empty()) {
    LOG_WARNING("FAILOVER aborted: %s", std::string(reason).c_str());
    if (demoted) BecomePrimary("failover aborted");
  }
  server_->SetFailoverPause(false);
}

std::string Replication::AcceptFailover(std::string_view replid, std::string_view who) {
  if (!is_replica()) return "ERR PSYNC FAILOVER can't be sent to a master.";
  if (replid != replid_) return "ERR PSYNC FAILOVER replid must match my replid.";
  BecomePrimary("failover request from '" + std::string(who) + "'");
  return "";
}

}  // namespace rankd
