// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Client: the server's per-connection state: selected database, name,
// authentication, MULTI queue, WATCHed keys, blocking state, pub/sub
// subscriptions, MONITOR, CLIENT PAUSE / REPLY / TRACKING state. A Client
// without a connection serves scripts (its replies are captured).

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "base/str_hash.h"
#include "db/database.h"
#include "net/connection.h"
#include "net/reply.h"
#include "server/tracking.h"
#include "server/acl_user.h"

namespace rankd {

struct Client {
  uint64_t id = 0;
  Connection* conn = nullptr;  // nullptr for script clients
  ReplyBuilder* reply = nullptr;  // conn->reply() or a capture builder
  int db_index = 0;
  std::string name;
  bool authenticated = false;
  // The master client or the log replay: replication never refuses its
  // commands (READONLY, NOREPLICAS, MASTERDOWN), as Redis mustObeyClient.
  bool obeyed = false;
  // The ACL user this client runs as (the server's "default" user until
  // AUTH); never null once the server opened the client.
  AclUser* user = nullptr;
  std::string user_name = "default";
  // Failed AUTH / HELLO AUTH on this connection (server/auth_throttle.h).
  uint64_t auth_failures = 0;
  int64_t created_ms = 0;   // monotonic
  // Replication links (CLIENT LIST flags S / M and TYPE replica / master):
  // kReplica, a replica's connection on this primary, once it sent PSYNC;
  // kMaster, a replica's master client. That one has no Connection: it
  // stands for the link to the primary, whose socket Replication owns, and
  // link_peer / link_local / link_fd are what CLIENT LIST shows as addr /
  // laddr / fd and MONITOR as its address (empty while the link is down).
  enum class ReplRole { kNone, kReplica, kMaster };
  ReplRole repl_role = ReplRole::kNone;
  std::string link_peer, link_local;
  int link_fd = -1;
  // The last command's full name ("client|list"), CLIENT LIST cmd=. Points
  // into the server's command table, which outlives every client.
  std::string_view last_command;

  // MULTI: queued commands, and whether queueing hit an error (EXECABORT).
  bool in_multi = false;
  bool multi_error = false;
  std::vector<std::vector<std::string>> queued;
  // The queued commands' flags ORed at queue time (Redis mstate.cmd_flags),
  // and whether one lacks kStale: EXEC's OOM, read-only and pause checks
  // read these instead of scanning the queue.
  uint32_t queued_flags = 0;
  bool queued_deny_stale = false;
  void ClearQueued() {
    queued.clear();
    queued_flags = 0;
    queued_deny_stale = false;
  }

  // WATCH: keys by database, and the flag any change to them sets. Whether
  // a key was already expired when watched is kept by its Database
  // (Database::Watch, Redis 7.0 watchedKey.expired).
  Watcher watcher;
  std::vector<std::pair<int, std::string>> watched;

  // Blocking (BZPOPMIN and friends). While blocked the connection is paused.
  struct Blocked {
    bool active = false;
    int db = 0;
    std::vector<std::string> keys;
    std::vector<std::string> args;  // the command, retried when a key is ready
    uint64_t timer = 0;             // timeout timer id, 0 when waiting forever
    uint64_t wake_timer = 0;        // Server::Block's wake_at_ms timer, 0 when none
    // Retried also when a key it waits on is deleted (XREADGROUP, which then
    // answers that the stream is gone); others wait for the key to return.
    bool wake_on_delete = false;
  } blocked;

  // Pub/sub: names subscribed, by PubSub::Kind (channels, patterns, shard
  // channels). RESP2 clients with any are in the subscribed context.
  absl::flat_hash_set<std::string, StrHash, StrEq> subscriptions[3];
  // Channels + patterns (what SUBSCRIBE / PSUBSCRIBE confirmations count).
  size_t subscription_count() const { return subscriptions[0].size() + subscriptions[1].size(); }
  // LB.WATCH (server/board_watch.h): the boards watched, as (db, key).
  std::vector<std::pair<int, std::string>> lb_watches;
  // Everything that puts a RESP2 client in the subscribed context.
  size_t all_subscription_count() const {
    return subscription_count() + subscriptions[2].size() + lb_watches.size();
  }

  // MONITOR: receives every command the server runs (server/monitor.cc).
  bool monitor = false;

  // CLIENT PAUSE: the command held back until the pause ends (empty: none).
  std::vector<std::string> postponed;
  // CLIENT REPLY: OFF drops every reply; SKIP drops the next command's.
  bool reply_off = false, reply_skip = false, reply_skip_next = false;
  // Pushes (pub/sub confirmations and messages, invalidations) written to
  // this client while one of its own commands runs, as [begin, end) buffer
  // offsets: they survive CLIENT REPLY OFF / SKIP, as Redis 7.0's pushes do.
  // push_mark is the command's reply start (npos between commands, when no
  // range is recorded).
  static constexpr size_t kNoMark = static_cast<size_t>(-1);
  size_t push_mark = kNoMark;
  std::vector<std::pair<size_t, size_t>> kept_pushes;
  // CLIENT TRACKING (server/tracking.h).
  TrackingState tracking;
  // CLIENT NO-EVICT (shown as flag 'e').
  bool no_evict = false;
  // Cluster mode (server/cluster_router.h): ASKING lets the next command
  // run on a slot this node is importing (one command, then cleared);
  // READONLY lets reads run on a replica of the slot's master (flag 'r').
  bool asking = false;
  bool cluster_readonly = false;
  // The command ASKING covered has been routed: the flag ends when the next
  // one is (it stays set while that command runs: its script sees it).
  bool asking_spent = false;

  int resp() const { return reply->version(); }
};

// Marks what a push writes to `c` while alive, so a silenced command
// (CLIENT REPLY OFF / SKIP) keeps it. Construct before writing the push.
class PushScope {
 public:
  explicit PushScope(Client& c) : c_(c), begin_(c.reply->buffer().size()) {}
  ~PushScope() {
    if (c_.push_mark != Client::kNoMark) c_.kept_pushes.emplace_back(begin_, c_.reply->buffer().size());
  }
  PushScope(const PushScope&) = delete;
  PushScope& operator=(const PushScope&) = delete;

 private:
  Client& c_;
  size_t begin_;
};

}  // namespace rankd
