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
// maxclients, timeout, and client-output-buffer-limit's hard and soft limits.
// The hard limit also bounds the reply being built (net/reply.h): a command
// whose reply passes it stops growing the buffer at once, and the connection
// is closed before anything more of it is sent. A protocol error gets
// "-ERR Protocol error: ..." and the connection is closed after that reply.
// A connection whose unparsed input exceeds the query buffer limit is closed
// without a reply (Redis logs and closes). A connection whose output exceeds
// output_buffer_pause is neither read from nor runs commands until the
// client has read enough of it.
// Not thread-safe: one event loop thread owns all of it.

#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "net/event_loop.h"
#include "net/io_buffer.h"
#include "net/reply.h"
#include "net/resp_parser.h"
#include "net/resp_peek.h"
#include "net/tls.h"

namespace rankd {

// One client-output-buffer-limit class: a connection whose pending output
// exceeds `hard`, or stays above `soft` for `soft_seconds`, is closed.
// 0 disables a bound.
struct OutputLimit {
  int64_t hard = 0, soft = 0, soft_seconds = 0;
};

struct NetLimits {
  int64_t max_bulk_len = 512LL * 1024 * 1024;     // proto-max-bulk-len
  int64_t query_buffer_limit = 1024LL * 1024 * 1024;  // client-query-buffer-limit
  int64_t max_clients = 10000;                   // maxclients
  int64_t idle_timeout_s = 0;                    // timeout (0: never)
  // A connection whose pending output exceeds this is closed (Redis's
  // client-output-buffer-limit hard limit), also in the middle of building
  // a reply. 0: no limit.
  int64_t output_buffer_hard_limit = 1024LL * 1024 * 1024;
  // A connection whose pending output stays over the soft limit for more
  // than soft_seconds is closed (checked after each command, at each flush
  // and every second). 0: no limit.
  int64_t output_buffer_soft_limit = 0;
  int64_t output_buffer_soft_seconds = 0;
  // A connection whose pending output exceeds this is not read from until it
  // drains below it, so a client that stops reading cannot grow the server.
  // 0: no limit.
  int64_t output_buffer_pause = 64LL * 1024 * 1024;
  // The limits of connections in the pub/sub class (set_pubsub_class):
  // client-output-buffer-limit pubsub.
  OutputLimit pubsub_output{32LL * 1024 * 1024, 8LL * 1024 * 1024, 60};
  // The limits of connections in the replica class (set_replica_class):
  // client-output-buffer-limit replica. The replica class wins over pub/sub.
  OutputLimit replica_output{256LL * 1024 * 1024, 64LL * 1024 * 1024, 60};
};

class NetServer;

class Connection {
 public:
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  uint64_t id() const { return id_; }
  int fd() const { return fd_; }
  const std::string& peer() const { return peer_; }    // "ip:port", "[v6]:port"
  const std::string& local() const { return local_; }  // "ip:port", "[v6]:port"
  // True when the peer is 127.0.0.1 or ::1, or came through the Unix socket:
  // Redis's connIsLocal, which protected mode and enable-protected-configs
  // "local" use. Other loopback addresses (127.0.0.2) count as remote, as in
  // Redis.
  bool peer_is_local() const;
  // Accepted on the Unix socket (CLIENT LIST flag U).
  bool unix_socket() const { return unix_socket_; }
  int64_t created_ms() const { return created_ms_; }   // monotonic
  int64_t last_active_ms() const { return last_active_ms_; }  // monotonic: last read/write
  int64_t last_read_ms() const { return last_read_ms_; }      // monotonic: last bytes read
  // Bytes received and not yet handed over as commands.
  size_t query_buffer_size() const { return in_.size(); }
  // Reply bytes not yet written to the socket.
  size_t output_buffer_size() const { return reply_.buffer().size() - out_pos_; }
  // What the output limits count: the unsent reply bytes, less those
  // exempted (AppendExempt), plus what the server holds for this
  // connection elsewhere (set_held_output).
  uint64_t limited_output_size() const;
  // Bytes the query and reply buffers hold allocated (CLIENT LIST tot-mem).
  size_t query_buffer_capacity() const { return in_.capacity(); }
  size_t output_buffer_capacity() const { return reply_.buffer().capacity(); }

