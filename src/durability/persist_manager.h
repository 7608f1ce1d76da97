// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// PersistManager ties persistence (src/persist) to the Server: it loads the
// data set at start-up, is the Server's EffectLog (every write's effect goes
// to the append-only log, fsynced per event-loop batch under `appendfsync
// always` before any reply of the batch is written), runs snapshots and log
// rewrites in fork()ed children, applies save points and automatic
// rewrites, and refuses writes with Redis's MISCONF errors while the disk
// fails. One per Server, created by main(); commands find it with Of().
//
// Files, relative to `dir` (the process's working directory):
//   <dbfilename>                      snapshot (SAVE, BGSAVE, save points):
//                                     a Redis RDB (persist/rdb_file.h)
//   <appenddirname>/<appendfilename>.manifest, .N.base.rdb, .M.incr.aof
//                                     the append-only log (persist/manifest.h)
// Loading: with appendonly yes and a manifest, base + incremental logs;
// otherwise the snapshot if present. Turning appendonly on (at start-up or by
// CONFIG SET) with no manifest writes a first base from the data in memory.
//
// Children: at most one at a time (BGSAVE or rewrite). A rewrite switches
// effects to a new incremental log at the moment it forks, so nothing that
// arrives during the rewrite is lost (no rewrite buffer is needed); the
// manifest names the new base only after the child succeeded.
// Not thread-safe: the server thread only.

#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "durability/child_info.h"
#include "persist/append_log.h"
#include "persist/env.h"
#include "persist/manifest.h"
#include "persist/snapshot.h"
#include "server/replication.h"
#include "server/server.h"

namespace rankd {

class ScriptEngine;

// In a fork()ed child: closes its copies of the server's sockets, so the
// listening port is free at once if the parent dies while the child writes.
void CloseSocketsInChild();

class PersistManager : public EffectLog {
 public:
  // `env` must outlive the manager (Env::Default() in production).
  PersistManager(Server* server, Env* env);
  ~PersistManager() override;
  PersistManager(const PersistManager&) = delete;
  PersistManager& operator=(const PersistManager&) = delete;

  // The manager of `server`, or nullptr when it has none (unit tests).
  static PersistManager* Of(Server& server);

  // Start-up: loads the data set, opens (or creates) the log, installs the
  // effect log and write gate, starts the cron. Call before Server::Run().
  // An error (corrupt file, unreadable directory) must stop start-up; its
  // message names the file and offset.
  Status Start();

  // Shutdown: refuses (unless `force`) while the first rewrite of a log
  // turned on at run time runs; stops a running child, flushes and fsyncs the log, and writes
  // a snapshot when `save` (save points configured, or SHUTDOWN SAVE).
  // An error means the server should not exit (logged: "can't exit"), unless
  // `force` (SHUTDOWN FORCE), which only changes the log line.
  Status Shutdown(bool save, bool force);

  // --- EffectLog ---
  void Append(int db, std::span<const std::string_view> args) override;
  void BeforeFlush() override;

  // --- Commands ---
  // SAVE: a snapshot written synchronously.
  Status Save();
  // BGSAVE [SCHEDULE]: "" when started (or scheduled), else the error text.
  std::string BgSave(bool schedule, bool* scheduled);
  // BGREWRITEAOF: "" when started (or scheduled), else the error text.
  // What can be known up front (a rewrite running, a log directory that
  // cannot be created or written) is refused here; what fails later (fork,
  // the child's write, the manifest) shows in INFO persistence
  // (aof_last_bgrewrite_status:err) and the log, as Redis.
  // Inside MULTI/EXEC (`in_exec`) it is scheduled for the cron, as Redis.
  std::string BgRewrite(bool* scheduled, bool in_exec = false);
  // CONFIG SET ran inside MULTI/EXEC: turning the log on then waits for
  // the cron (Redis schedules its rewrite).
  void NoteConfigSetInExec() { config_set_in_exec_ = true; }
  // DEBUG RELOAD [NOSAVE]: save (unless nosave), then replace the data set
  // with the snapshot's, atomically (loaded aside, then swapped in).
  // DEBUG RELOAD: `save` first writes the snapshot; `flush` replaces the
  // data set, else the file loads over it (NOFLUSH: a key or function
  // library already present is an error, or replaced with `merge`).
  Status DebugReload(bool save, bool flush = true, bool merge = false);
  // DEBUG LOADAOF: flush the log, then reload the data set from it.
  Status DebugLoadLog();
  // LASTSAVE: unix seconds of the last successful snapshot (or start).
  int64_t lastsave() const { return lastsave_s_; }

