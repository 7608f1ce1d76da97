// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Elections, both sides: a master's vote (FAILOVER_AUTH_REQUEST -> ACK) and
// a replica's campaign (delay by rank, request, count ACKs, promotion), in
// Redis 7.0's steps and timings (failover_rules.h holds the rules).

#include <random>

#include "base/clock.h"
#include "base/logging.h"
#include "cluster/bus.h"
#include "cluster/cluster.h"
#include "cluster/failover.h"
#include "cluster/failover_rules.h"
#include "server/replication.h"

namespace rankd {
namespace {

enum CantFailover { kCantNone, kCantDataAge, kCantWaitingDelay, kCantExpired, kCantWaitingVotes };

uint64_t Jitter() {
  static std::mt19937_64 rng{std::random_device{}()};
  return rng();
}

}  // namespace

void FailoverControl::OnAuthRequest(ClusterNode* sender, const BusMsg& m) {
  ClusterState& s = cluster_.state();
  const int64_t now = WallMs();
  VoteRequest req;
  req.current_epoch = m.current_epoch;
  req.config_epoch = m.config_epoch;
  req.claimed = &m.slots;
  req.force = m.mflags0 & kMsgFlagForceAck;
  const std::string why =
      VoteRefusal(s, *sender, req, now, cluster_.settings().node_timeout_ms());
  if (!why.empty()) {
    if (s.myself()->is_master() && s.myself()->slot_count > 0) {
      LOG_NOTICE("Failover auth denied to %.40s: %s", sender->id.c_str(), why.c_str());
    }
    return;
  }
  // The vote is durable before it is given: a restarted master must not
  // vote twice in one epoch.
  s.last_vote_epoch = s.current_epoch;
  sender->primary->voted_time_ms = now;
  cluster_.SaveConfig();  // durable; before the ack, which Send writes at once
  cluster_.bus().SendTo(sender, kMsgAuthAck);
  LOG_NOTICE("Failover auth granted to %.40s for epoch %llu", sender->id.c_str(),
             static_cast<unsigned long long>(s.current_epoch));
}

void FailoverControl::OnAuthAck(ClusterNode* sender, const BusMsg& m) {
  if (sender->is_master() && sender->slot_count > 0 && m.current_epoch >= auth_epoch_) {
    auth_count_++;
    cluster_.state().Todo(ClusterState::kTodoHandleFailover);
  }
}

int64_t FailoverControl::DataAgeMs() {
  const Replication& r = cluster_.server().replication();
  const int64_t secs = r.link_up() ? r.last_io_seconds_ago() : r.link_down_seconds();
  // Never connected: as old as it gets.
  return secs < 0 ? INT64_MAX / 4 : secs * 1000;
}

void FailoverControl::LogCantFailover(int reason, const char* text) {
  const int64_t now = WallMs();
  if (reason == cant_reason_ && now - cant_logged_ms_ < 10000) return;
  cant_reason_ = reason;
  const ClusterNode* master = cluster_.state().myself()->primary;
  const int64_t quiet = cluster_.settings().node_timeout_ms() + 5000;
  if (master && master->failed() && now - master->fail_time_ms < quiet) return;
  cant_logged_ms_ = now;
  LOG_NOTICE("Currently unable to failover: %s", text);
}

void FailoverControl::HandleElection() {
  ClusterState& s = cluster_.state();
  const ClusterSettings settings = cluster_.settings();
  ClusterNode* me = s.myself();
  const int64_t now = WallMs();
  const int64_t timeout = settings.node_timeout_ms();
  const int64_t auth_age = now - auth_time_ms_;
  const int needed = s.SizedMasters() / 2 + 1;
  const bool manual = mf_end_ms_ != 0 && mf_can_start_;
  ClusterNode* master = me->primary;
  if (me->is_master() || !master || (!master->failed() && !manual) ||
      (settings.replica_no_failover() && !manual) || master->slot_count == 0) {
    cant_reason_ = kCantNone;
    return;
  }
  if (!manual && DataTooOld(DataAgeMs(), timeout, settings.replica_validity_factor(),
                            cluster_.server().config().repl_ping_replica_period)) {
    LogCantFailover(kCantDataAge,
                    "Disconnected from master for longer than allowed. Please check the "
                    "'cluster-replica-validity-factor' configuration option.");
    return;
  }
  const uint64_t my_offset = cluster_.ReplOffset();
  if (auth_age > AuthRetryMs(timeout)) {
    // A new attempt: wait for the delay our rank earns.
    auth_count_ = 0;
    auth_sent_ = false;
    auth_rank_ = ReplicaRank(*me, my_offset);
    auth_time_ms_ = now + ElectionDelayMs(auth_rank_, Jitter());
    if (mf_end_ms_) {
      auth_time_ms_ = now;
      auth_rank_ = 0;
      s.Todo(ClusterState::kTodoHandleFailover);
    }
    LOG_NOTICE("Start of election delayed for %lld milliseconds (rank #%d, offset %llu).",
               static_cast<long long>(auth_time_ms_ - now), auth_rank_,
               static_cast<unsigned long long>(my_offset));
    // The other replicas learn our offset now, for their own rank.
    cluster_.bus().BroadcastPong(true);
    return;
  }
  if (!auth_sent_ && mf_end_ms_ == 0) {
    const int rank = ReplicaRank(*me, my_offset);
    if (rank > auth_rank_) {
      const int64_t added = static_cast<int64_t>(rank - auth_rank_) * 1000;
      auth_time_ms_ += added;
      auth_rank_ = rank;
      LOG_NOTICE("Replica rank updated to #%d, added %lld milliseconds of delay.", rank,
                 static_cast<long long>(added));
    }
  }
  if (now < auth_time_ms_) {
    LogCantFailover(kCantWaitingDelay, "Waiting the delay before I can start a new failover.");
    return;
  }
  if (auth_age > AuthTimeoutMs(timeout)) {
    LogCantFailover(kCantExpired, "Failover attempt expired.");
    return;
  }
  if (!auth_sent_) {
    s.current_epoch++;
    auth_epoch_ = s.current_epoch;
    LOG_NOTICE("Starting a failover election for epoch %llu.",
               static_cast<unsigned long long>(auth_epoch_));
    cluster_.bus().BroadcastAuthRequest(mf_end_ms_ != 0);
    auth_sent_ = true;
    s.Todo(ClusterState::kTodoSaveConfig | ClusterState::kTodoUpdateState |
           ClusterState::kTodoFsyncConfig);
    return;
  }
  if (auth_count_ < needed) {
    LogCantFailover(kCantWaitingVotes, "Waiting for votes, but majority still not reached.");
    return;
  }
  LOG_NOTICE("Failover election won: I'm the new master.");
  if (me->config_epoch < auth_epoch_) {
    me->config_epoch = auth_epoch_;
    LOG_NOTICE("configEpoch set to %llu after successful failover",
               static_cast<unsigned long long>(auth_epoch_));
  }
  ReplaceMyMaster();
}

void FailoverControl::ReplaceMyMaster() {
  ClusterState& s = cluster_.state();
  ClusterNode* me = s.myself();
  ClusterNode* old = me->primary;
  if (me->is_master() || !old) return;
  // Stop replicating, keep the data (a new replication history continues
  // the old one: the old master's replicas resync partially).
  cluster_.SetMyPrimary(nullptr);
  for (int slot = 0; slot < kClusterSlots; slot++) {
    if (s.owner(slot) == old) s.SetOwner(slot, me);
  }
  cluster_.UpdateState();
  cluster_.SaveConfig();
  cluster_.bus().BroadcastPong();
  ResetManual();
}

}  // namespace rankd
