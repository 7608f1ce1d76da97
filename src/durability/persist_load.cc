// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// PersistManager: loading the data set (start-up, DEBUG RELOAD, DEBUG
// LOADAOF). Log replay runs each logged command through Server::Execute
// with a connection-less client, so replay has exactly live semantics.

#include <cinttypes>

#include "base/clock.h"
#include "base/logging.h"
#include "base/numbers.h"
#include "durability/persist_manager.h"
#include "persist/check_tool.h"
#include "persist/command_codec.h"
#include "persist/format.h"
#include "persist/log_reader.h"
#include "persist/rdb_reader.h"
#include "persist/redis_aof.h"
#include "persist/snapshot.h"
#include "scripting/script_engine.h"
#include "server/replication.h"

namespace rankd {

namespace {

// The checker's report on the snapshot at `path`, line by line in the log,
// then the words redis-server ends a failed start-up load with.
void LogCheckReport(Env* env, const std::string& path) {
  char* text = nullptr;
  size_t size = 0;
  if (FILE* out = open_memstream(&text, &size)) {
    std::string arg0 = "--check-aof", arg1 = path;
    char* argv[] = {arg0.data(), arg1.data(), nullptr};
    RunCheckTool(env, 2, argv, out);
    fclose(out);
    std::string_view rest(text, size);
    while (!rest.empty()) {
      const size_t end = std::min(rest.find('\n'), rest.size());
      if (end) LOG_WARNING("%.*s", static_cast<int>(end), rest.data());
      rest.remove_prefix(std::min(end + 1, rest.size()));
    }
    free(text);
  }
  LOG_WARNING("Terminating server after rdb file reading failure.");
}

// Logs "<what>: 42.10% (12.3 MB of 29.2 MB, <n> <unit>, <rate> MB/s)" about once a
// second.
class Progress {
 public:
  Progress(std::string what, uint64_t total, const char* unit)
      : what_(std::move(what)), total_(total), unit_(unit) {}
  void Report(uint64_t done, uint64_t count, bool force = false) {
    int64_t now = MonoMs();
    if (!force && now - last_ms_ < 1000) return;
    last_ms_ = now;
    double secs = std::max<int64_t>(now - start_ms_, 1) / 1000.0;
    LOG_NOTICE("%s: %.2f%% (%.1f MB of %.1f MB, %" PRIu64 " %s, %.1f MB/s)", what_.c_str(),
               total_ ? 100.0 * done / total_ : 100.0, done / 1e6, total_ / 1e6, count, unit_,
               done / 1e6 / secs);
  }
  double seconds() const { return (MonoMs() - start_ms_) / 1000.0; }

