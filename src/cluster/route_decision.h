// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// DecideRoute: where a command's keys are served, by Redis 7.0's rules
// (its getNodeByQuery), as a function of the ClusterState alone so tests
// can drive it over a hand-built state. The router (router.cc) gathers the
// input from the client and the command; this file decides.
//
// The rules, in order: every key must hash to one slot (else CROSSSLOT); an
// unassigned slot is "CLUSTERDOWN Hash slot not served"; a cluster in state
// fail serves nothing (shard pub/sub: unless allow-pubsubshard-when-down;
// reads: with allow-reads-when-down); MIGRATE runs where the slot is open;
// a migrating slot with a key missing answers ASK (TRYAGAIN when some keys
// exist); an importing slot serves ASKING clients (TRYAGAIN for several
// keys with some missing); a READONLY client (or shard pub/sub) reads on a
// replica of the slot's master; else MOVED to the owner. A command without
// keys runs here.

#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"

#include "cluster/cluster_state.h"

namespace rankd {

struct RouteInput {
  // Every key (for shard pub/sub: channel) of the command, or of each
  // command EXEC runs, in order. Inline: routing runs for every command.
  absl::InlinedVector<std::string_view, 8> keys;
  bool write = false;         // a write (EXEC: any queued write)
  bool shard_pubsub = false;  // SPUBLISH / SSUBSCRIBE / SUNSUBSCRIBE among them
  bool migrate = false;       // the command is MIGRATE
  bool asking = false;        // client's ASKING, or a command flagged asking
  bool readonly = false;      // the client sent READONLY
};

struct RouteSettings {
  bool allow_reads_when_down = false;
  bool allow_pubsubshard_when_down = true;
  // cluster-preferred-endpoint-type: "ip", "hostname" or "unknown-endpoint".
  std::string endpoint_type = "ip";
};

// Which answer DecideRoute gave (scripts turn some into their own errors).
enum class RouteVerdict { kHere, kMoved, kAsk, kTryAgain, kCrossSlot, kUnbound, kDown, kDownReadOnly };

// Whether a key exists in this node's database (counted only for open
// slots; no access time touched).
using KeyExists = std::function<bool(std::string_view key)>;

// Returns "" when the command runs here, else the error to answer, without
// '-' ("MOVED 12182 127.0.0.1:7002", "ASK ...", "TRYAGAIN ...",
// "CROSSSLOT ...", "CLUSTERDOWN ..."). `settings` is asked only for the
// cases that need it.
// `*verdict` (when given) says which answer; `*slot` (when given) is set to
// the keys' slot when they have one and the cluster state lets them be
// served (Redis's hashslot out-parameter), else left alone.
std::string DecideRoute(const ClusterState& state, const RouteInput& in,
                        const std::function<RouteSettings()>& settings, const KeyExists& exists,
                        RouteVerdict* verdict = nullptr, int* slot = nullptr);

// "<endpoint>:<port>" of `n` as redirections name it.
std::string RedirectAddress(const ClusterNode& n, std::string_view endpoint_type);

}  // namespace rankd