  // Replication (repl_snapshot.cc): forks the child that writes a full
  // sync's snapshot (Replication::start_snapshot), and replaces the data set
  // with a received snapshot's.
  std::string StartReplicaSnapshot(bool diskless, bool redis_rdb, int* fd, std::string* path);
  // The file at `path` holds the snapshot a primary sent; one starting with
  // "REDIS" is a redis-server primary's RDB (persist/rdb_reader.h: migration
  // from Redis), read whole into memory; rankd's own format is read from the
  // file as it loads. `keep_alive` is called with each progress report.
  Status LoadReplicaSnapshot(const std::string& path, const std::function<void()>& keep_alive);
  // REPLCONF rdb-filter-only (redis-cli --functions-rdb): the full sync of
  // client `client_id` carries no keys, and its function libraries only
  // when `functions`. Applied when every replica a snapshot serves asked
  // for the same filter (else they all get everything).
  void SetRdbFilter(uint64_t client_id, bool functions) { rdb_filters_[client_id] = functions; }

  // INFO persistence fields, in Redis's order and names.
  std::vector<std::pair<std::string, std::string>> InfoFields() const;

 private:
  // kReplica: a full sync's snapshot (repl_snapshot.cc).
  enum class ChildKind { kNone, kSave, kRewrite, kReplica };

  // persist_manager.cc
  std::string_view WriteGate(Client& c, const CommandSpec& spec);
  void Cron();
  void ApplyConfigChanges();
  std::string AofDir() const;
  std::string DumpPath() const;
  void KillWritersOfFailedBatch();

  // persist_load.cc
  Status LoadDataSet();
  // The server's encoding limits and the current time, for a load.
  SnapshotLoadOptions LoadOptions() const;
  // `history`, when given: the replication history the file carries
  // (repl-id / repl-offset / repl-stream-db; *has_history says whether it
  // had all three); expired keys are then kept (repl_history.cc).
  // `keep_expired`: keys whose deadline passed are loaded too (the log's
  // base, as Redis loads an AOF preamble: the log's commands after it may
  // touch them, and they expire after the replay).
  Status LoadSnapshotFile(const std::string& path, std::span<Database* const> dbs,
                          Replication::History* history = nullptr, bool* has_history = nullptr,
                          bool keep_expired = false);
  // Loads the snapshot at `path` aside, then swaps it in for the data set
  // (nothing changes when it fails).
  // Loads a data set and swaps it in; the old one is freed by `old_freer`
  // (a replica's full sync under replica-lazy-flush), else at once.
  Status ReplaceDataSet(const std::string& path, LazyFreer* old_freer = nullptr);
  // Loads the snapshot at `path` into the live data set (DEBUG RELOAD
  // NOFLUSH); `merge`: what it holds replaces what is there.
  Status LoadOverDataSet(const std::string& path, bool merge);
  // Set while LoadOverDataSet runs (read by LoadSnapshotFile).
  bool load_over_ = false, merge_load_ = false;
  // Set while a replica's snapshot loads: called with each progress report.
  const std::function<void()>* load_keep_alive_ = nullptr;
  // repl_snapshot.cc: the same from a Redis RDB held in memory.
  Status ReplaceDataSetFromRedisRdb(std::string_view rdb, LazyFreer* old_freer = nullptr);
  // A Redis RDB file (load-redis-rdb, or dbfilename holding one) loaded
  // into the empty data set at start.
  Status LoadRedisRdbFile(const std::string& path);
  bool StartsWithRedisMagic(const std::string& path) const;
  // Logs that load-redis-rdb (if set) is ignored: `existing` holds data.
  void NoteRedisRdbSkipped(const std::string& existing) const;
  Status LoadLog(const Manifest& m);
  Status ReplayLogFile(const std::string& path, bool last);
  // No key expires during a replay (Database::set_expiry_suspended).
  void SuspendExpiry(bool suspended);
  Status CleanAofDir(const Manifest& m);
  // persist_redis_aof.cc: a manifest's base in either format (rankd's
  // snapshot, or Redis's RDB / RESP file) loaded into the data set.
  Status LoadBaseFile(const std::string& path);
  // A Redis AOF file (RDB preamble, then RESP commands) replayed; a torn
  // tail of the `last` file is truncated under aof-load-truncated, as Redis.
  Status ReplayRedisAof(const std::string& path, bool last);
  // Redis 7.0's upgrade of an old single-file AOF: `dir/<appendfilename>`
  // (no manifest yet) moves into the log directory as the base of a new
  // manifest. NotFound when there is no such file.
  Status AdoptOldRedisAof(Manifest* m);
  // The incr a manifest without one starts: rankd's log after rankd's base,
  // a Redis ".incr.aof" after a Redis base (the files stay Redis's).
  Manifest::File FirstIncr(const Manifest& m) const;
  Status LoadRedisPreamble(const std::string& path, std::string_view data, size_t* rdb_bytes);

