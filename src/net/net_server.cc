// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// NetServer: listening, accepting, the once-per-iteration flush, deferred
// closing and the connection cron. Per-connection I/O is in connection.cc.
//
// Why closing is deferred: a handler may Kill() any connection, including
// the one whose command is running, and the caller may still hold pointers
// (blocked-client lists, ForEach). Kill() only unregisters the fd; OnClose
// and destruction happen in ReapClosed(), at the end of the iteration.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/clock.h"
#include "base/logging.h"
#include "net/connection.h"

namespace rankd {
namespace {

constexpr int kBacklog = 511;           // tcp-backlog
constexpr int kMaxAcceptsPerCall = 1000;
constexpr int kKeepAliveSec = 300;      // tcp-keepalive
constexpr int64_t kCronMs = 1000;
constexpr int64_t kAcceptRetryMs = 100;
constexpr int64_t kIdleBufferFreeMs = 2000;  // free idle clients' read buffers

// "1.2.3.4:5" or "[::1]:5", as Redis's anetFormatAddr.
std::string FormatAddr(const sockaddr_storage& sa) {
  char ip[INET6_ADDRSTRLEN] = "?";
  int port = 0;
  if (sa.ss_family == AF_INET) {
    auto* in = reinterpret_cast<const sockaddr_in*>(&sa);
    inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
    port = ntohs(in->sin_port);
    return std::string(ip) + ":" + std::to_string(port);
  }
  if (sa.ss_family == AF_INET6) {
    auto* in6 = reinterpret_cast<const sockaddr_in6*>(&sa);
    inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof(ip));
    port = ntohs(in6->sin6_port);
  }
  return "[" + std::string(ip) + "]:" + std::to_string(port);
}

void SetSocketOptions(int fd) {
  int one = 1, idle = kKeepAliveSec, interval = kKeepAliveSec / 3, count = 3;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof(interval));
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof(count));
}

}  // namespace

NetServer::NetServer(EventLoop* loop, ConnectionHandler* handler)
    : loop_(loop), handler_(handler) {
  hook_id_ = loop_->AddBeforeSleep([this] { BeforeSleep(); });
  cron_timer_ = loop_->AddTimer(kCronMs, [this] { Cron(); });
}

