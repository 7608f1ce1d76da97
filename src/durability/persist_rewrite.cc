// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// PersistManager: the log's generations. Turning the log on and off, the
// rewrite (BGREWRITEAOF, automatic, or the one that turns the log on at
// run time), the files a rewrite replaces (deleted, or kept as history
// under aof-disable-auto-gc), and the limit on automatic rewrites after
// repeated failures. As Redis 7.0 (docs/persistence.md, "Log rewrite").

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/clock.h"
#include "base/logging.h"
#include "durability/persist_manager.h"

namespace rankd {
namespace {

bool AutoGcDisabled(const Config& cfg) {
  auto it = cfg.compat_bools.find("aof-disable-auto-gc");
  return it != cfg.compat_bools.end() && it->second;
}

// Three failed rewrites in a row put automatic ones on hold (Redis's
// AOF_REWRITE_LIMITE_THRESHOLD); the hold doubles up to an hour.
constexpr uint64_t kLimitFailures = 3;
constexpr int64_t kLimitMaxMinutes = 60;

}  // namespace

std::string PersistManager::TempIncrPath() const {
  return JoinPath(AofDir(), "temp-" + server_->config().appendfilename + ".incr");
}

// At start-up (appendonly yes, no log yet): the first base is written now,
// from the data loaded, before the server serves anyone (as Redis).
Status PersistManager::StartLogging() {
  const Config& cfg = server_->config();
  const std::string dir = AofDir();
  Status s = env_->CreateDir(dir);
  if (!s.ok()) return s;
  if (child_ == ChildKind::kRewrite) KillChild();
  const uint64_t base_seq = manifest_.max_base_seq() + 1, incr_seq = manifest_.max_incr_seq() + 1;
  Manifest next;
  const bool redis = RedisFormat();
  next.files = {{BaseFileName(cfg.appendfilename, base_seq, redis), base_seq, true},
                {IncrFileName(cfg.appendfilename, incr_seq, redis), incr_seq, false}};
  SnapshotWriteStats stats;
  std::vector<Database*> dbs;
  for (int i = 0; i < server_->db_count(); i++) dbs.push_back(&server_->db(i));
  const std::string base_path = JoinPath(dir, next.files[0].name);
  const std::string tmp = JoinPath(dir, "temp-rewriteaof-" + std::to_string(getpid()) + ".aof");
  s = WriteRdbFile(base_path, tmp, dbs, &stats, /*aof_base=*/true);
  FsyncPolicy policy = FsyncPolicy::kEverySec;
  (void)ParseFsyncPolicy(cfg.appendfsync, &policy);
  std::unique_ptr<AppendLog> log;
  const std::string incr_path = JoinPath(dir, next.files[1].name);
  if (env_->FileExists(incr_path)) (void)env_->RemoveFile(incr_path);  // a stale leftover
  if (s.ok()) s = AppendLog::Open(env_, incr_path, policy, &log, redis);
  if (s.ok()) s = WriteManifest(env_, dir, cfg.appendfilename, next);
  if (!s.ok()) return s;
  LOG_NOTICE("Creating AOF base file %s (%llu keys) and incr file %s", next.files[0].name.c_str(),
             static_cast<unsigned long long>(stats.keys), next.files[1].name.c_str());
  for (const Manifest::File& f : manifest_.files) (void)env_->RemoveFile(JoinPath(dir, f.name));
  manifest_ = next;
  base_bytes_ = stats.bytes;
  incr_history_bytes_ = 0;
  log_ = std::move(log);
  rewrite_base_bytes_ = base_bytes_ + log_->size();
  applied_fsync_ = cfg.appendfsync;
  return Status::OK();
}

// CONFIG SET appendonly yes: a rewrite writes the first base in the
// background; until it succeeds, effects go to a temporary incr and the
// manifest on disk stays as it was. While another child runs (or inside
// MULTI/EXEC) the rewrite waits for the cron.
void PersistManager::BeginEnable() {
  enabling_ = true;
  if (manifest_.files.empty()) {
    // The files an earlier run left (appendonly was off at start): new
    // numbers continue theirs.
    (void)ReadManifest(env_, AofDir(), server_->config().appendfilename, &manifest_);
  }
  if (child_ == ChildKind::kSave || child_ == ChildKind::kReplica) {
    rewrite_scheduled_ = true;
    LOG_WARNING("AOF was turned on while another child process runs: the AOF background was "
                "scheduled to start when it ends.");
    return;
  }
  if (config_set_in_exec_) {
    rewrite_scheduled_ = true;
    LOG_WARNING("AOF was turned on inside MULTI/EXEC: the AOF background was scheduled to start "
                "right after it.");
    return;
  }
  if (child_ == ChildKind::kRewrite) {
    LOG_WARNING("AOF was turned on during a rewrite that does not log: stopping it and starting "
                "a new one.");
    KillChild();
  }
  rewrite_start_pending_ = true;  // BeforeFlush starts it, after this batch
}

void PersistManager::StopLogging() {
  if (child_ == ChildKind::kRewrite) {
    LOG_NOTICE("Killing running AOF rewrite child: %d", static_cast<int>(child_pid_));
    KillChild();
  }
  if (log_) {
    Status s = log_->FlushAndSync();
    if (!s.ok()) {
      LOG_WARNING("Error flushing the AOF before turning it off: %s", s.message().c_str());
    }
    log_.reset();
  }
  if (enabling_) (void)env_->RemoveFile(TempIncrPath());
  enabling_ = false;
  rewrite_scheduled_ = rewrite_start_pending_ = false;
  LOG_NOTICE("Append only file turned off");
}

Status PersistManager::StartRewrite() {
  if (child_ != ChildKind::kNone) {
    rewrite_scheduled_ = true;
    return Status::OK();
  }
  const Config& cfg = server_->config();
  const std::string dir = AofDir();
  Status s = env_->CreateDir(dir);
  if (!s.ok()) return s;
  if (!log_ && !enabling_ && manifest_.files.empty()) {
    (void)ReadManifest(env_, dir, cfg.appendfilename, &manifest_);
  }
  const bool redis = RedisFormat();
  FsyncPolicy policy = FsyncPolicy::kEverySec;
  (void)ParseFsyncPolicy(cfg.appendfsync, &policy);
  if (enabling_) {
    // Effects from the fork on go to the temporary incr (none before: the
    // child's base holds them).
    std::unique_ptr<AppendLog> log;
    (void)env_->RemoveFile(TempIncrPath());
    s = AppendLog::Open(env_, TempIncrPath(), policy, &log, redis);
    if (!s.ok()) return s;
    log_ = std::move(log);
    applied_fsync_ = cfg.appendfsync;
    rewrite_incr_seq_ = 0;
  } else if (log_) {
    s = log_->FlushAndSync();
    if (!s.ok()) return s;
    // Effects from now on go to a new incremental log; the manifest lists
    // it after the old files, so the set stays complete whatever happens.
    const uint64_t seq = manifest_.max_incr_seq() + 1;
    Manifest next = manifest_;
    next.files.push_back({IncrFileName(cfg.appendfilename, seq, redis), seq, false});
    std::unique_ptr<AppendLog> log;
    const std::string incr_path = JoinPath(dir, next.files.back().name);
    if (env_->FileExists(incr_path)) (void)env_->RemoveFile(incr_path);  // a stale leftover
    s = AppendLog::Open(env_, incr_path, log_->policy(), &log, redis);
    if (s.ok()) s = WriteManifest(env_, dir, cfg.appendfilename, next);
    if (!s.ok()) return s;
    manifest_ = next;
    incr_history_bytes_ += log_->size();
    log_ = std::move(log);
    rewrite_incr_seq_ = seq;
  } else {
    rewrite_incr_seq_ = UINT64_MAX;  // the log is off: the new manifest names no incr
  }
  rewrite_seq_ = manifest_.max_base_seq() + 1;
  rewrite_base_name_ = BaseFileName(cfg.appendfilename, rewrite_seq_, redis);
  if (!ForkChild(ChildKind::kRewrite, JoinPath(dir, rewrite_base_name_))) {
    return Status::IOError("fork", strerror(errno));
  }
  aof_rewrites_++;  // INFO aof_rewrites counts the children started, as Redis
  LOG_NOTICE("Background append only file rewriting started by pid %d",
             static_cast<int>(child_pid_));
  return Status::OK();
}

void PersistManager::FinishRewrite(bool ok) {
  const Config& cfg = server_->config();
  const std::string dir = AofDir();
  Manifest next;
  std::unique_ptr<AppendLog> renamed;
  if (ok) {
    next.files.push_back({rewrite_base_name_, rewrite_seq_, true});
    if (enabling_ && log_) {
      // The temporary incr becomes the manifest's incr.
      const uint64_t seq = manifest_.max_incr_seq() + 1;
      const std::string name = IncrFileName(cfg.appendfilename, seq, RedisFormat());
      Status s = log_->FlushAndSync();
      if (s.ok()) s = env_->RenameFile(TempIncrPath(), JoinPath(dir, name));
      if (s.ok()) s = AppendLog::Open(env_, JoinPath(dir, name), log_->policy(), &renamed,
                                      RedisFormat());
      if (!s.ok()) LOG_WARNING("Error renaming the temporary incr AOF: %s", s.message().c_str());
      ok = s.ok();
      next.files.push_back({name, seq, false});
    } else {
      for (const Manifest::File& f : manifest_.files) {
        if (!f.base && f.seq >= rewrite_incr_seq_) next.files.push_back(f);
      }
    }
  }
  // What the new manifest no longer loads: history under
  // aof-disable-auto-gc (newest first), else deleted once it is written.
  std::vector<Manifest::File> replaced;
  for (const Manifest::File& f : manifest_.files) {
    bool kept = false;
    for (const Manifest::File& n : next.files) kept |= n.name == f.name;
    if (!kept) replaced.push_back(f);
  }
  next.history = manifest_.history;
  if (ok && AutoGcDisabled(cfg)) {
    for (const Manifest::File& f : replaced) next.history.insert(next.history.begin(), f);
  }
  if (ok) {
    Status s = WriteManifest(env_, dir, cfg.appendfilename, next);
    if (!s.ok()) {
      LOG_WARNING("Error writing the AOF manifest: %s", s.message().c_str());
      ok = false;
    }
  }
  if (!ok) {
    LOG_WARNING("Background AOF rewrite terminated with error");
    (void)env_->RemoveFile(JoinPath(dir, rewrite_base_name_));
    last_rewrite_ok_ = false;
    rewrite_failures_++;
    if (enabling_) {
      // The next attempt starts a new temporary incr; the cron retries.
      LOG_NOTICE("Removing the temp incr aof file %s in the background", TempIncrPath().c_str());
      log_.reset();
      renamed.reset();
      (void)env_->RemoveFile(TempIncrPath());
      rewrite_scheduled_ = true;
    }
    return;
  }
  if (renamed) log_ = std::move(renamed);
  enabling_ = false;
  manifest_ = next;
  if (!AutoGcDisabled(cfg)) {
    for (const Manifest::File& f : replaced) (void)env_->RemoveFile(JoinPath(dir, f.name));
    CollectHistory();
  }
  (void)env_->GetFileSize(JoinPath(dir, next.files[0].name), &base_bytes_);
  incr_history_bytes_ = 0;
  rewrite_base_bytes_ = base_bytes_ + (log_ ? log_->size() : 0);
  last_rewrite_ok_ = true;
  rewrite_failures_ = 0;
  LOG_NOTICE("Background AOF rewrite terminated with success");
  LOG_NOTICE("Background AOF rewrite finished successfully");
}

void PersistManager::CollectHistory() {
  if (manifest_.history.empty() || AutoGcDisabled(server_->config())) return;
  Manifest next = manifest_;
  next.history.clear();
  Status s = WriteManifest(env_, AofDir(), server_->config().appendfilename, next);
  if (!s.ok()) {
    LOG_WARNING("Error writing the AOF manifest: %s", s.message().c_str());
    return;
  }
  for (const Manifest::File& f : manifest_.history) {
    LOG_NOTICE("Removing the history file %s", f.name.c_str());
    (void)env_->RemoveFile(JoinPath(AofDir(), f.name));
  }
  manifest_ = next;
}

bool PersistManager::RewriteLimited() {
  if (rewrite_failures_ < kLimitFailures) {
    limit_minutes_ = 0;
    limit_until_s_ = 0;
    return false;
  }
  const int64_t now_s = WallMs() / 1000;
  if (limit_until_s_ != 0) {
    if (now_s < limit_until_s_) return true;
    limit_until_s_ = 0;  // one attempt when the hold ends
    return false;
  }
  limit_minutes_ = limit_minutes_ == 0 ? 1 : std::min(limit_minutes_ * 2, kLimitMaxMinutes);
  limit_until_s_ = now_s + limit_minutes_ * 60;
  LOG_WARNING("Background AOF rewrite failed %llu times in a row and triggered the limit: the next "
              "automatic one waits %lld minutes",
              static_cast<unsigned long long>(rewrite_failures_),
              static_cast<long long>(limit_minutes_));
  return true;
}

}  // namespace rankd
