// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Replication, primary side: the full sync's snapshot, as Redis 7.0's
// syncCommand / startBgsaveForReplication / replicationStartPendingFork.
//
// A replica that needs a full sync waits (kWaitStart) until a fork()ed child
// writes a snapshot of the data set (the durability layer's BGSAVE
// mechanism: the event loop only forks); every replica waiting then gets
// "+FULLRESYNC <replid> <offset at the fork>" and the same snapshot
// (kWaitEnd), and collects the stream from the fork on aside (pending),
// sent right after the snapshot (kOnline).
// - repl-diskless-sync yes (replicas with capa eof): the child writes into
//   a pipe; the event loop forwards what it reads as "$EOF:<mark>" ...
//   <mark> while the child writes. repl-diskless-sync-delay seconds (or
//   repl-diskless-sync-max-replicas replicas) gather replicas for it.
// - no: the child writes a file, sent as "$<len>" once complete; a replica
//   arriving meanwhile attaches to it (the stream since the fork copied from
//   another waiting replica).
// What is held aside for a replica (pending) counts toward its output limit
// (client-output-buffer-limit replica: Connection::set_held_output); the
// snapshot's bytes do not (Connection::AppendExempt), as Redis sends
// its RDB outside the output buffer. Past the limit the replica is closed
// (repl_primary.cc's AppendStream) and what was held freed.
// Reading stops while a receiving replica has more than kPumpHigh bytes
// unsent, and each event-loop pass forwards at most kPumpChunk bytes, so
// the loop never stalls for long. Replicas waiting get "\n" every second
// (Redis's keep-alive before the payload).

#include <fcntl.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/clock.h"
#include "base/logging.h"
#include "server/replication.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr size_t kPumpHigh = 16u << 20;    // per replica, unsent
constexpr size_t kPumpChunk = 4u << 20;    // per event-loop pass
constexpr int64_t kStartCheckMs = 100;     // Redis's serverCron period

}  // namespace

std::string_view ReplicaInfo::state_name() const {
  switch (sync) {
    case Sync::kWaitStart:
      return "wait_bgsave";
    case Sync::kWaitEnd:
      return "send_bulk";
    case Sync::kOnline:
      return "online";
  }
  return "online";
}

ReplicaInfo* Replication::FindReplica(uint64_t client_id) {
  for (ReplicaInfo& r : replicas_) {
    if (r.client_id == client_id) return &r;
  }
  return nullptr;
}

void Replication::DropHeld(ReplicaInfo& r) {
  r.pending.clear();
  r.pending.shrink_to_fit();
  if (Connection* conn = server_->net().Find(r.client_id)) conn->set_held_output(0);
}

std::string Replication::StartFullSync(Client& c, bool pre_psync) {
  if (!start_snapshot) return "ERR Replication is not available";
  // As Redis: a primary's first replica starts a new history with a backlog.
  if (!backlog_ && !is_replica()) {
    replid_ = RandomReplid();
    replid2_ = std::string(40, '0');
    second_offset_ = -1;
    CreateBacklog();
  }
  sync_full_++;
  AddReplica(c);
  ReplicaInfo& me = *FindReplica(c.id);
  me.sync = ReplicaInfo::Sync::kWaitStart;
  me.wait_since_ms = MonoMs();
  const Announced said = announced_.contains(c.id) ? announced_[c.id] : Announced{};
  me.capa_eof = said.eof;
  me.capa_rankd = said.rankd;
  me.rdb_only = said.rdb_only;
  me.pre_psync = pre_psync;
  // Disk: a snapshot being written for other replicas serves this one too.
  if (job_ == Job::kChild && !job_diskless_) {
    for (const ReplicaInfo& other : replicas_) {
      if (other.client_id == c.id || other.sync != ReplicaInfo::Sync::kWaitEnd) continue;
      if (other.capa_rankd != me.capa_rankd) continue;  // the other format
      // One being closed (past its output limit) no longer holds the stream.
      if (!server_->net().Find(other.client_id)) continue;
      me.sync = ReplicaInfo::Sync::kWaitEnd;
      me.pending = other.pending;
      SendFullResync(me, *c.conn);
      c.conn->set_held_output(me.pending.size());
      LOG_NOTICE("Waiting for end of BGSAVE for SYNC");
      return "";
    }
  }
  if (job_ != Job::kNone) {
    LOG_NOTICE("Can't attach the replica to the current BGSAVE. Waiting for next BGSAVE for SYNC");
  }
  MaybeStartSnapshot();
  ArmStartTimer();
  return "";
}

void Replication::ArmStartTimer() {
  if (start_timer_) return;
  bool waiting = false;
  for (const ReplicaInfo& r : replicas_) waiting |= r.sync == ReplicaInfo::Sync::kWaitStart;
  if (!waiting) return;
  start_timer_ = server_->loop().AddTimer(kStartCheckMs, [this] {
    start_timer_ = 0;
    MaybeStartSnapshot();
    ArmStartTimer();
  });
}