  // Replies are appended here; the protocol version lives in it. Writing to
  // another connection's reply() is fine (serving a blocked client); call
  // its Resume() or ScheduleFlush() so the bytes go out this iteration.
  ReplyBuilder* reply() { return &reply_; }

  // Stops handing this connection's commands to the handler (a blocked
  // client). Input keeps being buffered up to the query buffer limit, and a
  // paused connection is never closed for idleness (NetLimits::idle_timeout_s).
  void Pause();
  // Resumes; buffered commands are handed over before this iteration's
  // replies are written (or on the next iteration when called after that).
  // Also schedules a flush of pending output. No-op on a closing connection.
  void Resume();
  bool paused() const { return paused_; }

  // Close once pending replies are written (QUIT). No further commands run.
  void CloseAfterReply();
  // Close as soon as possible, dropping pending output (CLIENT KILL). Safe
  // from any handler, for this or another connection: the object lives
  // until the current handler returns; OnClose follows in this iteration.
  void Kill();
  // True after Kill() (or a read/write error); the connection is going away.
  bool closing() const { return killed_; }

  // Makes sure output appended to reply() outside this connection's own
  // OnCommand (a timer, another client's command) is written this iteration.
  void ScheduleFlush();

  // Puts the connection in the pub/sub output-limit class (NetLimits::
  // pubsub_output) or back in the normal one.
  void set_pubsub_class(bool v) { pubsub_class_ = v; }
  // Puts the connection in the replica output-limit class (NetLimits::
  // replica_output), for good: a replica link stays one until it closes.
  void set_replica_class() { replica_class_ = true; }
  // Idle timeout (NetLimits::idle_timeout_s) exemptions, as Redis 7.0's
  // clientsCronHandleTimeout: a paused connection, one in the pub/sub or
  // replica class, and one marked here (a MONITOR client) is never closed
  // for idleness.
  void set_idle_exempt(bool v) { idle_exempt_ = v; }
  // Bytes the server keeps for this connection outside its reply buffer,
  // to be sent later (a replica's stream during its full sync): they count
  // toward the output limits. Re-arms the reply builder's hard limit.
  void set_held_output(size_t bytes);
  // Appends `bytes` to reply() without counting them toward the output
  // limits (nor tripping the reply builder's): a payload Redis streams
  // outside the output buffer (a replica's snapshot). What is exempt is a
  // prefix of the output: unsent bytes appended before these stop counting
  // too (for a replica, the handshake's short replies). Dropped once the
  // builder overflowed (the connection is being closed).
  void AppendExempt(std::string_view bytes);
  // Checks the output buffer against this connection's class limits and
  // Kill()s it when they are exceeded (as Redis, the soft limit counts from
  // the first check that found it over). Returns true if it was killed. For
  // writers that append to another connection's reply() (PUBLISH), so a
  // slow reader is dropped before the server buffers without bound.
  bool EnforceOutputLimit();

  // While true, the parser applies Redis's pre-AUTH protocol limits (more
  // than 10 arguments or a bulk over 2048 bytes closes the connection). Set
  // it in OnOpen when requirepass is set; clear it after a successful AUTH.
  void set_unauthenticated(bool v) { unauthenticated_ = v; }

  // The handler's per-connection state. Owned by the handler.
  void* user_data = nullptr;

 private:
  friend class NetServer;
  Connection(NetServer* server, int fd, uint64_t id);

