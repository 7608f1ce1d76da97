// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The cluster as the server core sees it. In cluster mode (cluster-enabled
// yes) main() gives the Server an implementation (src/cluster); without one
// the server is a standalone node and Dispatch asks nothing.

#pragma once

#include <span>
#include <string>
#include <string_view>

#include "server/client.h"
#include "server/command.h"

namespace rankd {

class ClusterRouter {
 public:
  virtual ~ClusterRouter() = default;

  // Asked by Dispatch for every command a client sends (not for commands
  // from the primary's stream, AOF replay or scripts' inner calls), after
  // the ACL check and before memory, loading and MULTI queueing, as Redis
  // 7.0 orders it. Returns the error to answer instead of running the
  // command ("MOVED 3999 127.0.0.1:6381", "ASK ...", "TRYAGAIN ...",
  // "CROSSSLOT ...", "CLUSTERDOWN ..."), without the leading '-', or an
  // empty string when the command runs here. For EXEC it judges the queued
  // commands together. May clear the client's one-shot ASKING flag.
  virtual std::string Route(Client& c, const CommandSpec& spec,
                            std::span<const std::string_view> args) = 0;

  // Asked for each command a script runs (redis.call / server.call), after
  // its other checks, as Redis 7.0.15's scriptVerifyClusterState: the
  // command must be served here, judged with the caller's ASKING / READONLY
  // flags. Returns "" or the error to answer, with its "ERR " prefix. Not
  // asked for a caller that is obeyed (the primary's stream, AOF).
  // `script_slot`: the script's slot so far (-1: none); a command on keys of
  // another slot is refused ("...keys that do not hash to the same slot").
  // nullptr: the script may touch several slots (no shebang; cross-slot flag).
  virtual std::string ScriptAccess(const Client& caller, std::span<const std::string_view> args,
                                   int* script_slot) = 0;

  // Whether this node is a cluster node (always true for an implementation;
  // lets code that holds a nullable pointer read clearly).
  virtual bool enabled() const { return true; }
};

}  // namespace rankd
