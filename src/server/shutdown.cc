// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Redis 7.0's prepareForShutdown / finishShutdown / abortShutdown, with its
// log lines (the suite and operators grep them).

#include "server/shutdown.h"

#include <signal.h>

#include <algorithm>
#include <string>

#include "base/clock.h"
#include "base/logging.h"
#include "server/server.h"

namespace rankd {
namespace {

volatile sig_atomic_t g_signal = 0;  // SIGTERM / SIGINT not yet acted on

constexpr char kShutdownError[] = "ERR Errors trying to SHUTDOWN. Check logs.";

// shutdown-on-sigterm / -sigint: "default", or words among save, nosave, now, force.
ShutdownCoordinator::Flags SignalFlags(const Config& cfg, int sig) {
  ShutdownCoordinator::Flags f;
  auto it = cfg.compat_strings.find(sig == SIGINT ? "shutdown-on-sigint" : "shutdown-on-sigterm");
  if (it == cfg.compat_strings.end()) return f;
  std::vector<std::string_view> words;
  std::string_view v = it->second;
  while (!v.empty()) {
    const size_t end = std::min(v.find(' '), v.size());
    words.push_back(v.substr(0, end));
    v.remove_prefix(std::min(end + 1, v.size()));
  }
  auto has = [&](std::string_view w) { return std::find(words.begin(), words.end(), w) != words.end(); };
  f.save = has("save");
  f.nosave = has("nosave");
  f.now = has("now");
  f.force = has("force");
  return f;
}

}  // namespace

bool SignalShutdown(int sig) {
  const bool pending = g_signal != 0;
  g_signal = sig;
  return pending;
}

bool ShutdownCoordinator::is_waiter(const Client& c) const {
  return std::find(waiters_.begin(), waiters_.end(), c.id) != waiters_.end();
}

int64_t ShutdownCoordinator::remaining_ms() const {
  return deadline_ms_ ? std::max<int64_t>(0, deadline_ms_ - MonoMs()) : 0;
}

bool ShutdownCoordinator::ReplicasInSync() const {
  const Replication& repl = server_->replication();
  return std::all_of(repl.replicas().begin(), repl.replicas().end(),
                     [&](const ReplicaInfo& r) { return r.ack_offset == repl.offset(); });
}

ShutdownCoordinator::Result ShutdownCoordinator::Prepare(Flags flags, Client* waiter) {
  if (waiter && waiter->conn) {
    waiters_.push_back(waiter->id);
    waiter->conn->Pause();
  }
  if (deadline_ms_) return Result::kWaiting;  // one already waits
  flags_ = flags;
  LOG_WARNING("User requested shutdown...");
  const int64_t timeout = server_->config().CompatInt("shutdown-timeout", 10);
  if (!flags.now && timeout != 0 && !ReplicasInSync()) {
    deadline_ms_ = MonoMs() + timeout * 1000;
    if (server_->pause_mode() == Server::PauseMode::kNone) server_->replication().RequestAcks();
    server_->SetShutdownPause(true);
    LOG_NOTICE("Waiting for replicas before shutting down.");
    return Result::kWaiting;
  }
  return Finish();
}

ShutdownCoordinator::Result ShutdownCoordinator::Finish() {
  const Replication& repl = server_->replication();
  const int64_t now = MonoMs();
  int in_sync = 0;
  for (const ReplicaInfo& r : repl.replicas()) {
    if (r.ack_offset == repl.offset()) {
      in_sync++;
      continue;
    }
    LOG_WARNING("Lagging replica %s:%lld reported offset %lld behind master, lag=%lld, state=%s.",
                r.ip.c_str(), static_cast<long long>(r.port),
                static_cast<long long>(repl.offset() - r.ack_offset),
                static_cast<long long>((now - r.last_ack_ms) / 1000),
                std::string(r.state_name()).c_str());
  }
  if (!repl.replicas().empty()) {
    LOG_NOTICE("%d of %zu replicas are in sync when shutting down.", in_sync,
               repl.replicas().size());
  }
  const bool save = flags_.save || (!flags_.nosave && !server_->config().save.empty());
  if (finish_persistence && !finish_persistence(save, flags_.force) && !flags_.force) {
    LOG_WARNING("Errors trying to shut down the server. Check the logs for more information.");
    Cancel();
    return Result::kFailed;
  }
  finished_ = true;
  deadline_ms_ = 0;
  server_->loop().Stop();
  return Result::kStopping;
}

void ShutdownCoordinator::Cancel() {
  g_signal = 0;
  flags_ = {};
  deadline_ms_ = 0;
  std::vector<uint64_t> waiters;
  waiters.swap(waiters_);
  for (uint64_t id : waiters) {
    Client* c = server_->FindClient(id);
    if (!c || !c->conn) continue;
    c->reply->Error(kShutdownError);
    c->conn->Resume();
  }
  server_->SetShutdownPause(false);
}

bool ShutdownCoordinator::Abort() {
  if (deadline_ms_) {
    Cancel();
  } else if (g_signal) {
    g_signal = 0;  // a signal's request the cron has not acted on yet
  } else {
    return false;
  }
  LOG_NOTICE("Shutdown manually aborted.");
  return true;
}

void ShutdownCoordinator::Cron() {
  if (finished_) return;
  if (g_signal && !deadline_ms_) {
    const char* name = g_signal == SIGINT ? "SIGINT" : "SIGTERM";
    LOG_WARNING("Received %s scheduling shutdown...", name);
    if (Prepare(SignalFlags(server_->config(), g_signal), nullptr) == Result::kFailed) {
      LOG_WARNING("%s received but errors trying to shut down the server, check the logs for "
                  "more information", name);
    }
    return;
  }
  if (deadline_ms_ && (ReplicasInSync() || MonoMs() >= deadline_ms_)) Finish();
}

}  // namespace rankd
