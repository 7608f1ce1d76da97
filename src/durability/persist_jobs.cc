// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// PersistManager: snapshots (SAVE, BGSAVE), log generations (turning the
// log on, BGREWRITEAOF) and the fork()ed children that write them.

#include <dirent.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "base/clock.h"
#include "base/logging.h"
#include "durability/persist_manager.h"
#include "persist/key_delay.h"
#include "persist/rdb_file.h"
#include "persist/snapshot.h"
#include "scripting/script_engine.h"
#include "server/oom_score.h"

namespace rankd {
namespace {

std::vector<Database*> AllDbs(Server& server) {
  std::vector<Database*> dbs;
  for (int i = 0; i < server.db_count(); i++) dbs.push_back(&server.db(i));
  return dbs;
}

std::string TempName(bool rewrite, const std::string& aof_dir, pid_t pid) {
  if (rewrite) return JoinPath(aof_dir, "temp-rewriteaof-bg-" + std::to_string(pid) + ".aof");
  return "temp-" + std::to_string(pid) + ".rdb";
}

}  // namespace

// The child needs no sockets: closing its copies frees the listening port
// at once if the parent dies while the child still writes.
void CloseSocketsInChild() {
  std::vector<int> fds;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') fds.push_back(atoi(e->d_name));
    }
    closedir(d);
  }
  for (int fd : fds) {
    struct stat st;
    if (fd > 2 && fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode)) close(fd);
  }
}

SnapshotAux PersistManager::MakeSnapshotAux() const {
  SnapshotAux aux;
  // As Redis's rdbSaveInfoAuxFields: the replication history this data set
  // continues (server/repl_history.cc), first, so a loader knows it before
  // the keys.
  if (std::optional<Replication::History> h = server_->replication().SnapshotHistory()) {
    aux.emplace_back("repl-stream-db", std::to_string(h->stream_db));
    aux.emplace_back("repl-id", h->replid);
    aux.emplace_back("repl-offset", std::to_string(h->offset));
  }
  FunctionLibraries& fl = ScriptEngine::Of(*server_).functions();
  if (!fl.libraries().empty()) aux.emplace_back("functions", fl.Dump());
  return aux;
}

Status PersistManager::WriteRdbFile(const std::string& path, const std::string& tmp_path,
                                    std::span<Database* const> dbs, SnapshotWriteStats* stats,
                                    bool aof_base) {
  const Config& cfg = server_->config();
  const DumpOptions values{cfg.rdbcompression, cfg.list_max_listpack_size};
  SnapshotAux aux = MakeSnapshotAux();
  if (!RedisFormat()) return WriteSnapshot(env_, path, tmp_path, dbs, stats, aux);
  if (aof_base) aux.emplace_back("aof-base", "1");
  // Keys past their deadline that are still there (no lookup or expiry
  // cycle met them yet) are written too, as Redis does: suspended expiry
  // lets the writer see them without deleting them here.
  for (Database* db : dbs) db->set_expiry_suspended(true);
  Status s = WriteRedisRdbFile(env_, path, tmp_path, dbs, aux, values, stats);
  for (Database* db : dbs) db->set_expiry_suspended(false);
  return s;
}

Status PersistManager::Save() {
  if (child_ == ChildKind::kSave || child_ == ChildKind::kReplica) {
    return Status::InvalidArgument("Background save already in progress");
  }
  return SaveSync(DumpPath());
}

Status PersistManager::SaveSync(const std::string& path) {
  SnapshotWriteStats stats;
  std::vector<Database*> dbs = AllDbs(*server_);
  SetKeySaveDelay(server_->config().CompatInt("rdb-key-save-delay"));
  Status s = WriteRdbFile(path, TempName(false, "", getpid()), dbs, &stats);
  SetKeySaveDelay(0);
  if (!s.ok()) {
    LOG_WARNING("Write error saving DB on disk: %s", s.message().c_str());
    return s;
  }
  LOG_NOTICE("DB saved on disk");
  server_->stats().dirty = 0;
  lastsave_s_ = WallMs() / 1000;
  last_bgsave_ok_ = true;
  rdb_saves_++;
  return Status::OK();
}