void Replication::MaybeStartSnapshot() {
  if (job_ != Job::kNone || (child_busy && child_busy())) return;
  const Config& cfg = server_->config();
  const int64_t now = MonoMs();
  // One snapshot serves the replicas of one format (rankd's own, or a Redis
  // RDB): the longest waiting decides, the others wait for the next.
  int64_t waiting = 0, oldest = now;
  bool all_eof = true, rankd_format = false;
  for (const ReplicaInfo& r : replicas_) {
    if (r.sync != ReplicaInfo::Sync::kWaitStart || r.wait_since_ms > oldest) continue;
    oldest = r.wait_since_ms;
    rankd_format = r.capa_rankd;
  }
  for (const ReplicaInfo& r : replicas_) {
    if (r.sync != ReplicaInfo::Sync::kWaitStart || r.capa_rankd != rankd_format) continue;
    waiting++;
    oldest = std::min(oldest, r.wait_since_ms);
    all_eof &= r.capa_eof;
  }
  if (waiting == 0) return;
  auto flag = cfg.compat_bools.find("repl-diskless-sync");
  const bool diskless = all_eof && flag != cfg.compat_bools.end() && flag->second;
  if (diskless) {
    const int64_t delay_s = cfg.CompatInt("repl-diskless-sync-delay", 5);
    const int64_t max_n = cfg.CompatInt("repl-diskless-sync-max-replicas");
    if ((now - oldest) < delay_s * 1000 && (max_n == 0 || waiting < max_n)) return;
  }
  int fd = -1;
  std::string path;
  std::string err = start_snapshot(diskless, !rankd_format, &fd, &path);
  if (!err.empty()) {
    LOG_WARNING("BGSAVE for replication failed: %s", err.c_str());
    for (const ReplicaInfo& r : replicas_) {
      if (r.sync != ReplicaInfo::Sync::kWaitStart || r.capa_rankd != rankd_format) continue;
      if (Connection* conn = server_->net().Find(r.client_id)) {
        conn->reply()->Raw("-ERR BGSAVE failed, replication can't continue\r\n");
        conn->CloseAfterReply();
        conn->ScheduleFlush();
      }
    }
    return;
  }
  job_ = Job::kChild;
  job_diskless_ = diskless;
  job_fd_ = fd;
  job_path_ = path;
  job_eof_ = job_child_done_ = job_child_ok_ = false;
  job_offset_ = offset_;
  job_mark_.clear();
  if (diskless) {
    job_mark_ = RandomReplid();  // 40 random hex digits
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  }
  LOG_NOTICE("Starting BGSAVE for SYNC with target: %s",
             diskless ? "replicas sockets" : "disk");
  for (ReplicaInfo& r : replicas_) {
    if (r.sync != ReplicaInfo::Sync::kWaitStart || r.capa_rankd != rankd_format) continue;
    r.sync = ReplicaInfo::Sync::kWaitEnd;
    r.pending.clear();
    Connection* conn = server_->net().Find(r.client_id);
    if (!conn) continue;
    SendFullResync(r, *conn);
    if (diskless) conn->AppendExempt("$EOF:" + job_mark_ + "\r\n");
    conn->set_held_output(0);
    conn->ScheduleFlush();
  }
  last_db_ = -1;  // the replicas' stream starts with a SELECT
  if (diskless) {
    job_fd_polled_ = server_->loop().AddFd(job_fd_, EPOLLIN, [this](uint32_t) { PumpSnapshot(); });
    if (!job_fd_polled_) PauseOrContinuePump(true);
  }
}

void Replication::SnapshotDone(bool ok) {
  if (job_ != Job::kChild) return;
  job_child_done_ = true;
  job_child_ok_ = ok;
  if (job_diskless_) {
    if (job_eof_ && !job_reaping_) FinishSnapshot(ok);
    return;  // else the pipe's end finishes it
  }
  if (!ok) return FinishSnapshot(false);
  // Disk: the file is complete; send it.
  job_fd_ = open(job_path_.c_str(), O_RDONLY | O_CLOEXEC);
  off_t size = job_fd_ < 0 ? -1 : lseek(job_fd_, 0, SEEK_END);
  if (size < 0 || lseek(job_fd_, 0, SEEK_SET) < 0) {
    LOG_WARNING("Can't open the snapshot for SYNC %s: %s", job_path_.c_str(), strerror(errno));
    return FinishSnapshot(false);
  }
  job_ = Job::kSending;
  SendToReceivers("$" + std::to_string(size) + "\r\n");
  PumpSnapshot();
}

void Replication::SendToReceivers(std::string_view bytes) {
  for (const ReplicaInfo& r : replicas_) {
    if (r.sync != ReplicaInfo::Sync::kWaitEnd) continue;
    if (Connection* conn = server_->net().Find(r.client_id)) {
      conn->AppendExempt(bytes);  // the snapshot: not the output limit's
      conn->ScheduleFlush();
    }
  }
}

