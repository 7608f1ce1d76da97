// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CLIENT PAUSE / UNPAUSE as Redis 7.0. While paused, a client whose command
// the pause covers (every command under ALL; under WRITE those that may
// write: kWrite, kMayReplicate, or EXEC of a transaction holding one) is
// postponed: its connection stops reading and the command waits. When the
// pause ends (its deadline or UNPAUSE) postponed clients run their
// commands in the order they arrived. Expiry pauses too: the active cycle
// does not run and expired keys read as missing without being deleted, so
// the keyspace does not change while paused.

#include <algorithm>

#include "base/clock.h"
#include "server/server.h"

namespace rankd {

bool Server::PauseCovers(const Client& c, const CommandSpec& spec) const {
  if (pause_mode_ == PauseMode::kNone || !c.conn) return false;
  if (pause_mode_ == PauseMode::kAll) return true;
  if (spec.flags & (kWrite | kMayReplicate)) return true;
  return c.in_multi && spec.name == "exec" && (c.queued_flags & (kWrite | kMayReplicate));
}

void Server::Postpone(Client& c, std::span<const std::string_view> args) {
  c.postponed.assign(args.begin(), args.end());
  c.conn->Pause();
  postponed_.push_back(&c);
}

void Server::PauseClients(int64_t duration_ms, PauseMode mode) {
  // A stricter mode and a later end win, as Redis pauseClients.
  if (mode > client_pause_mode_) client_pause_mode_ = mode;
  const int64_t end = MonoMs() + duration_ms;
  if (end > pause_end_ms_) {
    pause_end_ms_ = end;
    if (pause_timer_) loop_.CancelTimer(pause_timer_);
    pause_timer_ = loop_.AddTimer(duration_ms, [this] {
      pause_timer_ = 0;
      UnpauseClients();
    });
  }
  UpdatePause();
}

void Server::UnpauseClients() {
  if (pause_timer_) loop_.CancelTimer(pause_timer_);
  pause_timer_ = 0;
  client_pause_mode_ = PauseMode::kNone;
  pause_end_ms_ = 0;
  UpdatePause();
}

void Server::SetFailoverPause(bool on) {
  failover_pause_ = on;
  UpdatePause();
}

void Server::SetShutdownPause(bool on) {
  shutdown_pause_ = on;
  UpdatePause();
}

void Server::UpdatePause() {
  // The strictest of the pauses in force: CLIENT PAUSE's and a failover's
  // (writes), as Redis's pause purposes.
  const PauseMode before = pause_mode_;
  const bool writes = failover_pause_ || shutdown_pause_;  // FAILOVER, a waiting SHUTDOWN
  pause_mode_ = std::max(client_pause_mode_, writes ? PauseMode::kWrite : PauseMode::kNone);
  for (auto& d : dbs_) d->set_expiry_paused(pause_mode_ != PauseMode::kNone);
  if (pause_mode_ >= before) return;
  // A replica's stream held by the pause goes on, after this command.
  if (repl_->is_replica()) loop_.AddTimer(0, [this] { repl_->ResumeStream(); });
  // Looser than before: every postponed command is tried again in arrival
  // order; those still covered are postponed again (Dispatch).
  std::deque<Client*> waiting;
  waiting.swap(postponed_);
  for (Client* c : waiting) {
    std::vector<std::string> saved = std::move(c->postponed);
    c->postponed.clear();
    std::vector<std::string_view> args(saved.begin(), saved.end());
    c->conn->Resume();  // its later commands follow this one
    Dispatch(*c, args);
  }
  if (!blocked_.empty()) ServeReadyKeys();
}

void Server::ForgetPostponed(Client& c) {
  postponed_.erase(std::remove(postponed_.begin(), postponed_.end(), &c), postponed_.end());
}

}  // namespace rankd
