// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The command tables of every family. Each family file defines exactly one
// of these functions; RegisterAllCommands gives them all to a Server (main
// and the command tests call it once, before anything runs).

#pragma once

#include <span>
#include <string_view>

#include "server/command.h"
#include "server/server.h"

namespace rankd {

std::span<const CommandSpec> ServerCommands();       // server_family.cc
std::span<const CommandSpec> TransactionCommands();  // tx_family.cc
std::span<const CommandSpec> KeyCommands();          // keys_family.cc
std::span<const CommandSpec> ExpireCommands();       // expire_family.cc
std::span<const CommandSpec> StringCommands();       // string_family.cc
std::span<const CommandSpec> BitCommands();          // bit_family.cc
std::span<const CommandSpec> ZSetCommands();         // zset_family.cc
std::span<const CommandSpec> ZSetDueCommands();      // zset_due_family.cc
std::span<const CommandSpec> ZSetExpireCommands();   // zset_expire_family.cc
std::span<const CommandSpec> SetCommands();          // set_family.cc
std::span<const CommandSpec> GeoCommands();          // geo_family.cc
std::span<const CommandSpec> HashCommands();         // hash_family.cc
std::span<const CommandSpec> HashExpireCommands();   // hash_expire.cc
std::span<const CommandSpec> ListCommands();         // list_family.cc
std::span<const CommandSpec> SortCommands();         // sort_family.cc
std::span<const CommandSpec> PersistCommands();      // persist_family.cc
std::span<const CommandSpec> ScriptingCommands();    // scripting_family.cc
std::span<const CommandSpec> LeaderboardCommands();  // leaderboard_family.cc
std::span<const CommandSpec> PubSubCommands();       // pubsub_family.cc
std::span<const CommandSpec> LeaderboardMetaCommands();  // lb_meta_family.cc
std::span<const CommandSpec> LeaderboardPeriodCommands();  // lb_period_family.cc
std::span<const CommandSpec> ReplicationCommands();  // replication_family.cc

inline void RegisterAllCommands(Server& server) {
  for (auto family : {
           BitCommands,
           ExpireCommands,
           GeoCommands,
           HashCommands,
           HashExpireCommands,
           KeyCommands,
           LeaderboardCommands,
           LeaderboardMetaCommands,
           LeaderboardPeriodCommands,
           ListCommands,
           PersistCommands,
           PubSubCommands,
           ReplicationCommands,
           ScriptingCommands,
           ServerCommands,
           SetCommands,
           SortCommands,
           StringCommands,
           TransactionCommands,
           ZSetCommands,
           ZSetDueCommands,
           ZSetExpireCommands,
       }) {
    server.RegisterCommands(family());
  }
}

}  // namespace rankd
