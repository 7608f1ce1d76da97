// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The snapshot a full sync sends: produced on the primary by a fork()ed
// child (as BGSAVE: the event loop only forks), into a pipe the event loop
// forwards to the replicas (diskless) or a file in `dir` sent once complete
// (server/repl_fullsync.cc); loaded on the replica. rankd's own snapshot
// format (persist/snapshot.h), so only rankd replicas understand it.
// A redis-server primary's payload is Redis's RDB: loaded from memory with
// persist/rdb_reader.h (migration from Redis, docs/replication.md).

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <cinttypes>

#include "base/clock.h"
#include "base/logging.h"
#include "base/numbers.h"
#include "durability/persist_manager.h"
#include "persist/rdb_file.h"
#include "persist/rdb_reader.h"
#include "scripting/script_engine.h"
#include "server/replication.h"

namespace rankd {
namespace {

std::string ReplTempPath(const char* side) {
  return std::string("temp-repl-") + side + "-" + std::to_string(getpid()) + ".snap";
}

// The write end of a full sync's pipe, for the child (diskless sync).
class PipeFile : public WritableFile {
 public:
  explicit PipeFile(int fd) : fd_(fd) {}
  ~PipeFile() override { (void)Close(); }
  Status Append(std::string_view data) override {
    while (!data.empty()) {
      ssize_t n = write(fd_, data.data(), data.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Status::IOError("the replication pipe", strerror(errno));
      data.remove_prefix(static_cast<size_t>(n));
    }
    return Status::OK();
  }
  Status Sync() override { return Status::OK(); }
  Status Truncate(uint64_t) override { return Status::IOError("the replication pipe", "truncate"); }
  Status Close() override {
    if (fd_ >= 0 && close(fd_) != 0) {
      fd_ = -1;
      return Status::IOError("the replication pipe", strerror(errno));
    }
    fd_ = -1;
    return Status::OK();
  }

 private:
  int fd_;
};

}  // namespace

Status PersistManager::WriteReplicaRdb(const int* pipe_fds, const std::string& path,
                                       std::span<Database* const> dbs,
                                       SnapshotWriteStats* stats) {
  const Config& cfg = server_->config();
  const DumpOptions values{cfg.rdbcompression, cfg.list_max_listpack_size};
  if (pipe_fds) {
    close(pipe_fds[0]);
    PipeFile out(pipe_fds[1]);
    Status s = WriteRedisRdbStream(&out, dbs, MakeSnapshotAux(), values, stats);
    return s.ok() ? out.Close() : s;
  }
  std::unique_ptr<WritableFile> file;
  Status s = env_->NewWritableFile(path, &file);
  if (s.ok()) s = WriteRedisRdbStream(file.get(), dbs, MakeSnapshotAux(), values, stats);
  if (s.ok()) s = file->Close();
  return s;
}

std::string PersistManager::StartReplicaSnapshot(bool diskless, bool redis_rdb, int* fd,
                                                 std::string* path) {
  if (child_ != ChildKind::kNone) return "another child process is active";
  int pipe_fds[2] = {-1, -1};
  if (diskless) {
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) return std::string("pipe: ") + strerror(errno);
    (void)fcntl(pipe_fds[1], F_SETPIPE_SZ, 1 << 20);  // fewer wake-ups (best effort)
  }
  const std::string final_path = diskless ? "" : ReplTempPath("out");
  // REPLCONF rdb-filter-only: applied when every replica this snapshot
  // serves (those waiting for one, of this format) asked for it alike.
  std::optional<bool> filter;  // set: no keys; true: with the functions
  bool first = true, alike = true;
  for (const ReplicaInfo& r : server_->replication().replicas()) {
    if (r.sync != ReplicaInfo::Sync::kWaitStart || r.capa_rankd == redis_rdb) continue;
    std::optional<bool> mine;
    if (auto it = rdb_filters_.find(r.client_id); it != rdb_filters_.end()) {
      mine = it->second;
      rdb_filters_.erase(it);
    }
    alike &= first || mine == filter;
    if (first) filter = mine;
    first = false;
  }
  if (!alike || !redis_rdb) filter.reset();
  const int64_t start = MonoMs();
  pid_t pid = CountedFork();
  if (pid < 0) {
    const int err = errno;
    if (diskless) {
      close(pipe_fds[0]);
      close(pipe_fds[1]);
    }
    return std::string("fork: ") + strerror(err);
  }
  if (pid == 0) {
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    CloseSocketsInChild();
    std::vector<Database*> dbs;
    std::vector<std::unique_ptr<Database>> none;  // the filter's: no keys
    for (int i = 0; i < server_->db_count(); i++) {
      if (filter) none.push_back(std::make_unique<Database>(i));
      dbs.push_back(filter ? none.back().get() : &server_->db(i));
    }
    if (filter && !*filter) ScriptEngine::Of(*server_).functions().Flush();  // the child's copy
    SnapshotWriteStats stats;
    Status s;
    if (redis_rdb) {
      s = WriteReplicaRdb(diskless ? pipe_fds : nullptr, final_path, dbs, &stats);
    } else if (diskless) {
      close(pipe_fds[0]);
      PipeFile out(pipe_fds[1]);
      s = WriteSnapshotStream(&out, dbs, &stats, MakeSnapshotAux());
      if (s.ok()) s = out.Close();
    } else {
      s = WriteSnapshot(env_, final_path, final_path + ".tmp", dbs, &stats, MakeSnapshotAux());
    }
    if (!s.ok()) {
      LOG_WARNING("Write error saving DB for SYNC: %s", s.message().c_str());
      _exit(1);
    }
    _exit(0);
  }
  if (diskless) close(pipe_fds[1]);
  child_ = ChildKind::kReplica;
  child_pid_ = pid;
  child_tmp_ = diskless ? "" : final_path + ".tmp";
  child_final_ = final_path;
  child_start_ms_ = start;
  *fd = diskless ? pipe_fds[0] : -1;
  *path = final_path;
  LOG_NOTICE("Background RDB transfer started by pid %d", static_cast<int>(pid));
  return "";
}

Status PersistManager::ReplaceDataSetFromRedisRdb(std::string_view rdb, LazyFreer* old_freer) {
  std::vector<std::unique_ptr<Database>> fresh;
  for (int i = 0; i < server_->db_count(); i++) fresh.push_back(std::make_unique<Database>(i));
  SnapshotLoadOptions opts = LoadOptions();
  if (load_keep_alive_) {
    opts.progress = [this](uint64_t, uint64_t, uint64_t) { (*load_keep_alive_)(); };
  }
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
  for (int i = 0; i < server_->db_count(); i++) {
    server_->db(i).SwapContents(*fresh[i]);
    fresh[i]->Clear(old_freer);
  }
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

Status PersistManager::LoadReplicaSnapshot(const std::string& path,
                                           const std::function<void()>& keep_alive) {
  // replica-lazy-flush: the old data set goes to the lazy-free thread.
  LazyFreer* old_freer = server_->config().replica_lazy_flush ? &server_->lazy_free() : nullptr;
  load_keep_alive_ = &keep_alive;
  Status s;
  if (StartsWithRedisMagic(path)) {  // a redis-server primary's RDB
    std::string rdb;
    s = ReadFileToString(env_, path, &rdb);
    if (s.ok()) s = ReplaceDataSetFromRedisRdb(rdb, old_freer);
  } else {
    s = ReplaceDataSet(path, old_freer);
  }
  load_keep_alive_ = nullptr;
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