void Replication::PauseOrContinuePump(bool paused) {
  if (job_fd_polled_) {
    server_->loop().ModifyFd(job_fd_, paused ? 0u : static_cast<uint32_t>(EPOLLIN));
  }
  // A file, or a pipe while receivers are full: poll on a timer.
  if (!job_fd_polled_ || paused) {
    if (pump_timer_) return;
    pump_timer_ = server_->loop().AddTimer(paused ? 5 : 0, [this] {
      pump_timer_ = 0;
      if (job_fd_polled_) server_->loop().ModifyFd(job_fd_, EPOLLIN);
      PumpSnapshot();
    });
  }
}

void Replication::PumpSnapshot() {
  if (job_fd_ < 0 || job_eof_) return;
  static char buf[64 * 1024];
  size_t sent = 0;
  while (sent < kPumpChunk) {
    for (const ReplicaInfo& r : replicas_) {
      if (r.sync != ReplicaInfo::Sync::kWaitEnd) continue;
      Connection* conn = server_->net().Find(r.client_id);
      if (conn && conn->output_buffer_size() > kPumpHigh) return PauseOrContinuePump(true);
    }
    ssize_t n = read(job_fd_, buf, sizeof(buf));
    if (n > 0) {
      SendToReceivers(std::string_view(buf, static_cast<size_t>(n)));
      sent += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;  // the pipe wakes us
    if (n < 0) LOG_WARNING("Error reading the snapshot for SYNC: %s", strerror(errno));
    // The end: a diskless snapshot is complete once its child exited well.
    job_eof_ = true;
    if (job_fd_polled_) server_->loop().RemoveFd(job_fd_);
    job_fd_polled_ = false;
    close(job_fd_);
    job_fd_ = -1;
    if (!job_diskless_) return FinishSnapshot(n == 0);
    if (!job_child_done_ && reap_snapshot) {
      job_reaping_ = true;
      reap_snapshot();  // the child closed the pipe: it is exiting
      job_reaping_ = false;
    }
    // Still exiting: SnapshotDone() finishes it once reaped.
    if (!job_child_done_ && reap_snapshot) return;
    return FinishSnapshot(job_child_done_ && job_child_ok_);
  }
  PauseOrContinuePump(false);
}

void Replication::FinishSnapshot(bool ok) {
  if (job_ == Job::kNone) return;
  if (job_fd_ >= 0) {
    if (job_fd_polled_) server_->loop().RemoveFd(job_fd_);
    close(job_fd_);
  }
  job_fd_ = -1;
  job_fd_polled_ = false;
  if (pump_timer_) server_->loop().CancelTimer(pump_timer_);
  pump_timer_ = 0;
  if (!job_path_.empty()) unlink(job_path_.c_str());
  job_path_.clear();
  job_ = Job::kNone;
  for (ReplicaInfo& r : replicas_) {
    if (r.sync != ReplicaInfo::Sync::kWaitEnd) continue;
    Connection* conn = server_->net().Find(r.client_id);
    if (!conn) continue;
    if (!ok) {
      LOG_WARNING("SYNC failed. BGSAVE child returned an error");
      conn->Kill();
      continue;
    }
    if (job_diskless_) conn->AppendExempt(job_mark_);
    if (r.rdb_only) {
      // As Redis 7.0: the snapshot was all it asked for; no stream follows.
      LOG_NOTICE("RDB transfer completed, rdb only replica (%s) should be disconnected asap",
                 conn->peer().c_str());
      DropHeld(r);
      conn->CloseAfterReply();
      conn->ScheduleFlush();
      continue;
    }
    conn->reply()->Raw(r.pending);  // counted already (held): now in the buffer
    conn->ScheduleFlush();
    DropHeld(r);
    r.sync = ReplicaInfo::Sync::kOnline;
    r.last_ack_ms = MonoMs();
    LOG_NOTICE("Synchronization with replica %s succeeded", conn->peer().c_str());
  }
  std::erase_if(replicas_, [](const ReplicaInfo& r) {
    return r.rdb_only && r.sync == ReplicaInfo::Sync::kWaitEnd;
  });
  // Replicas that came during this one get the next.
  MaybeStartSnapshot();
  ArmStartTimer();
}

void Replication::SendKeepAlives() {
  for (const ReplicaInfo& r : replicas_) {
    const bool presync = r.sync == ReplicaInfo::Sync::kWaitStart ||
                         (r.sync == ReplicaInfo::Sync::kWaitEnd && job_ == Job::kChild &&
                          !job_diskless_);
    if (!presync) continue;
    if (Connection* conn = server_->net().Find(r.client_id)) {
      conn->AppendExempt("\n");
      conn->ScheduleFlush();
    }
  }
}

}  // namespace rankd
