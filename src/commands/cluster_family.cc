// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The cluster family: CLUSTER and its subcommands, ASKING, READONLY,
// READWRITE, with Redis 7.0's arities and flags. RESTORE-ASKING is in the
// dump family beside RESTORE.

#include "commands/cluster_handlers.h"
#include "commands/families.h"
#include "cluster/cluster.h"
#include "server/server.h"

namespace rankd {
namespace {

void ClusterHelp(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ReplyHelp(ctx.reply, "cluster",
            {"ADDSLOTS <slot> [<slot> ...]",
             "    Assign slots to current node.",
             "ADDSLOTSRANGE <start slot> <end slot> [<start slot> <end slot> ...]",
             "    Assign slots which are between <start-slot> and <end-slot> to current node.",
             "BUMPEPOCH",
             "    Advance the cluster config epoch.",
             "COUNT-FAILURE-REPORTS <node-id>",
             "    Return number of failure reports for <node-id>.",
             "COUNTKEYSINSLOT <slot>",
             "    Return the number of keys in <slot>.",
             "DELSLOTS <slot> [<slot> ...]",
             "    Delete slots information from current node.",
             "DELSLOTSRANGE <start slot> <end slot> [<start slot> <end slot> ...]",
             "    Delete slots information which are between <start-slot> and <end-slot> from current node.",
             "FAILOVER [FORCE|TAKEOVER]",
             "    Promote current replica node to being a master.",
             "FORGET <node-id>",
             "    Remove a node from the cluster.",
             "GETKEYSINSLOT <slot> <count>",
             "    Return key names stored by current node in a slot.",
             "FLUSHSLOTS",
             "    Delete current node own slots information.",
             "INFO",
             "    Return information about the cluster.",
             "KEYSLOT <key>",
             "    Return the hash slot for <key>.",
             "MEET <ip> <port> [<bus-port>]",
             "    Connect nodes into a working cluster.",
             "MYID",
             "    Return the node id.",
             "NODES",
             "    Return cluster configuration seen by node. Output format:",
             "    <id> <ip:port> <flags> <master> <pings> <pongs> <epoch> <link> <slot> ...",
             "REPLICATE <node-id>",
             "    Configure current node as replica to <node-id>.",
             "RESET [HARD|SOFT]",
             "    Reset current node (default: soft).",
             "SET-CONFIG-EPOCH <epoch>",
             "    Set config epoch of current node.",
             "SETSLOT <slot> (IMPORTING <node-id>|MIGRATING <node-id>|STABLE|NODE <node-id>)",
             "    Set slot state.",
             "REPLICAS <node-id>",
             "    Return <node-id> replicas.",
             "SAVECONFIG",
             "    Force saving cluster configuration on disk.",
             "SLOTS",
             "    Return information about slots range mappings. Each range is made of:",
             "    start, end, master and replicas IP addresses, ports and ids",
             "SHARDS",
             "    Return information about slot range mappings and the nodes associated with them.",
             "LINKS",
             "    Return information about all network links between this node and its peers.",
             "    Output format is an array where each array element is a map containing attributes of a link"});
}

constexpr uint32_t kAdminFlags = kAdmin | kStale;
constexpr CommandSpec kClusterSubcommands[] = {
    {"addslots", -3, kAdminFlags, 0, 0, 0, &ClusterAddSlots},
    {"addslotsrange", -4, kAdminFlags, 0, 0, 0, &ClusterAddSlots},
    {"bumpepoch", 2, kAdminFlags, 0, 0, 0, &ClusterBumpEpoch},
    {"count-failure-reports", 3, kAdminFlags, 0, 0, 0, &ClusterCountFailureReports},
    {"countkeysinslot", 3, kStale, 0, 0, 0, &ClusterCountKeysInSlot},
    {"delslots", -3, kAdminFlags, 0, 0, 0, &ClusterDelSlots},
    {"delslotsrange", -4, kAdminFlags, 0, 0, 0, &ClusterDelSlots},
    {"failover", -2, kAdminFlags, 0, 0, 0, &ClusterFailover},
    {"flushslots", 2, kAdminFlags, 0, 0, 0, &ClusterFlushSlots},
    {"forget", 3, kAdminFlags, 0, 0, 0, &ClusterForget},
    {"getkeysinslot", 4, kStale, 0, 0, 0, &ClusterGetKeysInSlot},
    {"help", 2, kLoading | kStale, 0, 0, 0, &ClusterHelp},
    {"info", 2, kStale, 0, 0, 0, &ClusterInfo},
    {"keyslot", 3, kStale, 0, 0, 0, &ClusterKeySlot},
    {"links", 2, kStale, 0, 0, 0, &ClusterLinks},
    {"meet", -4, kAdminFlags, 0, 0, 0, &ClusterMeet},
    {"myid", 2, kStale, 0, 0, 0, &ClusterMyId},
    {"nodes", 2, kStale, 0, 0, 0, &ClusterNodes},
    {"replicas", 3, kAdminFlags, 0, 0, 0, &ClusterReplicas},
    {"replicate", 3, kAdminFlags, 0, 0, 0, &ClusterReplicate},
    {"reset", -2, kAdminFlags | kNoScript, 0, 0, 0, &ClusterReset},
    {"saveconfig", 2, kAdminFlags, 0, 0, 0, &ClusterSaveConfig},
    {"set-config-epoch", 3, kAdminFlags, 0, 0, 0, &ClusterSetConfigEpoch},
    {"setslot", -4, kAdminFlags, 0, 0, 0, &ClusterSetSlot},
    {"shards", 2, kStale, 0, 0, 0, &ClusterShards},
    {"slaves", 3, kAdminFlags, 0, 0, 0, &ClusterReplicas},
    {"slots", 2, kStale, 0, 0, 0, &ClusterSlots},
};

constexpr CommandSpec kClusterCommands[] = {
    {"cluster", -2, 0, 0, 0, 0, &ClusterHelp, kClusterSubcommands},
};

// The client's routing flags: @connection, as Redis 7.0 files them.
constexpr CommandSpec kClusterConnectionCommands[] = {
    {"asking", 1, kFast, 0, 0, 0, &Asking},
    {"readonly", 1, kLoading | kStale | kFast, 0, 0, 0, &ReadOnly},
    {"readwrite", 1, kLoading | kStale | kFast, 0, 0, 0, &ReadWrite},
};

}  // namespace

Cluster* RequireCluster(CommandContext& ctx) {
  Cluster* cluster = Cluster::Of(ctx.server);
  if (!cluster) ctx.reply.Error("ERR This instance has cluster support disabled");
  return cluster;
}

std::span<const CommandSpec> ClusterCommands() { return kClusterCommands; }
std::span<const CommandSpec> ClusterConnectionCommands() { return kClusterConnectionCommands; }

}  // namespace rankd
