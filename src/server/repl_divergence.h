// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// A command from the primary that fails on this replica means the two data
// sets may have diverged (a script that wrote, then failed; a command the
// replica does not know; a writable replica's own write in the way). As
// Redis 7.0 does, the replica logs each error as a "== CRITICAL ==" line
// naming the command, counts it (INFO unexpected_error_replies) and, by
// propagation-error-behavior, goes on (ignore) or stops (panic,
// panic-on-replicas: only while replica-read-only, since a writable replica
// is allowed to diverge).

#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace rankd {

class Server;
struct Client;

// Called after each command of the primary's stream ran: `reply` is what
// the master client was answered (RESP). Logs every error in it; may stop
// the process (abort, or exit 1 with use-exit-on-panic).
void ReportPrimaryErrors(Server& server, const Client& master,
                         std::span<const std::string_view> args, std::string_view reply);

// Error replies to the primary's commands since start-up.
uint64_t UnexpectedErrorReplies();

}  // namespace rankd