 private:
  const std::string what_;
  const uint64_t total_;
  const char* const unit_;
  const int64_t start_ms_ = MonoMs();
  int64_t last_ms_ = MonoMs();
};

std::string WithFixHint(const Status& s, const std::string& path) {
  return s.message() + ". Run 'rankd --check-aof --fix " + path +
         "' to truncate the log before the damage (what follows it is lost).";
}

}  // namespace

Status PersistManager::LoadDataSet() {
  const Config& cfg = server_->config();
  if (cfg.appendonly) {
    Status s = env_->CreateDir(AofDir());
    if (!s.ok()) return s;
    Manifest m;
    s = ReadManifest(env_, AofDir(), cfg.appendfilename, &m);
    if (s.code() == Status::Code::kNotFound) s = AdoptOldRedisAof(&m);
    if (s.ok()) {
      NoteRedisRdbSkipped(AofDir());
      return LoadLog(m);
    }
    if (s.code() != Status::Code::kNotFound) return s;
    // No log yet: start from the snapshot, if any; Start() writes the base.
  }
  if (!env_->FileExists(DumpPath())) {
    if (cfg.load_redis_rdb.empty()) return Status::OK();
    // Migration from Redis: its dump.rdb becomes rankd's data set, kept in
    // rankd's own format from now on (so a restart does not load it again).
    Status s = LoadRedisRdbFile(cfg.load_redis_rdb);
    if (s.ok() && !cfg.appendonly) s = SaveSync(DumpPath());
    return s;
  }
  NoteRedisRdbSkipped(DumpPath());
  std::vector<Database*> dbs;
  for (int i = 0; i < server_->db_count(); i++) dbs.push_back(&server_->db(i));
  // The snapshot alone is the data set here, so the replication history it
  // carries describes it exactly (repl_history.cc). With an append-only log
  // (above) the log holds writes past any history, as Redis 7.0, which
  // restores none when it loads the AOF: a full sync follows.
  Replication::History history;
  bool has_history = false;
  Status s = LoadSnapshotFile(DumpPath(), dbs, &history, &has_history);
  if (!s.ok() || !has_history) return s;
  const std::vector<std::string>& replicaof = server_->config().replicaof;
  const bool as_replica = replicaof.size() == 2 && !EqualsIgnoreCase(replicaof[0], "no");
  server_->replication().RestoreHistory(history, as_replica);
  if (as_replica) return Status::OK();
  // A primary drops the keys whose deadline passed while it was down now
  // that its backlog continues the history: the DELs reach replicas that
  // continue with PSYNC, and count as expired at load (as Redis 7.0's
  // RDBFLAGS_FEED_REPL load).
  uint64_t expired = 0;
  for (int i = 0; i < server_->db_count(); i++) {
    Database& db = server_->db(i);
    const uint64_t before = db.expired_count();
    db.ForEach([](Database::Entry*) {});  // deletes the expired keys it meets
    expired += db.expired_count() - before;
  }
  last_load_expired_ += expired;
  last_load_keys_ -= std::min(last_load_keys_, expired);
  return Status::OK();
}

void PersistManager::NoteRedisRdbSkipped(const std::string& existing) const {
  const std::string& rdb = server_->config().load_redis_rdb;
  if (rdb.empty()) return;
  LOG_NOTICE("Not loading the Redis RDB %s (load-redis-rdb): rankd already has its data set "
             "in %s", rdb.c_str(), existing.c_str());
}

bool PersistManager::StartsWithRedisMagic(const std::string& path) const {
  std::unique_ptr<SequentialFile> f;
  char buf[5];
  std::string_view got;
  return env_->NewSequentialFile(path, &f).ok() && f->Read(5, &got, buf).ok() &&
         IsRedisRdb(got);
}

Status PersistManager::LoadRedisRdbFile(const std::string& path) {
  LOG_NOTICE("Loading the Redis RDB %s", path.c_str());
  Progress progress("Loading " + path, 0, "keys");
  std::string data;
  Status s = ReadFileToString(env_, path, &data);
  if (s.ok()) s = ReplaceDataSetFromRedisRdb(data);
  if (!s.ok()) {
    const std::string msg = s.message() + ". Run 'rankd-check " + path + "' for a report.";
    return s.code() == Status::Code::kIOError ? Status::IOError(path, msg)
                                              : Status::Corruption(path + ": " + msg);
  }
  LOG_NOTICE("Redis RDB loaded: %.3f seconds", progress.seconds());
  return Status::OK();
}

SnapshotLoadOptions PersistManager::LoadOptions() const {
  SnapshotLoadOptions opts;
  opts.zset_limits = server_->zset_limits();
  opts.set_limits = server_->set_limits();
  opts.hash_limits = server_->hash_limits();
  opts.list_limits = server_->list_limits();
  opts.now_ms = WallMs();
  opts.key_delay = server_->config().CompatInt("key-load-delay");
  return opts;
}

Status PersistManager::LoadSnapshotFile(const std::string& path, std::span<Database* const> dbs,
                                        Replication::History* history, bool* has_history,
                                        bool keep_expired) {
  uint64_t size = 0;
  (void)env_->GetFileSize(path, &size);
  Progress progress("Loading " + path, size, "elements");
  SnapshotLoadOptions opts = LoadOptions();
  if (keep_expired) opts.now_ms = 0;
  opts.replace_existing = merge_load_;
  opts.progress = [&](uint64_t done, uint64_t, uint64_t n) {
    progress.Report(done, n);
    if (load_keep_alive_) (*load_keep_alive_)();
  };
  bool have_id = false, have_offset = false, have_db = false;
  bool functions_flushed = load_over_;  // (or replaced by what the file holds)
  opts.on_aux = [&](std::string_view key, std::string_view value) {
    if (key == "repl-stream-db") {  // the stream's database (repl_snapshot.cc)
      int64_t db = 0;
      if (ParseInt64(value, &db) && db >= 0 && db < server_->db_count()) {
        server_->replication().set_loaded_stream_db(static_cast<int>(db));
        if (history) history->stream_db = static_cast<int>(db);
        have_db = true;
      }
      return Status::OK();
    }
    if (history && key == "repl-id" && value.size() == 40) {
      history->replid = std::string(value);
      have_id = true;
      // The history continues from this data exactly: keys whose deadline
      // passed stay (they precede the keys in the file), and go as DELs in
      // the stream when they expire (a primary) or when the primary's DELs
      // arrive (a replica), as Redis 7.0 (RDBFLAGS_FEED_REPL / replicas
      // keep expired keys when loading).
      opts.now_ms = 0;
      return Status::OK();
    }
    if (history && key == "repl-offset") {
      int64_t off = 0;
      if (ParseInt64(value, &off) && off >= 0) {
        history->offset = static_cast<uint64_t>(off);
        have_offset = true;
      }
      return Status::OK();
    }
    if (key != "functions") return Status::OK();
    functions_flushed = true;
    std::string err = ScriptEngine::Of(*server_).functions().Restore(
        value, !load_over_ ? "FLUSH" : merge_load_ ? "REPLACE" : "APPEND");
    if (err.empty()) return Status::OK();
    return Status::Corruption(path + ": the function libraries cannot be restored: " + err);
  };
  // A Redis RDB's function libraries (rankd's files are RDBs now; its old
  // snapshots carry them in the "functions" field above).
  opts.on_function = [&](std::string_view code) {
    FunctionLibraries& functions = ScriptEngine::Of(*server_).functions();
    if (!functions_flushed) functions.Flush();
    functions_flushed = true;
    std::string name, err = functions.Load(code, /*replace=*/!load_over_ || merge_load_, &name);
    if (err.empty()) return Status::OK();
    return Status::Corruption(path + ": the function libraries cannot be restored: " + err);
  };
  SnapshotLoadStats stats;
  loading_ = true;
  auto db_for = [&](int i) { return i < static_cast<int>(dbs.size()) ? dbs[i] : nullptr; };
  Status s;
  if (StartsWithRedisMagic(path)) {
    std::string data;
    s = ReadFileToString(env_, path, &data);
    if (s.ok()) s = LoadRedisRdb(data, db_for, opts, &stats);
    if (!s.ok() && s.code() != Status::Code::kIOError) {
      s = Status::Corruption(path + ": " + s.message() + ". Run 'rankd-check " + path +
                             "' for a report");
      // At start-up the server exits; like redis-server, say so and put the
      // checker's report in the log.
      if (!load_over_) LogCheckReport(env_, path);
    }
  } else {
    s = LoadSnapshot(env_, path, db_for, opts, &stats);  // rankd's format before RDB
  }
  loading_ = false;
  if (!s.ok()) return s;
  // The file replaced the data set: functions too, even when it has none.
  if (!functions_flushed) ScriptEngine::Of(*server_).functions().Flush();
  last_load_keys_ = stats.keys_loaded;
  last_load_expired_ = stats.keys_expired;
  const std::string empty =
      stats.keys_empty ? ", empty keys skipped: " + std::to_string(stats.keys_empty) : "";
  LOG_NOTICE("Done loading RDB, keys loaded: %" PRIu64 ", keys expired: %" PRIu64 "%s.",
             stats.keys_loaded, stats.keys_expired, empty.c_str());
  LOG_NOTICE("DB loaded from disk: %.3f seconds", progress.seconds());
  if (has_history) *has_history = have_id && have_offset && have_db;
  return Status::OK();
}

Status PersistManager::LoadLog(const Manifest& m) {
  const std::string dir = AofDir();
  base_bytes_ = incr_history_bytes_ = 0;
  for (const Manifest::File& f : m.files) {
    // Redis's upgrade of an old single-file AOF, interrupted before the
    // file moved into the directory: finish it.
    if (f.base && f.name == server_->config().appendfilename &&
        !env_->FileExists(JoinPath(dir, f.name)) && env_->FileExists(f.name)) {
      Status s = env_->RenameFile(f.name, JoinPath(dir, f.name));
      if (!s.ok()) return s;
    }
    if (!env_->FileExists(JoinPath(dir, f.name))) {
      return Status::NotFound("The AOF file " + JoinPath(dir, f.name) +
                              " named by the manifest can't be opened: No such file or directory");
    }
  }
  if (const Manifest::File* base = m.base_file()) {
    Status s = LoadBaseFile(JoinPath(dir, base->name));
    if (!s.ok()) return s;
    (void)env_->GetFileSize(JoinPath(dir, base->name), &base_bytes_);
  }
  for (size_t i = 0; i < m.files.size(); i++) {
    const Manifest::File& f = m.files[i];
    if (f.base) continue;
    const bool last = i + 1 == m.files.size();
    Status s = ReplayLogFile(JoinPath(dir, f.name), last);
    if (!s.ok()) return s;
    uint64_t size = 0;
    (void)env_->GetFileSize(JoinPath(dir, f.name), &size);
    if (!last) incr_history_bytes_ += size;
  }
  manifest_ = m;
  // Keep appending to the last incremental log (or start one).
  if (!m.last_incr()) manifest_.files.push_back(FirstIncr(m));
  FsyncPolicy policy = FsyncPolicy::kEverySec;
  (void)ParseFsyncPolicy(server_->config().appendfsync, &policy);
  // A Redis incr file goes on in Redis's format (persist_redis_aof.cc).
  const std::string& last_name = manifest_.last_incr()->name;
  Status s = AppendLog::Open(env_, JoinPath(dir, last_name), policy, &log_,
                             IsRedisAofFileName(last_name));
  if (s.ok() && !m.last_incr()) s = WriteManifest(env_, dir, server_->config().appendfilename, manifest_);
  if (!s.ok()) return s;
  applied_fsync_ = server_->config().appendfsync;
  rewrite_base_bytes_ = base_bytes_ + incr_history_bytes_ + log_->size();
  server_->stats().dirty = 0;
  CollectHistory();  // history an earlier run kept goes now, unless aof-disable-auto-gc
  return CleanAofDir(manifest_);
}

void PersistManager::SuspendExpiry(bool suspended) {
  for (int i = 0; i < server_->db_count(); i++) server_->db(i).set_expiry_suspended(suspended);
}

Status PersistManager::ReplayLogFile(const std::string& path, bool last) {
  if (IsRedisAofFileName(path)) return ReplayRedisAof(path, last);
  uint64_t size = 0;
  (void)env_->GetFileSize(path, &size);
  Progress progress("Loading " + path, size, "commands");
  Client client;
  client.obeyed = true;
  ReplyBuilder reply;
  client.reply = &reply;
  client.authenticated = true;
  uint64_t commands = 0, errors = 0;
  std::vector<std::string_view> args;
  LogFileInfo info;
  loading_ = true;
  server_->set_hold_period_rolls(true);  // the log's LB.ROLL records roll boards
  server_->set_loading(true);
  SuspendExpiry(true);
  Status s = ReadLogFile(
      env_, path,
      [&](std::string_view payload, uint64_t offset) -> Status {
        BatchReader batch(payload);
        int db;
        while (batch.Next(&db, &args)) {
          if (db >= server_->db_count()) {
            return Status::Corruption(path + ": database index " + std::to_string(db) +
                                      " out of range in the record at offset " +
                                      std::to_string(offset));
          }
          if (!server_->FindCommand(args[0])) {
            return Status::Corruption(path + ": unknown command '" + std::string(args[0]) +
                                      "' in the record at offset " + std::to_string(offset));
          }
          client.db_index = db;
          server_->Execute(client, args, /*no_block=*/true);
          if (!reply.buffer().empty() && reply.buffer()[0] == '-' && errors++ < 5) {
            LOG_WARNING("Replaying '%s' from %s (record at offset %" PRIu64 ") replied %s",
                        std::string(args[0]).c_str(), path.c_str(), offset,
                        reply.buffer().substr(0, 120).c_str());
          }
          reply.buffer().clear();
          commands++;
        }
        if (!batch.error().empty()) {
          return Status::Corruption(path + ": " + batch.error() + " in the record at offset " +
                                    std::to_string(offset));
        }
        progress.Report(offset, commands);
        return Status::OK();
      },
      &info);
  loading_ = false;
  server_->set_hold_period_rolls(false);
  server_->set_loading(false);
  SuspendExpiry(false);
  if (s.code() == Status::Code::kCorruption) return Status::Corruption(WithFixHint(s, path));
  if (!s.ok()) return s;
  if (info.torn_bytes > 0) {
    if (!last) {
      return Status::Corruption(WithFixHint(
          Status::Corruption(path + ": torn record at offset " + std::to_string(info.valid_size) +
                             " in a log that is not the last one"),
          path));
    }
    if (!server_->config().aof_load_truncated) {
      return Status::Corruption(
          "Unexpected end of file reading the append only file " + path + " (a torn last record: " +
          std::to_string(info.torn_bytes) + " bytes at offset " + std::to_string(info.valid_size) +
          "). You can: 1) Make a backup of your AOF file, then use 'rankd --check-aof --fix " +
          path + "'. 2) Alternatively you can set the 'aof-load-truncated' configuration option "
          "to yes and restart the server.");
    }
    LOG_WARNING("!!! Warning: short read while loading the AOF file %s!!!", path.c_str());
    LOG_WARNING("AOF %s was truncated at offset %" PRIu64 ": %" PRIu64
                " bytes of a torn last record dropped (a crash cut the last write short)",
                path.c_str(), info.valid_size, info.torn_bytes);
    s = env_->TruncateFile(path, info.valid_size);
    if (!s.ok()) return s;
  }
  LOG_NOTICE("DB loaded from incr file %s: %.3f seconds, %" PRIu64 " commands", path.c_str(),
             progress.seconds(), commands);
  return Status::OK();
}

Status PersistManager::CleanAofDir(const Manifest& m) {
  const std::string& prefix = server_->config().appendfilename + ".";
  std::vector<std::string> names;
  Status s = env_->GetChildren(AofDir(), &names);
  if (!s.ok()) return s;
  auto ends_with = [](const std::string& n, std::string_view suffix) {
    return n.size() >= suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  for (const std::string& n : names) {
    bool ours = (n.rfind(prefix, 0) == 0 &&
                 (ends_with(n, format::kBaseSuffix) || ends_with(n, format::kIncrSuffix))) ||
                n.rfind("temp-rewriteaof-", 0) == 0;
    bool listed = false;
    for (const Manifest::File& f : m.files) listed |= f.name == n;
    for (const Manifest::File& f : m.history) listed |= f.name == n;
    if (ours && !listed) {
      LOG_NOTICE("Removing %s: not part of the append only file", n.c_str());
      (void)env_->RemoveFile(JoinPath(AofDir(), n));
    }
  }
  return Status::OK();
}

Status PersistManager::DebugReload(bool save, bool flush, bool merge) {
  if (save) {
    Status s = SaveSync(DumpPath());
    if (!s.ok()) return s;
  }
  Status s = flush ? ReplaceDataSet(DumpPath()) : LoadOverDataSet(DumpPath(), merge);
  if (!s.ok()) return s;
  LOG_NOTICE("DB reloaded by DEBUG RELOAD");
  return Status::OK();
}

Status PersistManager::ReplaceDataSet(const std::string& path, LazyFreer* old_freer) {
  std::vector<std::unique_ptr<Database>> fresh;
  std::vector<Database*> dbs;
  for (int i = 0; i < server_->db_count(); i++) {
    fresh.push_back(std::make_unique<Database>(i));
    dbs.push_back(fresh.back().get());
  }
  Status s = LoadSnapshotFile(path, dbs);
  if (!s.ok()) return s;
  for (int i = 0; i < server_->db_count(); i++) {
    server_->db(i).SwapContents(*fresh[i]);
    fresh[i]->Clear(old_freer);
  }
  return Status::OK();
}

Status PersistManager::LoadOverDataSet(const std::string& path, bool merge) {
  std::vector<Database*> dbs;
  for (int i = 0; i < server_->db_count(); i++) dbs.push_back(&server_->db(i));
  load_over_ = true;
  merge_load_ = merge;
  Status s = LoadSnapshotFile(path, dbs);
  load_over_ = merge_load_ = false;
  return s;
}

Status PersistManager::DebugLoadLog() {
  // As Redis 7.0: with the log off, the files a BGREWRITEAOF left (their
  // manifest on disk) are loaded.
  // So while the log is being turned on (the manifest on disk is still the
  // old one, as Redis's).
  Manifest m = manifest_;
  const std::string dir = AofDir();
  Status s = log_ && !enabling_ ? log_->FlushAndSync()
                                : ReadManifest(env_, dir, server_->config().appendfilename, &m);
  if (!s.ok()) return s;
  for (int i = 0; i < server_->db_count(); i++) server_->db(i).Clear();
  if (const Manifest::File* base = m.base_file()) {
    s = LoadBaseFile(JoinPath(dir, base->name));
    if (!s.ok()) return s;
  }
  for (const Manifest::File& f : m.files) {
    if (f.base) continue;
    s = ReplayLogFile(JoinPath(dir, f.name), f.name == m.last_incr()->name);
    if (!s.ok()) return s;
  }
  server_->stats().dirty = 0;  // as Redis: the reload is not a change
  LOG_NOTICE("Append only file loaded by DEBUG LOADAOF");
  return Status::OK();
}

}  // namespace rankd
