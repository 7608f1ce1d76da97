// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Tracking: server-assisted client-side caching (CLIENT TRACKING) as Redis
// 7.0. It reads the hub's "key changed" signal (Database::Touch, flushes)
// and tells each client whose cached copy went stale.
//
// Default mode: the keys a tracking client reads (read-only commands, the
// keys at the spec's key positions) go into one table key -> client ids,
// shared by all databases as in Redis; when a key changes, each client in
// its entry gets one invalidation and the entry is dropped (it must read
// again to be told again). OPTIN / OPTOUT narrow what is remembered to the
// command after CLIENT CACHING YES / not after CLIENT CACHING NO.
// BCAST mode: nothing is remembered; every change of a key under one of
// the client's prefixes ("" = all) is queued and sent, one array per
// prefix, once per event-loop iteration.
// NOLOOP: no invalidation for changes the client made itself.
//
// Delivery: RESP3 push ["invalidate", [keys]] (null after a flush), or,
// with REDIRECT, to the redirect client: a push when it speaks RESP3, else
// a message on "__redis__:invalidate" when it subscribes to it. If the
// redirect client is gone, a RESP3 tracking client gets
// ["tracking-redir-broken", id] once.
// Invalidations caused by a client's own command reach it after its reply.
// tracking-table-max-keys bounds the table: past it, keys are evicted from
// the table (their clients invalidated) once per iteration, as Redis does.
// Not thread-safe: the server's thread only.

#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "base/str_hash.h"

namespace rankd {

class Server;
struct Client;
struct CommandSpec;

// A client's tracking state (Client::tracking).
struct TrackingState {
  bool on = false, bcast = false, optin = false, optout = false, noloop = false;
  bool caching = false;          // CLIENT CACHING given for the next command
  bool caching_yes = false;      // ... and its value
  bool broken_redirect = false;  // the redirect client went away
  uint64_t redirect = 0;         // 0: none
  std::vector<std::string> prefixes;  // BCAST
};

class Tracking {
 public:
  explicit Tracking(Server* server) : server_(server) {}
  Tracking(const Tracking&) = delete;
  Tracking& operator=(const Tracking&) = delete;

  // CLIENT TRACKING ON with `opts` (REDIRECT, PREFIX, BCAST, OPTIN, OPTOUT,
  // NOLOOP already parsed). Returns "" or Redis's error text; on error
  // nothing changes. Turning it on again may add prefixes.
  std::string Enable(Client& c, const TrackingState& opts);
  // CLIENT TRACKING OFF (and disconnect, RESET).
  void Disable(Client& c);

  // After `c` ran read-only command `spec` with `args`: remembers its keys
  // when the client's mode asks for it.
  void RememberKeys(Client& c, const CommandSpec& spec, std::span<const std::string_view> args);
  // `key` changed; `cause` is the client whose command changed it (nullptr:
  // expiry, or no client: NOLOOP does not filter it). `running`: the client
  // whose command is running; its own invalidation follows its reply.
  void KeyChanged(std::string_view key, const Client* cause, const Client* running = nullptr);
  // True when no client tracks a key or a prefix: KeyChanged has nothing to do.
  bool idle() const { return table_.empty() && prefixes_.empty(); }
  // Every key is gone (FLUSHDB, FLUSHALL): a null invalidation to every
  // tracking client, once per command (`running`'s after its reply).
  void Flushed(const Client* running = nullptr);
  // Sends the invalidations held back for the client whose command just
  // finished (its reply is out first).
  void SendDeferred();
  // Once per event-loop iteration: BCAST batches, and evictions past
  // tracking-table-max-keys (`max_keys`, 0: no limit).
  void Flush(int64_t max_keys);
  // A command finished at the top level: a later flush sends null again.
  void CommandDone() { flushed_in_command_ = false; }

  // CLIENT TRACKINGINFO / INFO.
  size_t table_keys() const { return table_.size(); }
  size_t table_items() const {
    size_t n = 0;
    for (const auto& [key, ids] : table_) n += ids.size();
    return n;
  }
  size_t prefixes() const { return prefixes_.size(); }

 private:
  struct Prefix {
    absl::flat_hash_set<uint64_t> clients;
    std::vector<std::pair<std::string, uint64_t>> pending;  // key, cause id
  };
  void Send(Client& target, const std::vector<std::string_view>* keys);
  void SendOne(uint64_t client_id, std::string_view key);

  Server* server_;
  absl::flat_hash_map<std::string, absl::flat_hash_set<uint64_t>, StrHash, StrEq> table_;
  absl::flat_hash_map<std::string, Prefix, StrHash, StrEq> prefixes_;
  std::vector<std::pair<uint64_t, std::string>> deferred_;  // to the running client
  uint64_t deferred_flush_ = 0;  // the running client, owed a flush's invalidation
  bool flushed_in_command_ = false;
};

}  // namespace rankd
