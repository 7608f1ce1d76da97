// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The command tables of every family, gathered by the Server at start-up.
// Each family file defines exactly one of these functions.

#pragma once

#include <span>
#include <string_view>

#include "server/command.h"

namespace rankd {

class Server;
struct Client;

std::span<const CommandSpec> ServerCommands();       // server_family.cc
std::span<const CommandSpec> TransactionCommands();  // tx_family.cc
std::span<const CommandSpec> KeyCommands();          // keys_family.cc
std::span<const CommandSpec> ExpireCommands();       // expire_family.cc
std::span<const CommandSpec> StringCommands();       // string_family.cc
std::span<const CommandSpec> ZSetCommands();         // zset_family.cc
std::span<const CommandSpec> SetCommands();          // set_family.cc
std::span<const CommandSpec> PersistCommands();      // persist_family.cc
std::span<const CommandSpec> ScriptingCommands();    // scripting_family.cc
std::span<const CommandSpec> LeaderboardCommands();  // leaderboard_family.cc

// While a script runs past busy-reply-threshold, answers `args` with -BUSY
// and returns true, except for SCRIPT KILL, FUNCTION KILL, FUNCTION STATS
// and SHUTDOWN NOSAVE (which also stops the script). scripting_family.cc.
bool RejectWhileScriptBusy(Server& server, Client& client, std::span<const std::string_view> args);

}  // namespace rankd
