// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/sync_client.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rankd {

std::unique_ptr<SyncConnection> SyncConnection::Connect(const std::string& host, int port,
                                                        int64_t timeout_ms, std::string* err) {
  addrinfo hints{}, *res = nullptr;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  const std::string service = std::to_string(port);
  if (int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &res); rc != 0) {
    *err = gai_strerror(rc);
    return nullptr;
  }
  *err = "no address";
  for (addrinfo* a = res; a; a = a->ai_next) {
    const int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) continue;
    std::unique_ptr<SyncConnection> c(new SyncConnection(fd));
    if (connect(fd, a->ai_addr, a->ai_addrlen) != 0 && errno != EINPROGRESS) {
      *err = strerror(errno);
      continue;
    }
    // As Redis's connBlockingConnect: a refusal or a timeout is not an
    // error here; the first write reports it.
    (void)c->Wait(POLLOUT, timeout_ms);
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    freeaddrinfo(res);
    err->clear();
    return c;
  }
  freeaddrinfo(res);
  return nullptr;
}

SyncConnection::~SyncConnection() { close(fd_); }

bool SyncConnection::Wait(short events, int64_t timeout_ms) {
  pollfd p{fd_, events, 0};
  for (;;) {
    const int n = poll(&p, 1, static_cast<int>(timeout_ms));
    if (n > 0) return true;
    if (n == 0) {
      timed_out_ = true;
      return false;
    }
    if (errno != EINTR) return false;
  }
}

bool SyncConnection::WriteAll(std::string_view data, int64_t timeout_ms) {
  while (!data.empty()) {
    const ssize_t n = send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
    if (n > 0) {
      data.remove_prefix(static_cast<size_t>(n));
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (!Wait(POLLOUT, timeout_ms)) return false;
    } else {
      return false;
    }
  }
  return true;
}

bool SyncConnection::ReadLine(std::string* line, int64_t timeout_ms) {
  for (;;) {
    const size_t eol = in_.find('\n');
    if (eol != std::string::npos) {
      line->assign(in_, 0, eol > 0 && in_[eol - 1] == '\r' ? eol - 1 : eol);
      in_.erase(0, eol + 1);
      return true;
    }
    char buf[4096];
    const ssize_t n = recv(fd_, buf, sizeof(buf), 0);
    if (n > 0) {
      in_.append(buf, static_cast<size_t>(n));
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (!Wait(POLLIN, timeout_ms)) return false;
    } else {
      return false;  // closed, or an error
    }
  }
}

}  // namespace rankd
