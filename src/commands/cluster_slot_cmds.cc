// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CLUSTER KEYSLOT / COUNTKEYSINSLOT / GETKEYSINSLOT (the database's slot
// index, db/slot_index.h), and the client's routing flags: ASKING (the next
// command may use an importing slot), READONLY / READWRITE (reads served on
// a replica of the slot's master).

#include "base/key_slot.h"
#include "base/numbers.h"
#include "cluster/cluster.h"
#include "commands/cluster_handlers.h"
#include "db/database.h"

namespace rankd {
namespace {

constexpr std::string_view kNotInteger = "ERR value is not an integer or out of range";

}  // namespace

void ClusterKeySlot(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.reply.Integer(KeySlot(ctx.args[2]));
}

void ClusterCountKeysInSlot(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  int64_t slot;
  if (!ParseInt64(ctx.args[2], &slot)) return ctx.reply.Error(kNotInteger);
  if (slot < 0 || slot >= kClusterSlots) return ctx.reply.Error("ERR Invalid slot");
  const SlotIndex* index = ctx.server.db(0).slot_index();
  ctx.reply.Integer(index ? static_cast<int64_t>(index->Count(static_cast<int>(slot))) : 0);
}

void ClusterGetKeysInSlot(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  int64_t slot, max;
  if (!ParseInt64(ctx.args[2], &slot) || !ParseInt64(ctx.args[3], &max)) {
    return ctx.reply.Error(kNotInteger);
  }
  if (max < 0 || slot < 0 || slot >= kClusterSlots) {
    return ctx.reply.Error("ERR Invalid slot or number of keys");
  }
  const SlotIndex* index = ctx.server.db(0).slot_index();
  const int s = static_cast<int>(slot);
  const size_t n = index ? std::min<size_t>(index->Count(s), static_cast<size_t>(max)) : 0;
  ctx.reply.ArrayHeader(n);
  if (n > 0) index->ForSlot(s, n, [&](const KeyEntry* e) { ctx.reply.Bulk(e->key()); });
}

void Asking(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.client.asking = true;
  ctx.client.asking_spent = false;
  ctx.reply.Ok();
}

void ReadOnly(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.client.cluster_readonly = true;
  ctx.reply.Ok();
}

void ReadWrite(CommandContext& ctx) {
  if (!RequireCluster(ctx)) return;
  ctx.client.cluster_readonly = false;
  ctx.reply.Ok();
}

}  // namespace rankd
