// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "cluster/failover_rules.h"

#include <algorithm>

namespace rankd {

std::string VoteRefusal(const ClusterState& s, const ClusterNode& requester,
                        const VoteRequest& req, int64_t now_ms, int64_t node_timeout_ms) {
  const ClusterNode* me = s.myself();
  // Only masters that serve slots vote.
  if (me->is_replica() || me->slot_count == 0) return "not a voting master";
  if (req.current_epoch < s.current_epoch) {
    return "request epoch " + std::to_string(req.current_epoch) + " < my epoch " +
           std::to_string(s.current_epoch);
  }
  if (s.last_vote_epoch == s.current_epoch) {
    return "already voted for epoch " + std::to_string(s.current_epoch);
  }
  const ClusterNode* master = requester.primary;
  if (requester.is_master()) return "it is a master node";
  if (!master) return "I don't know its master";
  if (!master->failed() && !req.force) return "its master is up";
  if (now_ms - master->voted_time_ms < node_timeout_ms * 2) {
    return "can't vote about this master before " +
           std::to_string(node_timeout_ms * 2 - (now_ms - master->voted_time_ms)) +
           " milliseconds";
  }
  // Every claimed slot must be free or owned under a config epoch no newer
  // than the one the request carries: else the claim is stale.
  if (req.claimed) {
    for (int slot = 0; slot < kClusterSlots; slot++) {
      if (!req.claimed->test(slot)) continue;
      const ClusterNode* owner = s.owner(slot);
      if (!owner || owner->config_epoch <= req.config_epoch) continue;
      return "slot " + std::to_string(slot) + " epoch " + std::to_string(owner->config_epoch) +
             " > reqEpoch " + std::to_string(req.config_epoch);
    }
  }
  return "";
}

int ReplicaRank(const ClusterNode& me, uint64_t my_offset) {
  if (!me.primary) return 0;
  int rank = 0;
  for (const ClusterNode* r : me.primary->replicas) {
    if (r == &me || (r->flags & kNodeNoFailover)) continue;
    if (r->repl_offset > my_offset) rank++;
  }
  return rank;
}

int64_t ElectionDelayMs(int rank, uint64_t jitter) {
  return 500 + static_cast<int64_t>(jitter % 500) + static_cast<int64_t>(rank) * 1000;
}

int64_t AuthTimeoutMs(int64_t node_timeout_ms) {
  return std::max<int64_t>(node_timeout_ms * 2, 2000);
}

int64_t AuthRetryMs(int64_t node_timeout_ms) { return AuthTimeoutMs(node_timeout_ms) * 2; }

bool DataTooOld(int64_t data_age_ms, int64_t node_timeout_ms, int64_t validity_factor,
                int64_t ping_period_s) {
  if (data_age_ms > node_timeout_ms) data_age_ms -= node_timeout_ms;
  return validity_factor != 0 &&
         data_age_ms > ping_period_s * 1000 + node_timeout_ms * validity_factor;
}

}  // namespace rankd