  NetServer* const server_;
  const int fd_;
  const uint64_t id_;
  std::string peer_, local_;
  bool unix_socket_ = false;
  int64_t created_ms_ = 0, last_active_ms_ = 0, last_read_ms_ = 0;
  IoBuffer in_;
  RespParser parser_;
  ReplyBuilder reply_;
  size_t out_pos_ = 0;    // bytes of reply_ already written
  uint64_t written_total_ = 0;   // bytes ever written to the socket
  uint64_t exempt_until_ = 0;    // output up to this total (written + unsent) is exempt
  size_t held_output_ = 0;       // set_held_output
  size_t flushable_ = 0;  // bytes of reply_ released by the last BeforeFlush
  uint32_t events_ = 0;   // current epoll interest set
  bool paused_ = false;
  bool close_after_reply_ = false;
  bool killed_ = false;
  bool want_write_ = false;  // the socket was full: wait for EPOLLOUT
  bool throttled_ = false;   // output over output_buffer_pause: not reading
  int64_t soft_limit_since_ms_ = -1;  // monotonic: output went over the soft limit; -1: not
  bool unauthenticated_ = false;
  bool pubsub_class_ = false;
  bool replica_class_ = false;
  bool idle_exempt_ = false;
  bool in_write_list_ = false, in_input_list_ = false;
  // Set for connections accepted on a TLS port: every read and write goes
  // through it (net/tls.h).
  std::unique_ptr<TlsSession> tls_;
};

class ConnectionHandler {
 public:
  virtual ~ConnectionHandler() = default;
  // A new connection was accepted.
  virtual void OnOpen(Connection* c) = 0;
  // One complete command; `args` (never empty) are valid only during the call.
  // The handler writes the reply into c->reply(); it may call c->Pause(),
  // c->CloseAfterReply() or c->Kill() (of c or any other connection).
  virtual void OnCommand(Connection* c, std::span<const std::string_view> args) = 0;
  // The connection is going away; `c` is destroyed right after. Called
  // exactly once per connection, never from inside OnCommand.
  virtual void OnClose(Connection* c) = 0;
  // Group prefetching (issue 16): a command that will run after the
  // current one of `c` is already complete in its read buffer. The handler
  // may start loading what it will touch, in two steps: step 0 (first
  // loads), then, once step 0's loads have arrived, step 1 (loads that read
  // what step 0 brought). Commands are hinted a group at a time inside a
  // PrefetchBatch (base/prefetch.h), so the addresses hinted must be live
  // memory. `args` holds its first few arguments (of `argc`), valid only
  // during the call. `*memo` is 0 at step 0; at step 1 it holds what the
  // handler left there at step 0 for the same command (what it worked out
  // from the arguments, so the second look is cheaper). A hint: it must not
  // change any state or reply; the command itself runs later through
  // OnCommand as usual.
  virtual void Prefetch(Connection* c, std::span<const std::string_view> args, size_t argc,
                        int step, uintptr_t* memo) {}
  // Once per loop iteration, after commands ran and before replies are
  // written: the point where the append-only log is fsynced. No reply byte
  // produced before this call reaches a socket before it returns.
  virtual void BeforeFlush() {}
};

class NetServer {
 public:
  // Registers a before-sleep hook on `loop` (the flush) and a 1 s cron timer
  // (idle timeout, buffer trimming). REQUIRES: both outlive this object.
  NetServer(EventLoop* loop, ConnectionHandler* handler);
  // Closes listeners and remaining connections without calling the handler
  // (call CloseAll() first for OnClose calls).
  ~NetServer();
  NetServer(const NetServer&) = delete;
  NetServer& operator=(const NetServer&) = delete;

  // Binds and listens on each address ("127.0.0.1", "::1", "0.0.0.0"; "*"
  // is 0.0.0.0 and "::*" is ::; a leading '-' makes an address optional, as
  // in redis.conf) at `port` (0: an ephemeral port, see port()).
  // SO_REUSEADDR, TCP_NODELAY and keepalive on accepted sockets,
  // non-blocking everything. On error nothing stays open.
  // With `tls`, connections accepted there speak TLS (tls-port); `tls`
  // must outlive this object.
  Status Listen(const std::vector<std::string>& addrs, int port, const TlsContext* tls = nullptr);
  int port() const { return port_; }
  int tls_port() const { return tls_port_; }
  // Listens on the Unix socket `path` (redis.conf's unixsocket), replacing a
  // stale socket file there; `mode` (unixsocketperm) is applied when not 0.
  // Its clients' peer and local names are "<path>:0", as Redis shows them.
  // The file is removed by CloseAll().
  Status ListenUnix(const std::string& path, int mode);
  // Moves the plain TCP listeners (not TLS, not the Unix socket) to
  // `addrs` at `port` (0: none), as CONFIG SET port / bind: the old ones
  // are closed first, and if the new ones cannot all be opened the old
  // `old_addrs` at the old port are opened again and the error returned.
  Status Relisten(const std::vector<std::string>& addrs, int port,
                  const std::vector<std::string>& old_addrs);

