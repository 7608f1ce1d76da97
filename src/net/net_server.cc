// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// NetServer: the once-per-iteration flush, deferred closing and the
// connection cron. Listening and accepting are in listener.cc,
// per-connection I/O in connection.cc.
//
// Why closing is deferred: a handler may Kill() any connection, including
// the one whose command is running, and the caller may still hold pointers
// (blocked-client lists, ForEach). Kill() only unregisters the fd; OnClose
// and destruction happen in ReapClosed(), at the end of the iteration.

#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>

#include "base/clock.h"
#include "base/logging.h"
#include "net/connection.h"

namespace rankd {
namespace {

constexpr int64_t kCronMs = 1000;
constexpr int64_t kIdleBufferFreeMs = 2000;  // free idle clients' read buffers

}  // namespace

NetServer::NetServer(EventLoop* loop, ConnectionHandler* handler)
    : loop_(loop), handler_(handler) {
  hook_id_ = loop_->AddBeforeSleep([this] { BeforeSleep(); });
  cron_timer_ = loop_->AddTimer(kCronMs, [this] { Cron(); });
}

NetServer::~NetServer() {
  loop_->CancelTimer(cron_timer_);
  if (accept_retry_timer_ != 0) loop_->CancelTimer(accept_retry_timer_);
  loop_->RemoveBeforeSleep(hook_id_);
  for (int fd : listen_fds_) {
    loop_->RemoveFd(fd);
    close(fd);
  }
  for (auto& [id, c] : conns_) {
    if (!c->killed_) loop_->RemoveFd(c->fd_);
    close(c->fd_);
  }
}

void NetServer::set_limits(const NetLimits& limits) {
  limits_ = limits;
  for (auto& [id, c] : conns_) ArmOutputLimit(c.get());
}

Connection* NetServer::Find(uint64_t id) const {
  auto it = conns_.find(id);
  return it == conns_.end() || it->second->killed_ ? nullptr : it->second.get();
}

void NetServer::MarkWrite(Connection* c) {
  if (c->killed_ || c->in_write_list_) return;
  c->in_write_list_ = true;
  write_list_.push_back(c);
  if (busy_ == 0) loop_->SkipNextWait();  // e.g. from a later hook
}

void NetServer::MarkInput(Connection* c) {
  if (c->killed_ || c->in_input_list_) return;
  c->in_input_list_ = true;
  input_list_.push_back(c);
  if (busy_ == 0) loop_->SkipNextWait();
}

void NetServer::Kill(Connection* c) {
  if (c->killed_) return;
  c->killed_ = true;
  loop_->RemoveFd(c->fd_);  // the fd stays open until ReapClosed: no reuse
  c->events_ = 0;
  close_list_.push_back(c);
  if (busy_ == 0) loop_->SkipNextWait();
}

void NetServer::BeforeSleep() {
  busy_++;
  // Resumed (unblocked) and unthrottled connections run their buffered
  // commands first, so those replies go out with this flush. A few rounds:
  // running them may resume others.
  for (int round = 0; round < 8 && !input_list_.empty(); round++) {
    std::vector<Connection*> batch;
    batch.swap(input_list_);
    for (Connection* c : batch) {
      c->in_input_list_ = false;
      if (!c->killed_) ProcessInput(c);
    }
  }
  handler_->BeforeFlush();
  for (Connection* c : write_list_) {
    c->in_write_list_ = false;
    if (c->killed_) continue;
    c->flushable_ = c->reply_.buffer().size();
    if (c->EnforceOutputLimit()) continue;
    if (!c->want_write_) WriteTo(c);  // else EPOLLOUT takes it from here
  }
  write_list_.clear();
  ReapClosed();
  busy_--;
  if (!write_list_.empty() || !input_list_.empty() || !close_list_.empty()) {
    loop_->SkipNextWait();
  }
}

void NetServer::ReapClosed() {
  while (!close_list_.empty()) {
    std::vector<Connection*> batch;
    batch.swap(close_list_);
    auto dead = [](Connection* c) { return c->killed_; };
    std::erase_if(write_list_, dead);
    std::erase_if(input_list_, dead);
    for (Connection* c : batch) {
      handler_->OnClose(c);  // may Kill() others: they join close_list_
      close(c->fd_);
      conns_.erase(c->id_);
    }
  }
}

void NetServer::CloseAll() {
  for (int fd : listen_fds_) {
    loop_->RemoveFd(fd);
    close(fd);
  }
  listen_fds_.clear();
  if (unix_fd_ >= 0) unlink(unix_path_.c_str());  // as Redis, at shutdown
  unix_fd_ = -1;
  for (auto& [id, c] : conns_) Kill(c.get());
  if (busy_ == 0) ReapClosed();  // else at the end of this iteration
}

void NetServer::Cron() {
  cron_timer_ = loop_->AddTimer(kCronMs, [this] { Cron(); });
  const int64_t now = MonoMs();
  const int64_t idle_ms = limits_.idle_timeout_s * 1000;
  for (auto& [id, cp] : conns_) {
    Connection* c = cp.get();
    if (c->killed_) continue;
    const int64_t idle = now - c->last_active_ms_;
    // As Redis: blocked (paused) clients, pub/sub subscribers, replicas and
    // MONITOR clients are exempt.
    const bool exempt = c->paused_ || c->pubsub_class_ || c->replica_class_ || c->idle_exempt_;
    if (idle_ms > 0 && !exempt && idle > idle_ms) {
      LOG_VERBOSE("Closing idle client id=%llu addr=%s", static_cast<unsigned long long>(id),
                  c->peer_.c_str());
      Kill(c);
      continue;
    }
    if (c->in_.empty() && c->in_.capacity() > 0 && idle > kIdleBufferFreeMs) c->in_.Release();
    // A client over its soft output limit that stopped reading gets no new
    // replies to trigger the check: the cron does it.
    if (c->soft_limit_since_ms_ >= 0) c->EnforceOutputLimit();
  }
}

}  // namespace rankd
