// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The snapshot a full sync sends: produced on the primary, loaded on the
// replica. rankd's own snapshot format (persist/snapshot.h), so only rankd
// replicas understand it; a file in `dir` carries it on both sides (Redis's
// disk-backed sync), written and read synchronously in the event loop.
// A redis-server primary's payload is Redis's RDB: loaded from memory with
// persist/rdb_reader.h (migration from Redis, docs/replication.md).

#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include <cinttypes>

#include "base/logging.h"
#include "base/numbers.h"
#include "durability/persist_manager.h"
#include "persist/rdb_reader.h"
#include "scripting/script_engine.h"
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

Status PersistManager::ReplaceDataSetFromRedisRdb(std::string_view rdb) {
  std::vector<std::unique_ptr<Database>> fresh;
  for (int i = 0; i < server_->db_count(); i++) fresh.push_back(std::make_unique<Database>(i));
  SnapshotLoadOptions opts = LoadOptions();
  opts.on_aux = [&](std::string_view key, std::string_view value) {
    int64_t db = 0;  // the database Redis's stream is in
    if (key == "repl-stream-db" && ParseInt64(value, &db) && db >= 0 &&
        db < server_->db_count()) {
      server_->replication().set_loaded_stream_db(static_cast<int>(db));
    }
    return Status::OK();
  };
  std::vector<std::string> libraries;  // loaded once the data loaded
  opts.on_function = [&](std::string_view code) {
    libraries.emplace_back(code);
    return Status::OK();
  };
  SnapshotLoadStats stats;
  Status s = LoadRedisRdb(
      rdb, [&](int i) { return i < static_cast<int>(fresh.size()) ? fresh[i].get() : nullptr; },
      opts, &stats);
  if (!s.ok()) return s;
  for (int i = 0; i < server_->db_count(); i++) server_->db(i).SwapContents(*fresh[i]);
  // As a Redis replica: the primary's function libraries replace ours.
  FunctionLibraries& functions = ScriptEngine::Of(*server_).functions();
  functions.Flush();
  for (const std::string& code : libraries) {
    std::string name, err = functions.Load(code, /*replace=*/true, &name);
    if (!err.empty()) LOG_WARNING("Can't load a function library from MASTER: %s", err.c_str());
  }
  last_load_keys_ = stats.keys_loaded;
  last_load_expired_ = stats.keys_expired;
  LOG_NOTICE("Done loading Redis RDB, keys loaded: %" PRIu64 ", keys expired: %" PRIu64 ".",
             stats.keys_loaded, stats.keys_expired);
  return Status::OK();
}

Status PersistManager::LoadReplicaSnapshot(std::string_view payload) {
  Status s;
  if (IsRedisRdb(payload)) {
    s = ReplaceDataSetFromRedisRdb(payload);
  } else {
    const std::string path = ReplTempPath("in");
    s = WriteFileAtomic(env_, path, payload);
    if (!s.ok()) return s;
    s = ReplaceDataSet(path);
    (void)env_->RemoveFile(path);
  }
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
