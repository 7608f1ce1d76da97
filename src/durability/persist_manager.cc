// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// PersistManager: the effect log, the write gate, the cron and INFO. Loading
// is in persist_load.cc, children and snapshots in persist_jobs.cc.

#include "durability/persist_manager.h"

#include <cctype>
#include <cstdio>
#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "base/clock.h"
#include "base/logging.h"
#include "base/numbers.h"
#include "scripting/script_engine.h"
#include "server/command.h"

namespace rankd {
namespace {

// One Server per process in practice; tests may build several.
absl::flat_hash_map<Server*, PersistManager*>& Registry() {
  static auto* registry = new absl::flat_hash_map<Server*, PersistManager*>;
  return *registry;
}

constexpr std::string_view kBgsaveError =
    "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to "
    "disk. Commands that may modify the data set are disabled, because this instance is "
    "configured to report errors during writes if RDB snapshotting fails "
    "(stop-writes-on-bgsave-error option). Please check the Redis logs for details about the "
    "RDB error.";

bool IsCommand(std::string_view arg, std::string_view lower_name) {
  if (arg.size() != lower_name.size()) return false;
  for (size_t i = 0; i < arg.size(); i++) {
    if (tolower(static_cast<unsigned char>(arg[i])) != lower_name[i]) return false;
  }
  return true;
}

// True for a command whose as-received form sets a TTL relative to now.
bool SetsRelativeTtl(std::span<const std::string_view> args) {
  if (args.size() < 2) return false;
  std::string_view c = args[0];
  if (IsCommand(c, "expire") || IsCommand(c, "pexpire") || IsCommand(c, "setex") ||
      IsCommand(c, "psetex")) {
    return true;
  }
  if (IsCommand(c, "set") || IsCommand(c, "getex")) {
    for (size_t i = 2; i < args.size(); i++) {
      if (IsCommand(args[i], "ex") || IsCommand(args[i], "px")) return true;
    }
  }
  return false;
}

std::string Str(int64_t v) { return FormatInt64(v); }

}  // namespace

PersistManager::PersistManager(Server* server, Env* env) : server_(server), env_(env) {
  Registry()[server] = this;
  lastsave_s_ = WallMs() / 1000;
}

PersistManager::~PersistManager() {
  KillChild();
  if (cron_timer_) server_->loop().CancelTimer(cron_timer_);
  if (server_->effect_log() == this) server_->set_effect_log(nullptr);
  server_->write_gate = nullptr;
  Registry().erase(server_);
}

PersistManager* PersistManager::Of(Server& server) {
  auto it = Registry().find(&server);
  return it == Registry().end() ? nullptr : it->second;
}

std::string PersistManager::AofDir() const { return server_->config().appenddirname; }
std::string PersistManager::DumpPath() const { return server_->config().dbfilename; }

Status PersistManager::Start() {
  Status s = LoadDataSet();
  if (!s.ok()) return s;
  if (server_->config().appendonly && !log_) {
    s = StartLogging();
    if (!s.ok()) return s;
  }
  // Installed even with appendonly no: BeforeFlush applies CONFIG SET
  // appendonly and starts rewrites; Append() does nothing without a log.
  server_->set_effect_log(this);
  Replication& repl = server_->replication();
  repl.start_snapshot = [this](bool diskless, bool redis_rdb, int* fd, std::string* path) {
    return StartReplicaSnapshot(diskless, redis_rdb, fd, path);
  };
  repl.child_busy = [this] { return child_ != ChildKind::kNone; };
  repl.reap_snapshot = [this] {
    if (child_ == ChildKind::kReplica) WatchChildExit();
  };
  server_->replication().load_snapshot = [this](const std::string& path,
                                                const std::function<void()>& keep_alive) {
    return LoadReplicaSnapshot(path, keep_alive);
  };
  engine_ = &ScriptEngine::Of(*server_);
  server_->write_gate = [this](Client& c, const CommandSpec& spec) { return WriteGate(c, spec); };
  started_ = true;
  const int64_t hz = server_->config().hz > 0 ? server_->config().hz : 10;
  cron_timer_ = server_->loop().AddTimer(1000 / hz, [this] { Cron(); });
  return Status::OK();
}

Status PersistManager::Shutdown(bool save, bool force) {
  // As Redis: the first rewrite of a log turned on at run time is all the
  // log there is; exiting before it ends would lose the data set's log.
  if (child_ == ChildKind::kRewrite && enabling_) {
    if (!force) {
      LOG_WARNING("Writing initial AOF, can't exit.");
      return Status::IOError("shutdown", "the first rewrite of the append only file is running");
    }
    LOG_WARNING("Writing initial AOF. Exit anyway.");
  }
  if (child_ != ChildKind::kNone) {
    LOG_WARNING("There is a child saving an .rdb or rewriting the AOF. Killing it!");
    KillChild();
  }
  Status result;
  if (log_) {
    LOG_NOTICE("Calling fsync() on the AOF file.");
    result = log_->FlushAndSync();
    if (!result.ok()) LOG_WARNING("Error flushing the AOF: %s", result.message().c_str());
  }
  if (save) {
    LOG_NOTICE("Saving the final RDB snapshot before exiting.");
    Status s = SaveSync(DumpPath());
    if (!s.ok()) {
      if (force) {
        LOG_WARNING("Error trying to save the DB. Exit anyway.");
      } else {
        LOG_WARNING("Error trying to save the DB, can't exit.");
      }
      result = s;
    }
  }
  return result;
}

// ---- Effect log ----

void PersistManager::Append(int db, std::span<const std::string_view> args) {
  if (loading_) return;
  // As Redis: FLUSHALL aborts a BGSAVE (its snapshot is of data now gone)
  // and, with save points, empties dump.rdb at once, so a restart cannot
  // bring the old data back.
  if (child_ == ChildKind::kSave && IsCommand(args[0], "flushall")) KillChild();
  if (!server_->config().save.empty() && IsCommand(args[0], "flushall")) {
    (void)SaveSync(DumpPath());
  }
  if (!log_) return;
  // PUBLISH / SPUBLISH reach replicas only (Redis propagates them to the
  // replication stream, never to the AOF).
  if (IsCommand(args[0], "publish") || IsCommand(args[0], "spublish")) return;
  log_->Add(db, args);
  // Safety net for a family that logged a relative TTL as received: pin the
  // deadline it produced, so replay at a later time gives the same expiry.
  if (SetsRelativeTtl(args) && db < server_->db_count()) {
    const Database::Entry* e = server_->db(db).Peek(args[1]);
    if (e && server_->db(db).ExpireMs(e) >= 0) {
      std::string ms = Str(server_->db(db).ExpireMs(e));
      std::string_view fix[] = {"PEXPIREAT", args[1], ms};
      log_->Add(db, fix);
    }
  }
}

void PersistManager::BeforeFlush() {
  const bool in_script = engine_ && engine_->busy();  // a pass inside a slow script
  if (!in_script) ApplyConfigChanges();
  if (log_) {
    size_t prefix = SIZE_MAX;
    if (in_script && script_mark_run_ == engine_->run_count()) prefix = script_mark_;
    Status s = log_->Commit(prefix);
    if (prefix != SIZE_MAX) script_mark_ = 0;  // what stays is the script's
    if (!s.ok()) KillWritersOfFailedBatch();
  }
  batch_writers_.clear();
  config_set_in_exec_ = false;
  // A rewrite starts here, between batches: the old log ends with a whole
  // batch and the new one begins with one.
  if (rewrite_start_pending_ && !in_script) {
    rewrite_start_pending_ = false;
    Status s = StartRewrite();
    if (!s.ok()) {
      LOG_WARNING("Can't rewrite append only file in background: %s", s.message().c_str());
      last_rewrite_ok_ = false;
      rewrite_failures_++;
      if (enabling_) {
        LOG_WARNING("The append only file stays off: its first rewrite could not start.");
        StopLogging();
        server_->config().appendonly = false;
      }
    }
  }
}

void PersistManager::KillWritersOfFailedBatch() {
  // Under `always` their replies promise durability the disk refused: the
  // connections are closed before those replies are written, so the clients
  // see an error, never a false acknowledgement.
  if (log_->policy() != FsyncPolicy::kAlways) return;
  bool unknown_writer = false;
  for (uint64_t id : batch_writers_) {
    Client* c = server_->FindClient(id);
    if (!c || !c->conn) {
      unknown_writer = true;  // a script's client: its caller is not known
      continue;
    }
    LOG_WARNING("Closing client id=%llu: its writes could not be made durable",
                static_cast<unsigned long long>(id));
    c->conn->Kill();
  }
  if (unknown_writer) {
    // Close every connection with replies still to send: one of them ran it.
    server_->ForEachClient([](Client& c) {
      if (c.conn && c.conn->output_buffer_size() > 0) c.conn->Kill();
    });
  }
}

std::string_view PersistManager::WriteGate(Client& c, const CommandSpec& spec) {
  if (loading_) return {};
  const Config& cfg = server_->config();
  if (cfg.stop_writes_on_bgsave_error && !cfg.save.empty() && !last_bgsave_ok_) {
    return kBgsaveError;
  }
  if (log_) {
    if (!log_->ok()) {
      misconf_ = "MISCONF Errors writing to the AOF file: " + ErrorDetail(log_->error());
      return misconf_;
    }
    if (!c.conn && engine_ && script_mark_run_ != engine_->run_count()) {
      script_mark_run_ = engine_->run_count();  // the running script's first write
      script_mark_ = log_->batch_bytes();
    }
    if (log_->policy() == FsyncPolicy::kAlways &&
        (batch_writers_.empty() || batch_writers_.back() != c.id)) {
      batch_writers_.push_back(c.id);
    }
  }
  return {};
}

// ---- Cron ----

void PersistManager::Cron() {
  const int64_t hz = server_->config().hz > 0 ? server_->config().hz : 10;
  cron_timer_ = server_->loop().AddTimer(1000 / hz, [this] { Cron(); });
  const int64_t now_ms = MonoMs();
  if (log_) log_->Tick(now_ms);
  if (engine_ && engine_->busy()) return;  // no children mid-script
  if (child_ != ChildKind::kNone) {
    child_info_.Poll();
    cow_peak_ = std::max(cow_peak_, child_info_.cow_bytes());
    ReapChild(false);
    if (child_ != ChildKind::kNone) return;
  }
  if (rewrite_scheduled_ && !RewriteLimited()) {
    rewrite_scheduled_ = false;
    rewrite_start_pending_ = true;
    return;
  }
  const Config& cfg = server_->config();
  const uint64_t dirty = server_->stats().dirty;
  const int64_t now_s = WallMs() / 1000;
  bool scheduled;
  if (bgsave_scheduled_) {
    (void)BgSave(false, &scheduled);
    return;
  }
  // After a failed BGSAVE, save points retry only every 5 seconds (Redis).
  const bool retry_ok = last_bgsave_ok_ || now_ms - last_bgsave_try_ms_ >= 5000;
  for (auto [seconds, changes] : cfg.save) {
    if (retry_ok && dirty >= static_cast<uint64_t>(changes) && now_s - lastsave_s_ >= seconds) {
      LOG_NOTICE("%lld changes in %lld seconds. Saving...", static_cast<long long>(changes),
                 static_cast<long long>(seconds));
      (void)BgSave(false, &scheduled);
      return;
    }
  }
  // After repeated failures, automatic ones are held (RewriteLimited).
  if (log_ && !enabling_ && cfg.auto_aof_rewrite_percentage > 0) {
    uint64_t size = base_bytes_ + incr_history_bytes_ + log_->size();
    uint64_t base = std::max<uint64_t>(rewrite_base_bytes_, 1);
    if (size > static_cast<uint64_t>(cfg.auto_aof_rewrite_min_size) &&
        (size - std::min(size, base)) * 100 / base >=
            static_cast<uint64_t>(cfg.auto_aof_rewrite_percentage) &&
        !RewriteLimited()) {
      LOG_NOTICE("Starting automatic rewriting of AOF on %llu%% growth",
                 static_cast<unsigned long long>((size - std::min(size, base)) * 100 / base));
      rewrite_start_pending_ = true;
    }
  }
}

void PersistManager::ApplyConfigChanges() {
  if (!started_) return;
  Config& cfg = server_->config();
  if (cfg.appendonly && !log_ && !enabling_) {
    BeginEnable();
  } else if (!cfg.appendonly && (log_ || enabling_)) {
    StopLogging();
  }
  if (!manifest_.history.empty()) CollectHistory();  // aof-disable-auto-gc turned off
  if (log_ && cfg.appendfsync != applied_fsync_) {
    FsyncPolicy p;
    if (ParseFsyncPolicy(cfg.appendfsync, &p)) log_->set_policy(p);
    applied_fsync_ = cfg.appendfsync;
  }
}

// ---- INFO ----

std::vector<std::pair<std::string, std::string>> PersistManager::InfoFields() const {
  const int64_t now_ms = MonoMs();
  const bool saving = child_ == ChildKind::kSave || child_ == ChildKind::kReplica;
  const bool rewriting = child_ == ChildKind::kRewrite;
  const bool reporting = child_info_.active();
  const uint64_t total = child_info_.keys_total(), done = child_info_.keys_processed();
  char perc[32];
  snprintf(perc, sizeof(perc), "%.2f", total ? 100.0 * static_cast<double>(done) / total : 0.0);
  const int64_t cow_age = reporting && child_info_.cow_updated_ms()
                              ? (now_ms - child_info_.cow_updated_ms()) / 1000 : 0;
  std::vector<std::pair<std::string, std::string>> f = {
      {"loading", loading_ ? "1" : "0"},
      {"async_loading", "0"},
      // A BGSAVE's or rewrite's child, as it reports (child_info.h).
      {"current_cow_peak", Str(static_cast<int64_t>(reporting ? cow_peak_ : 0))},
      {"current_cow_size", Str(static_cast<int64_t>(reporting ? child_info_.cow_bytes() : 0))},
      {"current_cow_size_age", Str(cow_age)},
      {"current_fork_perc", reporting ? perc : "0.00"},
      {"current_save_keys_processed", Str(static_cast<int64_t>(reporting ? done : 0))},
      {"current_save_keys_total", Str(static_cast<int64_t>(reporting ? total : 0))},
      {"rdb_changes_since_last_save", Str(static_cast<int64_t>(server_->stats().dirty))},
      {"rdb_bgsave_in_progress", saving ? "1" : "0"},
      {"rdb_last_save_time", Str(lastsave_s_)},
      {"rdb_last_bgsave_status", last_bgsave_ok_ ? "ok" : "err"},
      {"rdb_last_bgsave_time_sec", Str(last_bgsave_secs_)},
      {"rdb_current_bgsave_time_sec", Str(saving ? (now_ms - child_start_ms_) / 1000 : -1)},
      {"rdb_saves", Str(static_cast<int64_t>(rdb_saves_))},
      {"rdb_last_cow_size", Str(static_cast<int64_t>(rdb_last_cow_))},
      {"rdb_last_load_keys_expired", Str(static_cast<int64_t>(last_load_expired_))},
      {"rdb_last_load_keys_loaded", Str(static_cast<int64_t>(last_load_keys_))},
      {"aof_enabled", log_ || enabling_ ? "1" : "0"},
      {"aof_rewrite_in_progress", rewriting ? "1" : "0"},
      {"aof_rewrite_scheduled", rewrite_scheduled_ || rewrite_start_pending_ ? "1" : "0"},
      {"aof_last_rewrite_time_sec", Str(last_rewrite_secs_)},
      {"aof_current_rewrite_time_sec", Str(rewriting ? (now_ms - child_start_ms_) / 1000 : -1)},
      {"aof_last_bgrewrite_status", last_rewrite_ok_ ? "ok" : "err"},
      {"aof_rewrites", Str(static_cast<int64_t>(aof_rewrites_))},
      {"aof_rewrites_consecutive_failures", Str(static_cast<int64_t>(rewrite_failures_))},
      {"aof_last_write_status", !log_ || log_->ok() ? "ok" : "err"},
      {"aof_last_cow_size", Str(static_cast<int64_t>(aof_last_cow_))},
      {"module_fork_in_progress", "0"},
  };
  if (log_) {
    f.push_back({"aof_current_size",
                 Str(static_cast<int64_t>(base_bytes_ + incr_history_bytes_ + log_->size()))});
    f.push_back({"aof_base_size", Str(static_cast<int64_t>(rewrite_base_bytes_))});
    f.push_back({"aof_pending_rewrite", rewrite_scheduled_ ? "1" : "0"});
    f.push_back({"aof_buffer_length", Str(static_cast<int64_t>(log_->pending_bytes()))});
    f.push_back({"aof_pending_bio_fsync", log_->fsync_in_progress() ? "1" : "0"});
    f.push_back({"aof_delayed_fsync", "0"});
  }
  return f;
}

}  // namespace rankd
