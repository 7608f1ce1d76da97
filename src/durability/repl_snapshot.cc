// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The snapshot a full sync sends: produced on the primary, loaded on the
// replica. rankd's own snapshot format (persist/snapshot.h), so only rankd
// replicas understand it; a file in `dir` carries it on both sides (Redis's
// disk-backed sync), written and read synchronously in the event loop.

#include <unistd.h>

#include <string>
#include <vector>

#include "base/logging.h"
#include "durability/persist_manager.h"
#include "server/replication.h"

namespace rankd {
namespace {

std::string ReplTempPath(const char* side) {
  return std::string("temp-repl-") + side + "-" + std::to_string(getpid()) + ".snap";
}

}  // namespace

Status PersistManager::MakeReplicaSnapshot(std::string* payload) {
  const std::string path = ReplTempPath("out");
  SnapshotWriteStats stats;
  std::vector<Database*> dbs;
  for (int i = 0; i < server_->db_count(); i++) dbs.push_back(&server_->db(i));
  SnapshotAux aux = MakeSnapshotAux();
  if (int db = server_->replication().stream_db(); db >= 0) {
    aux.emplace_back("repl-stream-db", std::to_string(db));
  }
  Status s = WriteSnapshot(env_, path, path + ".tmp", dbs, &stats, aux);
  if (s.ok()) s = ReadFileToString(env_, path, payload);
  (void)env_->RemoveFile(path);
  return s;
}

Status PersistManager::LoadReplicaSnapshot(std::string_view payload) {
  const std::string path = ReplTempPath("in");
  Status s = WriteFileAtomic(env_, path, payload);
  if (!s.ok()) return s;
  s = ReplaceDataSet(path);
  (void)env_->RemoveFile(path);
  if (!s.ok()) return s;
  // The append-only log must describe the new data set: start it afresh.
  if (log_) {
    bool scheduled = false;
    std::string err = BgRewrite(&scheduled);
    if (!err.empty()) LOG_WARNING("Can't rewrite the log after a full sync: %s", err.c_str());
  }
  return Status::OK();
}

}  // namespace rankd
