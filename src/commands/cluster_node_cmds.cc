// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CLUSTER subcommands about membership and the bus's view (placeholders until the bus lands).

#include "cluster/cluster.h"
#include "commands/cluster_handlers.h"

namespace rankd {

void ClusterInfo(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterMyId(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterNodes(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterSlots(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterShards(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterLinks(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterMeet(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterForget(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterReplicate(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterReplicas(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterReset(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterSaveConfig(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterSetConfigEpoch(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterBumpEpoch(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterCountFailureReports(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterFailover(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

}  // namespace rankd
