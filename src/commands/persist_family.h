// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The persistence commands' hooks into handlers owned by other families:
// DEBUG RELOAD / DEBUG LOADAOF (server_family.cc's DEBUG) and the INFO
// persistence section (info_command.cc). The command table itself is
// PersistCommands() in server/families.h.

#pragma once

#include <string>
#include <utility>
#include <vector>

#include "server/command.h"

namespace rankd {

class Server;

// True if `ctx` is DEBUG RELOAD [NOSAVE] or DEBUG LOADAOF, which it then
// handles (and replies to); false for other DEBUG subcommands.
bool DebugPersist(CommandContext& ctx);

// The INFO persistence fields (name, value), Redis's names and order.
std::vector<std::pair<std::string, std::string>> PersistInfoFields(Server& server);

}  // namespace rankd
