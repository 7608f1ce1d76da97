// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// ShutdownCoordinator: SHUTDOWN, SHUTDOWN ABORT and shutdowns by SIGTERM /
// SIGINT, as Redis 7.0. A shutdown first lets lagging replicas catch up:
// writes pause and the SHUTDOWN client stays blocked until every replica
// acknowledged the whole stream or shutdown-timeout passed. Then the
// durability layer stops its children, flushes the log and saves
// (finish_persistence); if that fails without FORCE the shutdown is
// cancelled: the server runs on and blocked SHUTDOWN clients get an error.
// A signal only records itself (SignalShutdown); the server's cron acts on
// it (Cron), so DEBUG PAUSE-CRON holds it and SHUTDOWN ABORT can cancel it,
// with the flags of shutdown-on-sigterm / shutdown-on-sigint.
// One per Server (Server::shutdown()); event-loop thread only.

#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace rankd {

class Server;
struct Client;

// The signal handler's half (async-signal-safe): records `sig` for
// ShutdownCoordinator::Cron. Returns true when a signal's shutdown was
// already pending (a second SIGINT exits at once, as Redis).
bool SignalShutdown(int sig);

class ShutdownCoordinator {
 public:
  explicit ShutdownCoordinator(Server* server) : server_(server) {}
  ShutdownCoordinator(const ShutdownCoordinator&) = delete;
  ShutdownCoordinator& operator=(const ShutdownCoordinator&) = delete;

  struct Flags {
    bool save = false, nosave = false, now = false, force = false;
  };
  enum class Result { kStopping, kWaiting, kFailed };

  // Starts a shutdown (joins the one waiting, if any). Unless `now` or
  // shutdown-timeout is 0, while a replica has not acknowledged the whole
  // stream, writes pause and it waits (kWaiting; Cron finishes it); else it
  // finishes at once: kStopping (the loop stops after this iteration) or
  // kFailed (logged; the server runs on). `waiter`: SHUTDOWN's client, kept
  // blocked meanwhile and answered "Errors trying to SHUTDOWN" if the
  // shutdown fails or is aborted; null for a signal.
  Result Prepare(Flags flags, Client* waiter);
  // SHUTDOWN ABORT: cancels a waiting shutdown or a signal not acted on yet.
  // False when there is neither.
  bool Abort();
  // From the server's cron: acts on a recorded signal, and finishes a
  // waiting shutdown once the replicas caught up or time ran out.
  void Cron();

  // Milliseconds a waiting shutdown has left (INFO shutdown_in_milliseconds); 0 if none.
  int64_t remaining_ms() const;
  // True for a SHUTDOWN client blocked on a waiting shutdown (INFO blocked_clients).
  bool is_waiter(const Client& c) const;
  // True once a shutdown finished (persistence done, the loop stopping).
  bool finished() const { return finished_; }

  // Set by main (the durability layer): stops children, flushes the log and
  // writes the final snapshot when `save`. False when the server can't exit
  // (already logged); with `force` the shutdown goes on anyway.
  std::function<bool(bool save, bool force)> finish_persistence;

 private:
  Result Finish();
  void Cancel();
  bool ReplicasInSync() const;

  Server* const server_;
  Flags flags_;
  int64_t deadline_ms_ = 0;        // monotonic; 0: none waiting
  std::vector<uint64_t> waiters_;  // SHUTDOWN clients blocked meanwhile
  bool finished_ = false;
};

}  // namespace rankd
