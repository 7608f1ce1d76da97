// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The command tables of every family. Each family file defines exactly one
// of these functions; RegisterAllCommands gives them all to a Server (main
// and the command tests call it once, before anything runs).

#pragma once

#include <span>
#include <string_view>

#include "commands/server_handlers.h"
#include "server/acl_categories.h"
#include "server/command.h"
#include "server/server.h"

namespace rankd {

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
std::span<const CommandSpec> AclCommands();          // acl_command.cc

// Each family with the ACL category all its commands share (flags add
// @read, @write, @fast/@slow, @admin, ...; see server/acl_categories.h).
inline void RegisterAllCommands(Server& server) {
  struct Family {
    std::span<const CommandSpec> (*table)();
    uint64_t categories;
  };
  for (Family f : {Family{ServerCommands, 0}, Family{TransactionCommands, kAclTransaction},
                   Family{KeyCommands, kAclKeyspace}, Family{ExpireCommands, kAclKeyspace},
                   Family{StringCommands, kAclString}, Family{ZSetCommands, kAclSortedSet},
                   Family{SetCommands, kAclSet}, Family{ScriptingCommands, kAclScripting},
                   Family{PersistCommands, kAclAdmin | kAclDangerous},
                   Family{LeaderboardCommands, kAclSortedSet}, Family{AclCommands, 0}}) {
    server.RegisterCommands(f.table(), f.categories);
  }
  server.describe_client = [&server](Client& c) { return DescribeClient(server, c); };
}

}  // namespace rankd