NetServer::~NetServer() {
  loop_->CancelTimer(cron_timer_);
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

Status NetServer::Listen(const std::vector<std::string>& addrs, int port) {
  std::vector<int> fds;
  auto fail = [&fds](Status s) {
    for (int fd : fds) close(fd);
    return s;
  };
  for (std::string addr : addrs) {
    const bool optional = !addr.empty() && addr[0] == '-';
    if (optional) addr.erase(0, 1);
    if (addr == "*") addr = "0.0.0.0";
    if (addr == "::*") addr = "::";
    sockaddr_storage sa{};
    socklen_t len;
    auto* in = reinterpret_cast<sockaddr_in*>(&sa);
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&sa);
    if (inet_pton(AF_INET, addr.c_str(), &in->sin_addr) == 1) {
      in->sin_family = AF_INET;
      in->sin_port = htons(static_cast<uint16_t>(port));
      len = sizeof(*in);
    } else if (inet_pton(AF_INET6, addr.c_str(), &in6->sin6_addr) == 1) {
      in6->sin6_family = AF_INET6;
      in6->sin6_port = htons(static_cast<uint16_t>(port));
      len = sizeof(*in6);
    } else {
      return fail(Status::InvalidArgument("Invalid bind address '" + addr + "'"));
    }
    const std::string where = "Could not create server TCP listening socket " +
                              (sa.ss_family == AF_INET6 ? "[" + addr + "]" : addr) + ":" +
                              std::to_string(port);
    int fd = socket(sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      if (optional) continue;
      return fail(Status::IOError(where, std::string("socket: ") + strerror(errno)));
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (sa.ss_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
    const char* step = nullptr;
    if (bind(fd, reinterpret_cast<sockaddr*>(&sa), len) != 0) {
      step = "bind";
    } else if (listen(fd, kBacklog) != 0) {
      step = "listen";
    }
    if (step != nullptr) {
      const int err = errno;
      close(fd);
      if (optional && (err == EADDRNOTAVAIL || err == EAFNOSUPPORT || err == EPROTONOSUPPORT)) {
        LOG_WARNING("%s: %s: %s (optional, skipped)", where.c_str(), step, strerror(err));
        continue;
      }
      return fail(Status::IOError(where, std::string(step) + ": " + strerror(err)));
    }
    if (port == 0) {  // ephemeral: every other address gets the same port
      sockaddr_storage bound{};
      socklen_t blen = sizeof(bound);
      getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &blen);
      port = ntohs(bound.ss_family == AF_INET ? reinterpret_cast<sockaddr_in*>(&bound)->sin_port
                                              : reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port);
    }
    fds.push_back(fd);
  }
  if (fds.empty()) return Status::InvalidArgument("No address to listen on");
  for (int fd : fds) {
    if (!loop_->AddFd(fd, EPOLLIN, [this, fd](uint32_t) { OnAccept(fd); })) {
      return fail(Status::IOError("Listen", "epoll registration failed"));
    }
    listen_fds_.push_back(fd);
  }
  port_ = port;
  return Status::OK();
}

void NetServer::OnAccept(int listen_fd) {
  busy_++;
  for (int i = 0; i < kMaxAcceptsPerCall; i++) {
    sockaddr_storage sa{};
    socklen_t len = sizeof(sa);
    const int fd =
        accept4(listen_fd, reinterpret_cast<sockaddr*>(&sa), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        LOG_WARNING("Accepting client connection: %s", strerror(errno));
        // Out of fds or memory: the backlog stays readable, so stop
        // listening for a moment instead of spinning on the error.
        loop_->ModifyFd(listen_fd, 0);
        loop_->AddTimer(kAcceptRetryMs, [this, listen_fd] {
          if (std::find(listen_fds_.begin(), listen_fds_.end(), listen_fd) != listen_fds_.end()) {
            loop_->ModifyFd(listen_fd, EPOLLIN);
          }
        });
      }
      break;
    }
    if (static_cast<int64_t>(conns_.size()) >= limits_.max_clients) {
      static constexpr char kMsg[] = "-ERR max number of clients reached\r\n";
      ssize_t n = send(fd, kMsg, sizeof(kMsg) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
      (void)n;  // best effort, as Redis
      close(fd);
      rejected_++;
      continue;
    }
    SetSocketOptions(fd);
    auto* c = new Connection(this, fd, next_id_++);
    c->peer_ = FormatAddr(sa);
    sockaddr_storage local{};
    socklen_t llen = sizeof(local);
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &llen) == 0) {
      c->local_ = FormatAddr(local);
    }
    if (!loop_->AddFd(fd, EPOLLIN, [this, c](uint32_t ev) { OnEvent(c, ev); })) {
      delete c;
      close(fd);
      continue;
    }
    c->events_ = EPOLLIN;
    conns_.emplace(c->id_, std::unique_ptr<Connection>(c));
    LOG_VERBOSE("Accepted %s", c->peer_.c_str());
    handler_->OnOpen(c);
  }
  busy_--;
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
    if (limits_.output_buffer_hard_limit > 0 &&
        c->output_buffer_size() > static_cast<uint64_t>(limits_.output_buffer_hard_limit)) {
      LOG_WARNING("Client id=%llu addr=%s closed for overcoming of output buffer limits.",
                  static_cast<unsigned long long>(c->id_), c->peer_.c_str());
      Kill(c);
      continue;
    }
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
    // Blocked (paused) clients are exempt, as in Redis.
    if (idle_ms > 0 && !c->paused_ && idle > idle_ms) {
      LOG_VERBOSE("Closing idle client id=%llu addr=%s", static_cast<unsigned long long>(id),
                  c->peer_.c_str());
      Kill(c);
      continue;
    }
    if (c->in_.empty() && c->in_.capacity() > 0 && idle > kIdleBufferFreeMs) c->in_.Release();
  }
}

}  // namespace rankd
