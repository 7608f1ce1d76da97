// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Handlers of CLUSTER's subcommands and of ASKING / READONLY / READWRITE /
// RESTORE-ASKING (table: cluster_family.cc). Membership and the bus's view:
// cluster_node_cmds.cc; the slot table: cluster_slot_admin.cc; keys by slot
// and the client's routing flags: cluster_slot_cmds.cc.
// Every handler answers "ERR This instance has cluster support disabled"
// when the server is not in cluster mode, as Redis 7.0 does.

#pragma once

#include "server/command.h"
#include "server/server.h"

namespace rankd {
class Cluster;
}

namespace rankd {

// The server's cluster, or nullptr after answering Redis's "cluster
// support disabled" error (cluster_family.cc).
Cluster* RequireCluster(CommandContext& ctx);

// Whether any database holds a key (REPLICATE, RESET and FLUSHSLOTS refuse).
bool ServerHasKeys(Server& s);

// cluster_node_cmds.cc
// DEBUG CLUSTERLINK KILL <to|from|all> <node-id> (debug_command.cc's row).
void DebugClusterLink(CommandContext& ctx);
// DEBUG DROP-CLUSTER-PACKET-FILTER <type>: the bus drops received messages of
// that type (-1: none); OK outside cluster mode too, as Redis.
void DebugDropClusterPackets(CommandContext& ctx);
void ClusterInfo(CommandContext& ctx);
void ClusterMyId(CommandContext& ctx);
void ClusterNodes(CommandContext& ctx);
void ClusterMeet(CommandContext& ctx);
void ClusterForget(CommandContext& ctx);
void ClusterReplicate(CommandContext& ctx);
void ClusterReplicas(CommandContext& ctx);  // REPLICAS and SLAVES
void ClusterReset(CommandContext& ctx);
void ClusterSaveConfig(CommandContext& ctx);
void ClusterSetConfigEpoch(CommandContext& ctx);
void ClusterBumpEpoch(CommandContext& ctx);
void ClusterCountFailureReports(CommandContext& ctx);
void ClusterFailover(CommandContext& ctx);

// cluster_views.cc
void ClusterSlots(CommandContext& ctx);
void ClusterShards(CommandContext& ctx);
void ClusterLinks(CommandContext& ctx);

// cluster_slot_admin.cc
void ClusterAddSlots(CommandContext& ctx);       // ADDSLOTS and ADDSLOTSRANGE
void ClusterDelSlots(CommandContext& ctx);       // DELSLOTS and DELSLOTSRANGE
void ClusterFlushSlots(CommandContext& ctx);
void ClusterSetSlot(CommandContext& ctx);

// cluster_slot_cmds.cc
void ClusterKeySlot(CommandContext& ctx);
void ClusterCountKeysInSlot(CommandContext& ctx);
void ClusterGetKeysInSlot(CommandContext& ctx);
void Asking(CommandContext& ctx);
void ReadOnly(CommandContext& ctx);
void ReadWrite(CommandContext& ctx);

}  // namespace rankd
