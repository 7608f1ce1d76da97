// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// FailoverControl: high availability as Redis 7.0's cluster does it.
//
// Masters vote (election.cc): a FAILOVER_AUTH_REQUEST that passes
// failover_rules.h's VoteRefusal gets a FAILOVER_AUTH_ACK, and the vote is
// recorded (lastVoteEpoch, saved to nodes.conf with fsync, and the failed
// master's vote time) before the ACK leaves.
//
// Replicas run elections (election.cc): once their master is FAIL (or a
// manual failover may start), a replica waits ElectionDelayMs by its rank,
// bumps currentEpoch, broadcasts the request and counts ACKs from masters
// with slots; a majority of those masters makes it the master (configEpoch
// set to the election's epoch, replication stopped with the data kept, the
// old master's slots taken, a PONG to every node). An attempt expires after
// AuthTimeoutMs and is retried after AuthRetryMs.
//
// CLUSTER FAILOVER (manual_failover.cc): the replica sends MFSTART; its
// master pauses writes and pings the replica with the PAUSED flag and its
// final offset; the replica waits to have applied that offset, then runs a
// forced election. FORCE skips the master's part, TAKEOVER the election
// (a new config epoch without consensus). Either side gives up after 5 s.
//
// Replica migration (replica_migration.cc): with cluster-allow-replica-
// migration, a replica of the master with the most working replicas moves
// to an orphaned master (one that had replicas and has none working left),
// keeping cluster-migration-barrier replicas behind.
//
// One thread (the event loop). Not thread-safe.

#pragma once

#include <cstdint>
#include <string>

#include "cluster/bus_msg.h"
#include "cluster/cluster_state.h"

namespace rankd {

class Cluster;

class FailoverControl {
 public:
  explicit FailoverControl(Cluster& cluster) : cluster_(cluster) {}
  FailoverControl(const FailoverControl&) = delete;
  FailoverControl& operator=(const FailoverControl&) = delete;

  // --- election.cc ---
  // A FAILOVER_AUTH_REQUEST from `sender` (a known node): votes when the
  // rules allow.
  void OnAuthRequest(ClusterNode* sender, const BusMsg& m);
  // A FAILOVER_AUTH_ACK: counts when it comes from a master with slots for
  // the current election.
  void OnAuthAck(ClusterNode* sender, const BusMsg& m);
  // The replica's election step (cron and before-sleep); no-op on a master
  // or while no failover is due.
  void HandleElection();
  // Promotion: myself (a replica) becomes the master of its master's slots.
  void ReplaceMyMaster();

  // --- manual_failover.cc ---
  // CLUSTER FAILOVER [FORCE|TAKEOVER] on myself: "" (OK) or Redis's error.
  std::string StartManual(bool force, bool takeover);
  // MFSTART from `sender`, a replica of myself: writes pause, the replica
  // gets pings with the PAUSED flag.
  void OnMfStart(ClusterNode* sender);
  // Every received header (after the sender's offset was noted): the
  // paused master's offset, when myself waits for it.
  void OnHeader(ClusterNode* sender, const BusMsg& m);
  // The replica's manual-failover step: may the election start yet?
  void HandleManual();
  // Ends any manual failover (either side); resumes paused writes.
  void ResetManual();
  // Whether headers carry the PAUSED flag (myself is a master in a manual
  // failover).
  bool master_paused() const;
  // The replica a paused master keeps pinging, or null.
  ClusterNode* mf_replica() const;
  // A manual failover is going on (either side).
  bool manual_in_progress() const { return mf_end_ms_ != 0; }

  // --- replica_migration.cc ---
  // Cron: a replica moves to an orphaned master when Redis's rules pick it.
  void MigrateIfNeeded();

  // Every 100 ms (the bus cron): manual failover timeout, then on a
  // replica the manual failover, the election and replica migration.
  void Cron();

 private:
  // Logs why the election cannot go on, at most every 10 s per reason
  // and not in the first moments after the master failed.
  void LogCantFailover(int reason, const char* text);
  // How old this replica's data is (ms), as Redis measures it.
  int64_t DataAgeMs();

  Cluster& cluster_;
  // Election (replica side).
  int64_t auth_time_ms_ = 0;   // when the election starts / started
  int auth_count_ = 0;         // ACKs received
  bool auth_sent_ = false;     // the request went out
  int auth_rank_ = 0;
  uint64_t auth_epoch_ = 0;    // the election's epoch
  int cant_reason_ = 0;
  int64_t cant_logged_ms_ = 0;
  // Manual failover (both sides).
  int64_t mf_end_ms_ = 0;      // deadline; 0: none
  bool mf_can_start_ = false;  // replica: the election may start
  std::string mf_replica_id_;  // master: the replica it is paused for
  int64_t mf_master_offset_ = -1;  // replica: the paused master's offset
};

}  // namespace rankd
