// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The rules of Redis 7.0's replica elections as pure functions of the
// cluster state, so the GoogleTests pin them down without sockets:
//  - whether a master grants its vote to a replica's FAILOVER_AUTH_REQUEST
//    (one vote per epoch, a master's replicas not voted for again within
//    twice the node timeout, no stale claims, the master must be failed
//    unless the request is forced by a manual failover);
//  - a replica's rank among its master's replicas (by replication offset)
//    and the delay before it asks for votes;
//  - the election's timeouts, and the data-age check of
//    cluster-replica-validity-factor.
// The stateful parts (sending, counting, promotion) are failover.h's.

#pragma once

#include <cstdint>
#include <string>

#include "cluster/cluster_state.h"

namespace rankd {

// A FAILOVER_AUTH_REQUEST as the voter sees it: the header of the
// requester (a replica), which carries its master's slots and config epoch.
struct VoteRequest {
  uint64_t current_epoch = 0;  // the request's epoch
  uint64_t config_epoch = 0;   // the requester's master's config epoch
  const SlotBits* claimed = nullptr;  // the slots it asks to take over
  bool force = false;          // mflags FORCEACK: a manual failover
};

// Why myself (as `s` knows it) refuses its vote to `requester`, or "" when
// the vote is granted. `now_ms` is wall-clock time, `node_timeout_ms` the
// cluster-node-timeout. Does not change `s` (the caller records the vote:
// last_vote_epoch and the master's voted_time_ms).
std::string VoteRefusal(const ClusterState& s, const ClusterNode& requester,
                        const VoteRequest& req, int64_t now_ms, int64_t node_timeout_ms);

// How many other replicas of myself's master (not flagged nofailover) have a
// larger replication offset than `my_offset`: 0 is the best replica.
int ReplicaRank(const ClusterNode& me, uint64_t my_offset);

// The wait before a replica of rank `rank` asks for votes: 500 ms, plus
// `jitter` % 500 ms, plus a second per rank.
int64_t ElectionDelayMs(int rank, uint64_t jitter);

// An election's lifetime: after `AuthTimeoutMs` without a majority the
// attempt has expired; a new one starts only `AuthRetryMs` after the last.
int64_t AuthTimeoutMs(int64_t node_timeout_ms);
int64_t AuthRetryMs(int64_t node_timeout_ms);

// Whether a replica whose data is `data_age_ms` old (since the last
// interaction with its master, less one node timeout when larger) is too
// old to fail over automatically under `validity_factor` (0: never too old).
bool DataTooOld(int64_t data_age_ms, int64_t node_timeout_ms, int64_t validity_factor,
                int64_t ping_period_s);

}  // namespace rankd