  // persist_jobs.cc
  // What snapshots store besides keys: the function libraries.
  SnapshotAux MakeSnapshotAux() const;
  // In the full sync's child: `dbs` as a Redis RDB into the pipe (when
  // `pipe_fds`: it closes the read end) or the file at `path`.
  Status WriteReplicaRdb(const int* pipe_fds, const std::string& path,
                         std::span<Database* const> dbs, SnapshotWriteStats* stats);
  Status SaveSync(const std::string& path);
  // Crash-safe through `tmp_path`: dump.rdb and the log's base.
  // persist-format: whether new files are Redis's (else rankd's own).
  bool RedisFormat() const { return server_->config().persist_format != "rankd"; }
  // `dbs` as persist-format says (a Redis RDB with rankd's extras,
  // persist/rdb_file.h, or rankd's snapshot). `aof_base`: the RDB's aux
  // field "aof-base" says 1, as in Redis's bases.
  Status WriteRdbFile(const std::string& path, const std::string& tmp_path,
                      std::span<Database* const> dbs, SnapshotWriteStats* stats,
                      bool aof_base = false);
  // persist_rewrite.cc
  Status StartLogging();  // at start-up: a new generation from the data in memory
  void StopLogging();
  // CONFIG SET appendonly yes: the first base comes from a background
  // rewrite; effects wait in TempIncrPath() until it succeeds.
  void BeginEnable();
  std::string TempIncrPath() const;
  // A rewrite of the kind the log's state asks for: on (a new incr opens
  // at the fork), turning on (the temporary incr), off (a base alone).
  Status StartRewrite();
  // Deletes the manifest's history files unless aof-disable-auto-gc.
  void CollectHistory();
  // True while automatic and scheduled rewrites are on hold after repeated
  // failures (logs when a hold begins).
  bool RewriteLimited();
  // OK if the log directory exists (or was created) and takes a new file.
  Status CheckLogDirWritable();
  bool ForkChild(ChildKind kind, const std::string& final_path);
  // fork(), counted as Redis's redisFork: in the parent, a successful fork
  // adds one to ServerStats::total_forks and sets latest_fork_usec to the
  // time fork() itself took.
  pid_t CountedFork();
  void ReapChild(bool wait);
  // Reaps the child if it has exited, else watches a pidfd of it so that
  // the event loop reaps it the moment it exits (the cron's ReapChild
  // remains the fallback where pidfds are unavailable). Never blocks.
  void WatchChildExit();
  void StopWatchingChild();
  void KillChild();
  void FinishRewrite(bool ok);

  Server* const server_;
  Env* const env_;
  std::unique_ptr<AppendLog> log_;
  Manifest manifest_;               // as on disk
  uint64_t incr_history_bytes_ = 0;  // incrs before the current one
  uint64_t base_bytes_ = 0;          // base file size
  uint64_t rewrite_base_bytes_ = 0;  // log size after the last rewrite
  std::string misconf_;              // MISCONF text returned by the gate
  std::vector<uint64_t> batch_writers_;  // clients writing this batch (always)
  bool loading_ = false;
  // A script busy past busy-reply-threshold runs event-loop passes whose
  // BeforeFlush writes replies of commands that ran before it: only the
  // batch up to the script's first effect is committed then (the script
  // stays atomic). Set by the gate on the running script's first write.
  ScriptEngine* engine_ = nullptr;
  size_t script_mark_ = 0;
  uint64_t script_mark_run_ = 0;
  bool started_ = false;
  uint64_t cron_timer_ = 0;

  // Children.
  ChildKind child_ = ChildKind::kNone;
  ChildInfo child_info_;  // a BGSAVE's or rewrite's progress and copy-on-write
  uint64_t cow_peak_ = 0, rdb_last_cow_ = 0, aof_last_cow_ = 0;
  pid_t child_pid_ = -1;
  int child_exit_fd_ = -1;  // pidfd of the child, in the event loop
  std::string child_tmp_, child_final_;
  int64_t child_start_ms_ = 0;
  uint64_t dirty_at_fork_ = 0;
  uint64_t rewrite_seq_ = 0;  // seq of the new base a rewrite child writes
  uint64_t rewrite_incr_seq_ = 0;  // ... and of the incr opened when it forked
  std::string rewrite_base_name_;  // the base's file name
  bool bgsave_scheduled_ = false;
  bool rewrite_scheduled_ = false;
  bool rewrite_start_pending_ = false;  // start at the next batch boundary
  std::map<uint64_t, bool> rdb_filters_;  // SetRdbFilter: client id -> functions
  bool enabling_ = false;  // turned on at run time, first rewrite not done
  bool config_set_in_exec_ = false;  // cleared by each BeforeFlush
  int64_t limit_minutes_ = 0, limit_until_s_ = 0;  // RewriteLimited()'s hold

  // Status for INFO and the gate.
  int64_t lastsave_s_ = 0;
  bool last_bgsave_ok_ = true;
  int64_t last_bgsave_try_ms_ = 0;
  int64_t last_bgsave_secs_ = -1;
  bool last_rewrite_ok_ = true;
  int64_t last_rewrite_secs_ = -1;
  uint64_t rdb_saves_ = 0, aof_rewrites_ = 0, rewrite_failures_ = 0;
  uint64_t last_load_keys_ = 0, last_load_expired_ = 0;
  std::string applied_fsync_;  // appendfsync the log runs with
};

}  // namespace rankd
