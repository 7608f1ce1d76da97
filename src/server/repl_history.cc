// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Replication history in snapshots: what a snapshot records (Redis's
// rdbPopulateSaveInfo) and what a restart makes of it (Redis 7.0's
// loadDataFromDisk), so a restarted replica continues with PSYNC and a
// restarted primary's replicas do too.
//
// The rule that keeps it exact: the offset stored is the one of the last
// stream byte whose effect is in the data written. A snapshot is taken
// between commands (SAVE, SHUTDOWN, or the fork of BGSAVE / a save point),
// and a replica counts its primary's bytes only once applied
// (repl_link.cc), so (data, replid, offset) in one file always agree; the
// durability layer uses it only when that file alone is the data set
// (persist_load.cc: never with an append-only log that holds more).

#include "base/logging.h"
#include "server/replication.h"
#include "server/server.h"

namespace rankd {

std::optional<Replication::History> Replication::SnapshotHistory() const {
  if (!is_replica()) {
    // A primary without a backlog has no replicas to continue: its next
    // replica starts a new history anyway.
    if (!backlog_) return std::nullopt;
    // last_db_ -1: the stream's next write SELECTs, so any database does.
    return History{replid_, offset_, last_db_ < 0 ? 0 : last_db_};
  }
  // A replica offers its primary's history (after a sync, or its own after
  // REPLICAOF at run time: Redis's cached master); one configured with
  // replicaof that never synced has none.
  if (!own_history_) return std::nullopt;
  return History{replid_, offset_, master_client_ ? master_client_->db_index : 0};
}

void Replication::RestoreHistory(const History& h, bool as_replica) {
  restored_history_ = true;
  if (as_replica) {
    replid_ = h.replid;
    offset_ = h.offset;
    own_history_ = true;
    EnsureMasterClient(h.stream_db);
    LOG_NOTICE("Replication history restored: replid %s, offset %llu (PSYNC will offer it)",
               replid_.c_str(), static_cast<unsigned long long>(offset_));
    return;
  }
  // A primary: a new history that continues the old one (PSYNC2), with a
  // backlog from the next byte, so replicas at exactly h.offset continue.
  replid2_ = h.replid;
  second_offset_ = static_cast<int64_t>(h.offset) + 1;
  offset_ = h.offset;
  replid_ = RandomReplid();
  last_db_ = -1;
  CreateBacklog();
  LOG_NOTICE("Replication history restored: replid2 %s up to offset %llu, new replid %s",
             replid2_.c_str(), static_cast<unsigned long long>(h.offset), replid_.c_str());
}

}  // namespace rankd