std::string PersistManager::BgSave(bool schedule, bool* scheduled) {
  *scheduled = false;
  // As Redis: a full sync's snapshot is a BGSAVE too.
  if (child_ == ChildKind::kSave || child_ == ChildKind::kReplica) {
    return "ERR Background save already in progress";
  }
  if (child_ == ChildKind::kRewrite) {
    if (schedule) {
      bgsave_scheduled_ = true;
      *scheduled = true;
      return "";
    }
    return "ERR Another child process is active (AOF?): can't BGSAVE right now. Use BGSAVE "
           "SCHEDULE in order to schedule a BGSAVE whenever possible.";
  }
  bgsave_scheduled_ = false;
  dirty_at_fork_ = server_->stats().dirty;
  last_bgsave_try_ms_ = MonoMs();
  if (!ForkChild(ChildKind::kSave, DumpPath())) {
    last_bgsave_ok_ = false;
    return "ERR Can't save in background: fork: " + std::string(strerror(errno));
  }
  LOG_NOTICE("Background saving started by pid %d", static_cast<int>(child_pid_));
  return "";
}

std::string PersistManager::BgRewrite(bool* scheduled, bool in_exec) {
  *scheduled = false;
  if (child_ == ChildKind::kRewrite) {
    return "ERR Background append only file rewriting already in progress";
  }
  if (child_ == ChildKind::kSave || child_ == ChildKind::kReplica || in_exec) {
    rewrite_scheduled_ = true;
    rewrite_failures_ = 0;  // asked for: no hold (RewriteLimited)
    *scheduled = true;
    return "";
  }
  // The switch to a new log waits for the batch boundary, but whether the
  // log directory takes new files is known now: Redis opens its new
  // incremental file inside the command and refuses at once.
  Status s = CheckLogDirWritable();
  if (!s.ok()) {
    LOG_WARNING("Can't rewrite append only file in background: %s", s.message().c_str());
    last_rewrite_ok_ = false;
    return "ERR Can't execute an AOF background rewriting. Please check the server logs for more "
           "information.";
  }
  rewrite_start_pending_ = true;  // BeforeFlush starts it between batches
  return "";
}

Status PersistManager::CheckLogDirWritable() {
  const std::string dir = AofDir();
  Status s = env_->CreateDir(dir);
  if (!s.ok()) return s;
  // The name CleanAofDir() removes should a crash leave it behind.
  const std::string probe = JoinPath(dir, "temp-rewriteaof-probe-" + std::to_string(getpid()));
  std::unique_ptr<WritableFile> f;
  s = env_->NewWritableFile(probe, &f);
  if (!s.ok()) return s;
  s = f->Close();
  Status r = env_->RemoveFile(probe);
  return s.ok() ? r : s;
}

pid_t PersistManager::CountedFork() {
  const int64_t start = MonoUs();
  const pid_t pid = fork();
  if (pid == 0) {
    SetKeySaveDelay(server_->config().CompatInt("rdb-key-save-delay"));
    (void)ApplyOomScoreAdj(server_->config(), OomClass::kChild);
  }
  if (pid > 0) {
    ServerStats& stats = server_->stats();
    stats.total_forks++;
    stats.latest_fork_usec = MonoUs() - start;
    // As Redis: the fork's stop of the main thread is a latency event.
    server_->AddLatencySample("fork", stats.latest_fork_usec / 1000);
  }
  return pid;
}

