// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Test helpers (header-only, tests only): a NetServer on 127.0.0.1:<ephemeral>
// running in its own thread with a tiny command handler, and a blocking
// client socket. The handler's commands:
//   PING -> +PONG     ECHO x -> $x       ID -> :<connection id>
//   BLOCK -> Pause()  UNBLOCK id -> +UNBLOCKED to id, then its Resume()
//   QUIT -> +OK, CloseAfterReply()      KILLME -> Kill() self
//   KILL id -> Kill() id, +OK           BIG n -> a bulk of n 'x'
//   LATER -> +LATER from a 30 ms timer (ScheduleFlush)
//   SLOWFLUSH -> +OK, and the next BeforeFlush takes 200 ms
// Anything else -> -ERR unknown.

#pragma once

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "net/connection.h"

namespace rankd::testing {

class TestHandler : public ConnectionHandler {
 public:
  NetServer* server = nullptr;
  EventLoop* loop = nullptr;
  std::atomic<int> opened{0}, closed{0}, flushes{0};
  bool slow_flush = false;
  std::atomic<int64_t> slow_flush_done_us{0};  // steady clock
  std::atomic<size_t> max_output{0};
  std::atomic<bool> double_close{false};

  void OnOpen(Connection* c) override {
    opened++;
    c->user_data = this;
  }
  void OnClose(Connection* c) override {
    if (c->user_data != this) double_close = true;
    c->user_data = nullptr;
    closed++;
  }
  static int64_t NowUs() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  void BeforeFlush() override {
    flushes++;
    if (slow_flush) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      slow_flush = false;
      slow_flush_done_us = NowUs();
    }
  }
  void OnCommand(Connection* c, std::span<const std::string_view> args) override {
    ReplyBuilder* r = c->reply();
    const std::string_view cmd = args[0];
    auto target = [&]() -> Connection* {
      return args.size() > 1 ? server->Find(std::strtoull(std::string(args[1]).c_str(), nullptr, 10))
                             : nullptr;
    };
    if (cmd == "PING") {
      r->SimpleString("PONG");
    } else if (cmd == "ECHO" && args.size() == 2) {
      r->Bulk(args[1]);
    } else if (cmd == "ID") {
      r->Integer(static_cast<int64_t>(c->id()));
    } else if (cmd == "BLOCK") {
      c->Pause();
    } else if (cmd == "UNBLOCK") {
      if (Connection* t = target()) {
        t->reply()->SimpleString("UNBLOCKED");
        t->Resume();
      }
      r->Ok();
    } else if (cmd == "QUIT") {
      r->Ok();
      c->CloseAfterReply();
    } else if (cmd == "KILLME") {
      r->Ok();  // dropped: Kill discards pending output
      c->Kill();
    } else if (cmd == "KILL") {
      if (Connection* t = target()) t->Kill();
      r->Ok();
    } else if (cmd == "LATER") {
      const uint64_t id = c->id();
      loop->AddTimer(30, [this, id] {
        if (Connection* t = server->Find(id)) {
          t->reply()->SimpleString("LATER");
          t->ScheduleFlush();
        }
      });
    } else if (cmd == "SLOWFLUSH") {
      slow_flush = true;
      r->Ok();
    } else if (cmd == "BIG" && args.size() == 2) {
      r->Bulk(std::string(std::strtoull(std::string(args[1]).c_str(), nullptr, 10), 'x'));
    } else if (cmd == "REPLICA") {  // the replica output-limit class
      c->set_replica_class();
      r->Ok();
    } else if (cmd == "EXEMPTBIG" && args.size() == 2) {  // BIG, exempt from the limits
      const size_t n = std::strtoull(std::string(args[1]).c_str(), nullptr, 10);
      c->AppendExempt("$" + std::to_string(n) + "\r\n" + std::string(n, 'x') + "\r\n");
    } else if (cmd == "HOLD" && args.size() == 2) {  // bytes held elsewhere for c
      c->set_held_output(std::strtoull(std::string(args[1]).c_str(), nullptr, 10));
      r->Ok();
    } else {
      r->Error("ERR unknown");
    }
    size_t out = c->output_buffer_size();
    if (out > max_output) max_output = out;
  }
};

// Runs loop + server on a thread; stops and joins in the destructor.
class ServerThread {
 public:
  explicit ServerThread(NetLimits limits = {}) : net_(&loop_, &handler_) {
    handler_.server = &net_;
    handler_.loop = &loop_;
    net_.set_limits(limits);
    Status s = net_.Listen({"127.0.0.1"}, 0);
    if (!s.ok()) abort();
    port_ = net_.port();
    Poll();
    thread_ = std::thread([this] { loop_.Run(); });
  }
  ~ServerThread() {
    stop_ = true;
    loop_.Wake();
    thread_.join();
    net_.CloseAll();
  }
  int port() const { return port_; }
  TestHandler& handler() { return handler_; }

 private:
  void Poll() {  // the loop is not thread-safe: stop from inside it
    loop_.AddTimer(5, [this] {
      if (stop_) loop_.Stop(); else Poll();
    });
  }
  EventLoop loop_;
  TestHandler handler_;
  NetServer net_;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// A blocking client socket with a 5 s receive timeout.
class Client {
 public:
  explicit Client(int port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<uint16_t>(port));
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)) != 0) abort();
    timeval tv{5, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  }
  ~Client() { Close(); }
  void Close() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }
  int fd() const { return fd_; }
  bool Send(std::string_view s) {
    while (!s.empty()) {
      ssize_t n = send(fd_, s.data(), s.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      s.remove_prefix(static_cast<size_t>(n));
    }
    return true;
  }
  // Reads exactly n bytes (less if the peer closes or 5 s pass).
  std::string Read(size_t n) {
    std::string out;
    char buf[65536];
    while (out.size() < n) {
      ssize_t got = recv(fd_, buf, std::min(sizeof(buf), n - out.size()), 0);
      if (got <= 0) break;
      out.append(buf, static_cast<size_t>(got));
    }
    return out;
  }
  // True if the peer closed the connection (EOF or reset) within 5 s.
  bool ReadsEof() {
    char c;
    ssize_t n = recv(fd_, &c, 1, 0);
    return n == 0 || (n < 0 && errno == ECONNRESET);
  }
  // True if some byte is readable within `ms`.
  bool Readable(int ms) {
    pollfd p{fd_, POLLIN, 0};
    return poll(&p, 1, ms) == 1;
  }

 private:
  int fd_ = -1;
};

// Waits up to 5 s for pred().
template <class Pred>
bool WaitFor(Pred pred) {
  for (int i = 0; i < 500; i++) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pred();
}

}  // namespace rankd::testing
