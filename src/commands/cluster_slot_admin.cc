// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CLUSTER ADDSLOTS / ADDSLOTSRANGE / DELSLOTS / DELSLOTSRANGE / FLUSHSLOTS /
// SETSLOT: an operator's changes to the slot table (placeholders until the
// bus lands).

#include "cluster/cluster.h"
#include "commands/cluster_handlers.h"

namespace rankd {

void ClusterAddSlots(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterDelSlots(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterFlushSlots(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterSetSlot(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

}  // namespace rankd
