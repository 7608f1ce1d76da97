// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// NetServer's listening side: binding the configured addresses and
// accepting connections (maxclients, socket options, peer names).

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/logging.h"
#include "net/connection.h"

namespace rankd {
namespace {

constexpr int kBacklog = 511;  // tcp-backlog
constexpr int kMaxAcceptsPerCall = 1000;
constexpr int kKeepAliveSec = 300;  // tcp-keepalive
constexpr int64_t kAcceptRetryMs = 100;

// "1.2.3.4:5" or "[::1]:5", as Redis's anetFormatAddr.
std::string FormatAddr(const sockaddr_storage& sa) {
  char ip[INET6_ADDRSTRLEN] = "?";
  if (sa.ss_family == AF_INET) {
    auto* in = reinterpret_cast<const sockaddr_in*>(&sa);
    inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
    return std::string(ip) + ":" + std::to_string(ntohs(in->sin_port));
  }
  int port = 0;
  if (sa.ss_family == AF_INET6) {
    auto* in6 = reinterpret_cast<const sockaddr_in6*>(&sa);
    inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof(ip));
    port = ntohs(in6->sin6_port);
  }
  return "[" + std::string(ip) + "]:" + std::to_string(port);
}

}  // namespace

std::string SocketPeer(int fd) {
  sockaddr_storage sa{};
  socklen_t len = sizeof(sa);
  return getpeername(fd, reinterpret_cast<sockaddr*>(&sa), &len) == 0 ? FormatAddr(sa) : "";
}

std::string SocketLocal(int fd) {
  sockaddr_storage sa{};
  socklen_t len = sizeof(sa);
  return getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len) == 0 ? FormatAddr(sa) : "";
}

namespace {

int PortOf(const sockaddr_storage& sa) {
  return ntohs(sa.ss_family == AF_INET ? reinterpret_cast<const sockaddr_in*>(&sa)->sin_port
                                       : reinterpret_cast<const sockaddr_in6*>(&sa)->sin6_port);
}

void SetSocketOptions(int fd) {
  int one = 1, idle = kKeepAliveSec, interval = kKeepAliveSec / 3, count = 3;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof(interval));
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof(count));
}

// Binds and listens on host:port. Returns the fd, or -1 with *step and
// errno saying what failed.
int OpenListener(const std::string& host, int port, const char** step) {
  addrinfo hints{}, *res = nullptr;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  const std::string service = std::to_string(port);
  if (int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &res); rc != 0) {
    *step = gai_strerror(rc);
    errno = EADDRNOTAVAIL;
    return -1;
  }
  int fd = -1;
  for (addrinfo* ai = res; ai != nullptr && fd < 0; ai = ai->ai_next) {
    fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      *step = "socket";
      continue;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (ai->ai_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
    *step = bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 ? "bind"
            : listen(fd, kBacklog) != 0                ? "listen"
                                                       : nullptr;
    if (*step != nullptr) {
      const int err = errno;
      close(fd);
      fd = -1;
      errno = err;
    }
  }
  const int err = errno;
  freeaddrinfo(res);
  errno = err;
  return fd;
}

}  // namespace

Status NetServer::Listen(const std::vector<std::string>& addrs, int port, const TlsContext* tls) {
  if (addrs.empty()) {  // bind "": no TCP listener, the port is kept as configured
    (tls ? tls_port_ : port_) = port;
    return Status::OK();
  }
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
    const char* step = nullptr;
    const int fd = OpenListener(addr, port, &step);
    if (fd < 0) {
      const int err = errno;
      const std::string where = "Could not create server TCP listening socket " +
                                (addr.find(':') != std::string::npos ? "[" + addr + "]" : addr) +
                                ":" + std::to_string(port);
      if (optional && (err == EADDRNOTAVAIL || err == EAFNOSUPPORT || err == EPROTONOSUPPORT)) {
        LOG_WARNING("%s: %s: %s (optional, skipped)", where.c_str(), step, strerror(err));
        continue;
      }
      return fail(Status::IOError(where, std::string(step) + ": " + strerror(err)));
    }
    fds.push_back(fd);
    if (port == 0) {  // ephemeral: every other address gets the same port
      sockaddr_storage bound{};
      socklen_t len = sizeof(bound);
      getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
      port = PortOf(bound);
    }
  }
  if (fds.empty()) return Status::InvalidArgument("No address to listen on");
  for (int fd : fds) {
    if (!loop_->AddFd(fd, EPOLLIN, [this, fd](uint32_t) { OnAccept(fd); })) {
      return fail(Status::IOError("Listen", "epoll registration failed"));
    }
    listen_fds_.push_back(fd);
    if (tls) tls_listeners_[fd] = tls;
  }
  (tls ? tls_port_ : port_) = port;
  return Status::OK();
}

Status NetServer::Relisten(const std::vector<std::string>& addrs, int port,
                           const std::vector<std::string>& old_addrs) {
  const int old_port = port_;
  std::erase_if(listen_fds_, [this](int fd) {
    if (fd == unix_fd_ || tls_listeners_.count(fd)) return false;
    loop_->RemoveFd(fd);
    close(fd);
    return true;
  });
  port_ = 0;
  Status s = port == 0 ? Status::OK() : Listen(addrs, port);
  if (!s.ok() && old_port != 0) {
    Status back = Listen(old_addrs, old_port);
    if (!back.ok()) LOG_WARNING("Reopening the old listeners failed: %s", back.message().c_str());
  }
  return s;
}

Status NetServer::ListenUnix(const std::string& path, int mode) {
  sockaddr_un sa{};
  if (path.size() >= sizeof(sa.sun_path)) {
    return Status::InvalidArgument("unixsocket path too long: " + path);
  }
  sa.sun_family = AF_UNIX;
  memcpy(sa.sun_path, path.c_str(), path.size() + 1);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return Status::IOError("Opening Unix socket", strerror(errno));
  unlink(path.c_str());  // a socket file left by an earlier run
  const char* step = bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)) != 0 ? "bind"
                     : mode != 0 && chmod(path.c_str(), static_cast<mode_t>(mode)) != 0 ? "chmod"
                     : listen(fd, kBacklog) != 0 ? "listen"
                                                 : nullptr;
  if (step != nullptr || !loop_->AddFd(fd, EPOLLIN, [this, fd](uint32_t) { OnAccept(fd); })) {
    const std::string why = std::string(step ? step : "epoll") + ": " + strerror(errno);
    close(fd);
    return Status::IOError("Opening Unix socket " + path, why);
  }
  listen_fds_.push_back(fd);
  unix_fd_ = fd;
  unix_path_ = path;
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
        if (accept_retry_timer_ == 0) {
          accept_retry_timer_ = loop_->AddTimer(kAcceptRetryMs, [this] {
            accept_retry_timer_ = 0;
            for (int lfd : listen_fds_) loop_->ModifyFd(lfd, EPOLLIN);
          });
        }
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
    auto* c = new Connection(this, fd, next_id_++);
    if (listen_fd == unix_fd_) {
      c->unix_socket_ = true;
      c->peer_ = c->local_ = unix_path_ + ":0";
    } else {
      SetSocketOptions(fd);
      if (auto it = tls_listeners_.find(listen_fd); it != tls_listeners_.end()) {
        c->tls_ = std::make_unique<TlsSession>(*it->second, fd);
      }
      c->peer_ = FormatAddr(sa);
      sockaddr_storage local{};
      socklen_t llen = sizeof(local);
      if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &llen) == 0) {
        c->local_ = FormatAddr(local);
      }
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

}  // namespace rankd
