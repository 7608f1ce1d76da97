// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CLUSTER FAILOVER [FORCE|TAKEOVER], both sides, as Redis 7.0: the replica
// asks its master with MFSTART; the master pauses writes for twice the
// manual-failover timeout (lifted when the attempt ends) and keeps pinging that replica with the PAUSED
// flag and its offset; once the replica has applied that offset its
// election starts at once, forced (voters need not see the master failed).
// Either side abandons the attempt when the 5-second timeout passes.

#include "base/clock.h"
#include "base/logging.h"
#include "cluster/bus.h"
#include "cluster/cluster.h"
#include "cluster/failover.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr int64_t kManualTimeoutMs = 5000;

}  // namespace

std::string FailoverControl::StartManual(bool force, bool takeover) {
  ClusterState& s = cluster_.state();
  ClusterNode* me = s.myself();
  if (me->is_master()) return "ERR You should send CLUSTER FAILOVER to a replica";
  if (!me->primary) return "ERR I'm a replica but my master is unknown to me";
  if (!force && (me->primary->failed() || !me->primary->link)) {
    return "ERR Master is down or failed, please use CLUSTER FAILOVER FORCE";
  }
  ResetManual();
  mf_end_ms_ = WallMs() + kManualTimeoutMs;
  if (takeover) {
    // No election: a config epoch of our own, bumped without consensus
    // unless ours is already the unique highest.
    LOG_WARNING("Taking over the master (user request).");
    if (me->config_epoch == 0 || me->config_epoch != s.MaxConfigEpoch()) {
      s.current_epoch++;
      me->config_epoch = s.current_epoch;
      s.Todo(ClusterState::kTodoSaveConfig | ClusterState::kTodoFsyncConfig);
      LOG_WARNING("New configEpoch set to %llu",
                  static_cast<unsigned long long>(me->config_epoch));
    }
    ReplaceMyMaster();
  } else if (force) {
    LOG_WARNING("Forced failover user request accepted.");
    mf_can_start_ = true;
  } else {
    LOG_WARNING("Manual failover user request accepted.");
    cluster_.bus().SendTo(me->primary, kMsgMfStart);
  }
  return "";
}

void FailoverControl::OnMfStart(ClusterNode* sender) {
  ClusterNode* me = cluster_.state().myself();
  if (sender->primary != me) return;
  ResetManual();
  const int64_t now = WallMs();
  mf_end_ms_ = now + kManualTimeoutMs;
  mf_replica_id_ = sender->id;
  // Lifted by ResetManual: when myself turns replica, or at the timeout.
  cluster_.server().SetFailoverPause(true);
  LOG_NOTICE("Manual failover requested by replica %.40s.", sender->id.c_str());
  // The replica learns the offset with the PAUSED flag at once.
  cluster_.bus().SendTo(sender, kMsgPing);
}

void FailoverControl::OnHeader(ClusterNode* sender, const BusMsg& m) {
  ClusterNode* me = cluster_.state().myself();
  if (mf_end_ms_ && me->is_replica() && me->primary == sender &&
      (m.mflags0 & kMsgFlagPaused) && mf_master_offset_ == -1) {
    mf_master_offset_ = static_cast<int64_t>(m.offset);
    cluster_.state().Todo(ClusterState::kTodoHandleManualFailover);
    LOG_NOTICE("Received replication offset for paused master manual failover: %lld",
               static_cast<long long>(mf_master_offset_));
  }
}

void FailoverControl::HandleManual() {
  if (mf_end_ms_ == 0 || mf_can_start_ || mf_master_offset_ == -1) return;
  // Reached (or passed: a paused master's stream can still grow by the
  // replication PINGs, never by a write).
  if (cluster_.ReplOffset() >= static_cast<uint64_t>(mf_master_offset_)) {
    mf_can_start_ = true;
    LOG_NOTICE("All master replication stream processed, manual failover can start.");
    cluster_.state().Todo(ClusterState::kTodoHandleFailover);
  }
}

void FailoverControl::ResetManual() {
  if (!mf_replica_id_.empty()) cluster_.server().SetFailoverPause(false);
  mf_end_ms_ = 0;
  mf_can_start_ = false;
  mf_replica_id_.clear();
  mf_master_offset_ = -1;
}

bool FailoverControl::master_paused() const { return mf_end_ms_ != 0; }

ClusterNode* FailoverControl::mf_replica() const {
  return mf_replica_id_.empty() ? nullptr : cluster_.state().Find(mf_replica_id_);
}

void FailoverControl::Cron() {
  ClusterNode* me = cluster_.state().myself();
  if (mf_end_ms_ && mf_end_ms_ < WallMs()) {
    LOG_WARNING("Manual failover timed out.");
    ResetManual();
  }
  // A paused master keeps its replica informed of its offset.
  if (mf_end_ms_ && me->is_master()) {
    if (ClusterNode* r = mf_replica()) cluster_.bus().SendTo(r, kMsgPing);
  }
  if (!me->is_replica()) return;
  HandleManual();
  HandleElection();
  MigrateIfNeeded();
}

}  // namespace rankd
