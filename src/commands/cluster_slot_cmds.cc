// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CLUSTER KEYSLOT / COUNTKEYSINSLOT / GETKEYSINSLOT, and ASKING / READONLY / READWRITE (placeholders until routing lands).

#include "cluster/cluster.h"
#include "commands/cluster_handlers.h"

namespace rankd {

void ClusterKeySlot(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterCountKeysInSlot(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ClusterGetKeysInSlot(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void Asking(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ReadOnly(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

void ReadWrite(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Error("ERR not built yet");
}

}  // namespace rankd
