// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The command tables of every family. Each family file defines exactly one
// of these functions; RegisterAllCommands gives them all to a Server (main
// and the command tests call it once, before anything runs).

#pragma once

#include <span>
#include <string_view>

#include "commands/command_keys.h"
#include "commands/server_handlers.h"
#include "server/acl_categories.h"
#include "server/command_ids.h"
#include "server/command.h"
#include "server/server.h"

namespace rankd {

std::span<const CommandSpec> ServerCommands();       // server_family.cc
std::span<const CommandSpec> TransactionCommands();  // tx_family.cc
std::span<const CommandSpec> KeyCommands();          // keys_family.cc
std::span<const CommandSpec> DumpCommands();         // dump_family.cc
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
std::span<const CommandSpec> HyperLogLogCommands();  // hll_family.cc
std::span<const CommandSpec> ListCommands();         // list_family.cc
std::span<const CommandSpec> SortCommands();         // sort_family.cc
std::span<const CommandSpec> PersistCommands();      // persist_family.cc
std::span<const CommandSpec> ScriptingCommands();    // scripting_family.cc
std::span<const CommandSpec> LeaderboardCommands();  // leaderboard_family.cc
std::span<const CommandSpec> PubSubCommands();       // pubsub_family.cc
std::span<const CommandSpec> LeaderboardMetaCommands();  // lb_meta_family.cc
std::span<const CommandSpec> LeaderboardWatchCommands();  // lb_watch_family.cc
std::span<const CommandSpec> LeaderboardPeriodCommands();  // lb_period_family.cc
std::span<const CommandSpec> LeaderboardAlterCommands();   // lb_alter_family.cc
std::span<const CommandSpec> LeaderboardViewCommands();  // lb_view_family.cc
std::span<const CommandSpec> ReplicationCommands();  // replication_family.cc
std::span<const CommandSpec> AclCommands();          // acl_command.cc
std::span<const CommandSpec> ClusterCommands();      // cluster_family.cc
std::span<const CommandSpec> ClusterConnectionCommands();  // cluster_family.cc
std::span<const CommandSpec> StreamCommands();       // stream_family.cc

// Gives every registered command that has a CommandDoc the ACL categories
// the doc lists (command_docs.cc).
void ApplyDocumentedCategories(CommandIds& ids);

// Each family with the ACL category all its commands share (flags add
// @read, @write, @fast/@slow, @admin, ...; see server/acl_categories.h).
// A command with a CommandDoc then gets the documented categories, which are
// Redis 7.0's own for every command Redis has.
inline void RegisterAllCommands(Server& server) {
  struct Family {
    std::span<const CommandSpec> (*table)();
    uint64_t categories;
  };
  for (Family f : {
           Family{AclCommands, 0},
           Family{BitCommands, kAclBitmap},
           Family{ClusterCommands, 0},
           Family{ClusterConnectionCommands, kAclConnection},
           Family{DumpCommands, kAclKeyspace},
           Family{ExpireCommands, kAclKeyspace},
           Family{GeoCommands, kAclGeo},
           Family{HashCommands, kAclHash},
           Family{HashExpireCommands, kAclHash},
           Family{HyperLogLogCommands, kAclHyperLogLog},
           Family{KeyCommands, kAclKeyspace},
           Family{LeaderboardCommands, kAclSortedSet},
           Family{LeaderboardMetaCommands, kAclSortedSet},
           Family{LeaderboardPeriodCommands, kAclSortedSet},
           Family{LeaderboardAlterCommands, kAclSortedSet},
           Family{LeaderboardViewCommands, kAclSortedSet},
           Family{LeaderboardWatchCommands, kAclSortedSet},
           Family{ListCommands, kAclList},
           Family{PersistCommands, kAclAdmin | kAclDangerous},
           Family{PubSubCommands, kAclPubSub},
           Family{ReplicationCommands, kAclAdmin | kAclDangerous},
           Family{ScriptingCommands, kAclScripting},
           Family{ServerCommands, 0},
           Family{SetCommands, kAclSet},
           Family{SortCommands, kAclList},
           Family{StreamCommands, kAclStream},
           Family{StringCommands, kAclString},
           Family{TransactionCommands, kAclTransaction},
           Family{ZSetCommands, kAclSortedSet},
           Family{ZSetDueCommands, kAclSortedSet},
           Family{ZSetExpireCommands, kAclSortedSet},
       }) {
    server.RegisterCommands(f.table(), f.categories);
  }
  ApplyDocumentedCategories(server.command_ids());
  server.command_ids().AddRedisOnlyCommands();
  server.describe_client = [](Client& c) { return DescribeClient(c); };
  server.find_acl_keys = &FindAclKeys;
}

}  // namespace rankd
