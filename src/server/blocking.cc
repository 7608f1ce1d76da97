// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The server's waiting rooms: clients blocked on keys (BZPOPMIN and friends)
// served first come first served when a key they wait on is touched, and
// WATCHed keys for MULTI/EXEC.

#include <algorithm>

#include "base/clock.h"
#include "server/server.h"

namespace rankd {
namespace {

// Key of the blocked-clients map: database index and key bytes.
std::string BlockKey(int db, std::string_view key) {
  std::string s(reinterpret_cast<const char*>(&db), sizeof(db));
  s.append(key);
  return s;
}

}  // namespace

void Server::Block(CommandContext& ctx, std::span<const std::string_view> keys,
                   int64_t timeout_ms, int64_t wake_at_ms) {
  Client& c = ctx.client;
  if (!c.conn) return;  // cannot block
  if (ctx.retrying_blocked) return ArmWake(c, wake_at_ms);  // still waiting
  c.blocked.active = true;
  c.blocked.db = c.db_index;
  c.blocked.keys.assign(keys.begin(), keys.end());
  c.blocked.args.assign(ctx.args.begin(), ctx.args.end());
  for (std::string_view key : keys) {
    blocked_[BlockKey(c.db_index, key)].push_back(&c);
    db(c.db_index).AddBlockedKey(key);
  }
  if (timeout_ms > 0) {
    uint64_t id = c.id;
    c.blocked.timer = loop_.AddTimer(timeout_ms, [this, id] {
      Client* bc = FindClient(id);
      if (!bc || !bc->blocked.active) return;
      bc->blocked.timer = 0;
      bc->reply->NullArray();
      Unblock(*bc);
    });
  }
  ArmWake(c, wake_at_ms);
  c.conn->Pause();
}

void Server::ArmWake(Client& c, int64_t wake_at_ms) {
  if (c.blocked.wake_timer) loop_.CancelTimer(c.blocked.wake_timer);
  c.blocked.wake_timer = 0;
  if (wake_at_ms <= 0) return;
  // A far due time is re-armed daily rather than overflowing the loop's
  // clock; an early wake-up only retries the command, which re-arms.
  constexpr int64_t kMaxDelayMs = 24 * 3600 * 1000;
  const int64_t delay = std::clamp<int64_t>(wake_at_ms - WallMs(), 1, kMaxDelayMs);
  uint64_t id = c.id;
  c.blocked.wake_timer = loop_.AddTimer(delay, [this, id] {
    Client* bc = FindClient(id);
    if (!bc || !bc->blocked.active) return;
    bc->blocked.wake_timer = 0;
    // Through the ready-keys queue, so clients waiting on a key are served
    // in the order they blocked, as for writes.
    for (const std::string& key : bc->blocked.keys) db(bc->blocked.db).SignalReady(key);
    ServeReadyKeys();
  });
}

void Server::Unblock(Client& c) {
  for (const std::string& key : c.blocked.keys) {
    auto it = blocked_.find(BlockKey(c.blocked.db, key));
    if (it != blocked_.end()) {
      auto& q = it->second;
      q.erase(std::remove(q.begin(), q.end(), &c), q.end());
      if (q.empty()) blocked_.erase(it);
    }
    db(c.blocked.db).RemoveBlockedKey(key);
  }
  if (c.blocked.timer) loop_.CancelTimer(c.blocked.timer);
  if (c.blocked.wake_timer) loop_.CancelTimer(c.blocked.wake_timer);
  c.blocked = Client::Blocked{};
  if (c.conn) c.conn->Resume();
}

bool Server::UnblockClient(Client& c, bool error) {
  if (!c.blocked.active) return false;
  if (error) {
    c.reply->Error("UNBLOCKED client unblocked via CLIENT UNBLOCK");
    // The blocked call ends failed (its call was counted when it blocked).
    if (!c.blocked.args.empty()) {
      if (const CommandSpec* spec = FindCommand(c.blocked.args[0])) stats_.per_command[spec].failed++;
    }
  } else {
    c.reply->NullArray();  // the blocking commands' timeout reply
  }
  Unblock(c);
  return true;
}

size_t Server::FailBlockedClients(const std::function<std::string(const Client&)>& refusal) {
  std::vector<Client*> clients;
  for (const auto& [key, queue] : blocked_) clients.insert(clients.end(), queue.begin(), queue.end());
  std::sort(clients.begin(), clients.end());
  clients.erase(std::unique(clients.begin(), clients.end()), clients.end());
  size_t n = 0;
  for (Client* c : clients) {
    if (!c->blocked.active) continue;
    const std::string error = refusal(*c);
    if (error.empty()) continue;
    c->reply->Error(error);
    Unblock(*c);
    n++;
  }
  return n;
}

void Server::ServeReadyKeys() {
  // Not while a command runs (a busy script serving the loop, as Redis's
  // yielding commands): the clients it readied are served when it ends.
  if (call_depth_ > 0) return;
  // Serving a client may write keys others wait on: loop until quiet.
  for (int round = 0; round < 1000; round++) {
    bool any = false;
    for (auto& dbp : dbs_) {
      if (!dbp->has_ready_keys()) continue;
      any = true;
      for (const std::string& key : dbp->TakeReadyKeys()) {
        auto it = blocked_.find(BlockKey(dbp->index(), key));
        if (it == blocked_.end()) continue;
        std::vector<Client*> waiting(it->second.begin(), it->second.end());
        for (Client* c : waiting) {
          if (!c->blocked.active) continue;
          // As Redis's write lookup: a key whose deadline passed meanwhile
          // is deleted here (and its DEL replicated), and the client waits on.
          if (!c->blocked.wake_on_delete && !dbp->Find(key, /*touch_access=*/false)) continue;
          std::vector<std::string> saved = c->blocked.args;
          std::vector<std::string_view> args(saved.begin(), saved.end());
          const CommandSpec* spec = FindCommand(args[0]);
          size_t before = c->reply->buffer().size();
          int saved_db = c->db_index;
          c->db_index = c->blocked.db;
          serving_key_ = key;
          if (std::string_view ro = ReadOnlyRefusal(*c, *spec); !ro.empty()) {
            c->reply->Error(ro);
          } else {
            Call(*c, *spec, spec->name, args, false, true);
          }
          serving_key_ = {};
          c->db_index = saved_db;
          if (c->reply->buffer().size() != before) Unblock(*c);
        }
      }
    }
    if (!any) return;
  }
}

void Server::WatchKey(Client& c, std::string_view key) {
  for (auto& [dbi, k] : c.watched) {
    if (dbi == c.db_index && k == key) return;
  }
  c.watched.emplace_back(c.db_index, std::string(key));
  db(c.db_index).Watch(key, &c.watcher);
}

void Server::UnwatchAll(Client& c) {
  for (auto& [dbi, key] : c.watched) db(dbi).Unwatch(key, &c.watcher);
  c.watched.clear();
  c.watcher.dirty = false;
}

}  // namespace rankd
