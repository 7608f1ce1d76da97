// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Connections and the listener: the whole network side of the server. This
// layer parses RESP (net/resp_parser.h), hands each complete command to a
// ConnectionHandler, and writes what the handler put into the connection's
// ReplyBuilder. It knows nothing of commands or data types.
//
// Pipelining: every complete command in a connection's read buffer is handed
// over before any reply is written; replies of one event-loop iteration go out
// after ConnectionHandler::BeforeFlush() (the AOF fsync point), one write per
// connection.
//
// Limits (Redis names): proto-max-bulk-len, client-query-buffer-limit,
// maxclients, timeout, and an output buffer hard limit. A protocol error gets
// "-ERR Protocol error: ..." and the connection is closed after that reply.
// Not thread-safe: one event loop thread owns all of it.

#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "net/event_loop.h"
#include "net/reply.h"
#include "net/resp_parser.h"

namespace rankd {

struct NetLimits {
  int64_t max_bulk_len = 512LL * 1024 * 1024;     // proto-max-bulk-len
  int64_t query_buffer_limit = 1024LL * 1024 * 1024;  // client-query-buffer-limit
  int64_t max_clients = 10000;                   // maxclients
  int64_t idle_timeout_s = 0;                    // timeout (0: never)
  // A connection whose pending output exceeds this is closed (Redis's
  // client-output-buffer-limit hard limit). 0: no limit.
  int64_t output_buffer_hard_limit = 1024LL * 1024 * 1024;
  // A connection whose pending output exceeds this is not read from until it
  // drains below it, so a client that stops reading cannot grow the server.
  int64_t output_buffer_pause = 64LL * 1024 * 1024;
};

class NetServer;

class Connection {
 public:
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  uint64_t id() const { return id_; }
  int fd() const { return fd_; }
  const std::string& peer() const { return peer_; }    // "ip:port"
  const std::string& local() const { return local_; }  // "ip:port"
  int64_t created_ms() const { return created_ms_; }   // monotonic
  int64_t last_active_ms() const { return last_active_ms_; }  // monotonic
  size_t query_buffer_size() const { return in_.size() - in_pos_; }
  size_t output_buffer_size() const { return reply_.buffer().size() - out_pos_; }

  // Replies are appended here; the protocol version lives in it.
  ReplyBuilder* reply() { return &reply_; }

  // Stops handing this connection's commands to the handler (a blocked
  // client). Input keeps being buffered up to the query buffer limit.
  void Pause();
  // Resumes; buffered commands are handed over on the next loop iteration.
  void Resume();
  bool paused() const { return paused_; }

  // Close once pending replies are written (QUIT). No further commands run.
  void CloseAfterReply();
  // Close as soon as possible, dropping pending output (CLIENT KILL).
  void Kill();

  // The handler's per-connection state. Owned by the handler.
  void* user_data = nullptr;

 private:
  friend class NetServer;
  Connection(NetServer* server, int fd, uint64_t id);

  NetServer* server_;
  int fd_;
  uint64_t id_;
  std::string peer_, local_;
  int64_t created_ms_ = 0, last_active_ms_ = 0;
  std::string in_;
  size_t in_pos_ = 0;
  RespParser parser_;
  ReplyBuilder reply_;
  size_t out_pos_ = 0;
  bool paused_ = false, closing_ = false, killed_ = false, want_write_ = false;
};

class ConnectionHandler {
 public:
  virtual ~ConnectionHandler() = default;
  // A new connection was accepted.
  virtual void OnOpen(Connection* c) = 0;
  // One complete command; `args` (never empty) are valid only during the call.
  // The handler writes the reply into c->reply(); it may call c->Pause(),
  // c->CloseAfterReply() or c->Kill().
  virtual void OnCommand(Connection* c, std::span<const std::string_view> args) = 0;
  // The connection is going away; `c` is destroyed right after.
  virtual void OnClose(Connection* c) = 0;
  // Once per loop iteration, after commands ran and before replies are
  // written: the point where the append-only log is fsynced.
  virtual void BeforeFlush() {}
};

class NetServer {
 public:
  NetServer(EventLoop* loop, ConnectionHandler* handler);
  ~NetServer();
  NetServer(const NetServer&) = delete;
  NetServer& operator=(const NetServer&) = delete;

  // Binds and listens on each address ("127.0.0.1", "::1", "0.0.0.0") at
  // `port` (0: an ephemeral port, see port()). SO_REUSEADDR, TCP_NODELAY on
  // accepted sockets, non-blocking everything.
  Status Listen(const std::vector<std::string>& addrs, int port);
  int port() const { return port_; }

  void set_limits(const NetLimits& limits) { limits_ = limits; }
  const NetLimits& limits() const { return limits_; }

  size_t size() const { return conns_.size(); }
  // nullptr if no such connection.
  Connection* Find(uint64_t id) const;
  // Visits live connections in id order.
  template <class Fn>
  void ForEach(Fn fn) const {
    std::vector<Connection*> v;
    for (auto& [id, c] : conns_) v.push_back(c.get());
    std::sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->id() < b->id(); });
    for (Connection* c : v) fn(c);
  }
  // Closes the listening sockets and every connection (shutdown).
  void CloseAll();

 private:
  friend class Connection;
  // Implementation detail chosen by net/connection.cc.
  struct Impl;
  EventLoop* loop_;
  ConnectionHandler* handler_;
  NetLimits limits_;
  int port_ = 0;
  std::vector<int> listen_fds_;
  uint64_t next_id_ = 1;
  std::unordered_map<uint64_t, std::unique_ptr<Connection>> conns_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rankd