  // Takes effect for new reads/commands; lowering maxclients closes nobody.
  void set_limits(const NetLimits& limits);
  const NetLimits& limits() const { return limits_; }

  // Live connections, including ones killed but not yet closed.
  size_t size() const { return conns_.size(); }
  // Connections refused because of maxclients (INFO rejected_connections).
  uint64_t rejected_connections() const { return rejected_; }
  // nullptr if no such connection or it is closing.
  Connection* Find(uint64_t id) const;
  // A fresh id from the connections' sequence, for a client that stands for
  // a socket the NetServer does not own (a replica's link to its primary).
  uint64_t TakeId() { return next_id_++; }
  // Visits connections that are not closing, in id order. `fn` may Kill().
  template <class Fn>
  void ForEach(Fn fn) const {
    std::vector<Connection*> v;
    v.reserve(conns_.size());
    for (auto& [id, c] : conns_) {
      if (!c->killed_) v.push_back(c.get());
    }
    std::sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->id() < b->id(); });
    for (Connection* c : v) fn(c);
  }
  // Closes the listening sockets and every connection (shutdown), calling
  // OnClose for each; from inside a handler the closes are deferred to the
  // end of the current iteration.
  void CloseAll();

 private:
  friend class Connection;
  void OnAccept(int listen_fd);
  void OnEvent(Connection* c, uint32_t events);
  void ReadFrom(Connection* c);
  void ProcessInput(Connection* c);
  void WriteTo(Connection* c);
  void UpdateEvents(Connection* c);
  void MarkWrite(Connection* c);
  void MarkInput(Connection* c);
  void Kill(Connection* c);
  // Gives c's reply builder its class's hard limit, counted from what is
  // unsent.
  void ArmOutputLimit(Connection* c);
  // True (and logs) if c is over its class's output hard limit, or over the
  // soft limit for longer than allowed; keeps the soft-limit clock.
  bool OverOutputLimit(Connection* c);
  void BeforeSleep();
  void ReapClosed();
  void Cron();
  RespParser::Limits ParserLimits(const Connection* c) const;
  // The client-output-buffer-limit class of `c`: normal, replica or pubsub.
  OutputLimit LimitFor(const Connection* c) const;

  EventLoop* loop_;
  ConnectionHandler* handler_;
  NetLimits limits_;
  int port_ = 0;
  int tls_port_ = 0;
  std::vector<int> listen_fds_;
  std::unordered_map<int, const TlsContext*> tls_listeners_;  // listen fd -> context
  int unix_fd_ = -1;  // the Unix socket listener, also in listen_fds_
  std::string unix_path_;
  uint64_t next_id_ = 1;
  std::unordered_map<uint64_t, std::unique_ptr<Connection>> conns_;
  std::vector<Connection*> write_list_;  // replies to write this iteration
  std::vector<Connection*> input_list_;  // resumed: buffered commands to run
  std::vector<Connection*> close_list_;  // killed: OnClose + destroy pending
  std::vector<std::string_view> args_;   // reused for every command
  uint64_t cron_timer_ = 0;
  uint64_t accept_retry_timer_ = 0;  // re-enables listeners after EMFILE
  uint64_t hook_id_ = 0;
  uint64_t rejected_ = 0;
  // > 0 inside our fd handlers or hook: work marked then is picked up by
  // this iteration's hook, so the loop need not be told to skip its wait.
  int busy_ = 0;
};

// The addresses of socket `fd`, as "ip:port" or "[v6]:port" (Redis's
// anetFormatAddr); "" when the socket has none (not connected).
std::string SocketPeer(int fd);
std::string SocketLocal(int fd);

}  // namespace rankd