bool PersistManager::ForkChild(ChildKind kind, const std::string& final_path) {
  const bool rewrite = kind == ChildKind::kRewrite;
  const int64_t start = MonoMs();
  uint64_t keys = 0;
  for (int i = 0; i < server_->db_count(); i++) keys += server_->db(i).size();
  (void)child_info_.Open(keys);  // without it the child reports nothing
  cow_peak_ = 0;
  pid_t pid = CountedFork();
  if (pid < 0) {
    LOG_WARNING("Can't fork: %s", strerror(errno));
    (void)child_info_.Finish();
    return false;
  }
  if (pid == 0) {
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    CloseSocketsInChild();
    child_info_.StartReporting();
    SnapshotWriteStats stats;
    std::vector<Database*> dbs = AllDbs(*server_);
    const std::string tmp = TempName(rewrite, AofDir(), getpid());
    Status s = WriteRdbFile(final_path, tmp, dbs, &stats, /*aof_base=*/rewrite);
    if (!s.ok()) {
      LOG_WARNING("Write error saving DB on disk: %s", s.message().c_str());
      _exit(1);
    }
    if (rewrite) {
      LOG_NOTICE("Successfully created the temporary AOF base file %s", final_path.c_str());
    } else {
      LOG_NOTICE("DB saved on disk");
    }
    child_info_.ReportDone();
    _exit(0);
  }
  child_info_.ParentForked();
  child_ = kind;
  child_pid_ = pid;
  child_tmp_ = TempName(rewrite, AofDir(), pid);
  child_final_ = final_path;
  child_start_ms_ = start;
  return true;
}

void PersistManager::ReapChild(bool wait) {
  if (child_ == ChildKind::kNone) return;
  int status = 0;
  pid_t r = waitpid(child_pid_, &status, wait ? 0 : WNOHANG);
  if (r == 0 || (r < 0 && errno == EINTR)) return;
  const bool ok = r == child_pid_ && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  const int64_t secs = (MonoMs() - child_start_ms_) / 1000;
  const ChildKind kind = child_;
  StopWatchingChild();
  child_ = ChildKind::kNone;
  child_pid_ = -1;
  const uint64_t cow = child_info_.Finish();
  if (kind == ChildKind::kSave) rdb_last_cow_ = cow;
  if (kind == ChildKind::kRewrite) aof_last_cow_ = cow;
  if (!ok) (void)env_->RemoveFile(child_tmp_);
  if (kind == ChildKind::kSave) {
    last_bgsave_secs_ = secs;
    last_bgsave_ok_ = ok;
    if (ok) {
      LOG_NOTICE("Background saving terminated with success");
      uint64_t& dirty = server_->stats().dirty;
      dirty -= std::min(dirty, dirty_at_fork_);
      lastsave_s_ = WallMs() / 1000;
      rdb_saves_++;
    } else {
      LOG_WARNING("Background saving error");
    }
  } else if (kind == ChildKind::kReplica) {
    if (ok) LOG_NOTICE("Background RDB transfer terminated with success");
    server_->replication().SnapshotDone(ok);
  } else {
    last_rewrite_secs_ = secs;
    FinishRewrite(ok);
  }
}

void PersistManager::WatchChildExit() {
  ReapChild(/*wait=*/false);
  if (child_ == ChildKind::kNone || child_exit_fd_ >= 0) return;
#ifdef SYS_pidfd_open
  const int fd = static_cast<int>(syscall(SYS_pidfd_open, child_pid_, 0));
  if (fd < 0) return;  // the cron reaps it
  if (!server_->loop().AddFd(fd, EPOLLIN, [this](uint32_t) { ReapChild(/*wait=*/false); })) {
    close(fd);
    return;
  }
  child_exit_fd_ = fd;
#endif
}

void PersistManager::StopWatchingChild() {
  if (child_exit_fd_ < 0) return;
  server_->loop().RemoveFd(child_exit_fd_);
  close(child_exit_fd_);
  child_exit_fd_ = -1;
}

void PersistManager::KillChild() {
  if (child_ == ChildKind::kNone) return;
  StopWatchingChild();
  kill(child_pid_, SIGKILL);
  int status;
  while (waitpid(child_pid_, &status, 0) < 0 && errno == EINTR) {
  }
  (void)env_->RemoveFile(child_tmp_);
  if (child_ == ChildKind::kRewrite) (void)env_->RemoveFile(child_final_);
  (void)child_info_.Finish();
  child_ = ChildKind::kNone;
  child_pid_ = -1;
}

}  // namespace rankd
