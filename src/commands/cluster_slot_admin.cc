// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CLUSTER ADDSLOTS / ADDSLOTSRANGE / DELSLOTS / DELSLOTSRANGE / FLUSHSLOTS /
// SETSLOT: an operator's changes to the slot table, with Redis 7.0's checks
// and error texts (every argument is checked before anything changes).

#include <cctype>
#include <string>
#include <vector>

#include "base/numbers.h"
#include "base/logging.h"
#include "cluster/cluster.h"
#include "commands/cluster_handlers.h"
#include "db/database.h"

namespace rankd {
namespace {

constexpr uint32_t kSaveAndUpdate =
    ClusterState::kTodoSaveConfig | ClusterState::kTodoUpdateState;

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
  return out;
}

// Slot argument `i`, or -1 after "ERR Invalid or out of range slot".
int SlotArg(CommandContext& ctx, size_t i) {
  int64_t v = 0;
  if (!ParseInt64(ctx.arg(i), &v) || v < 0 || v >= kClusterSlots) {
    ctx.reply.Error("ERR Invalid or out of range slot");
    return -1;
  }
  return static_cast<int>(v);
}

// The slots the arguments name (ranges: pairs), or false after an error.
bool CollectSlots(CommandContext& ctx, bool ranges, std::vector<int>* slots) {
  if (ranges) {
    if (ctx.argc() % 2 == 1) {
      ctx.reply.Error("ERR wrong number of arguments for 'cluster|" +
                      ToLower(ctx.arg(1)) + "' command");
      return false;
    }
    for (size_t i = 2; i < ctx.argc(); i += 2) {
      const int a = SlotArg(ctx, i);
      if (a < 0) return false;
      const int b = SlotArg(ctx, i + 1);
      if (b < 0) return false;
      if (a > b) {
        ctx.reply.Error("ERR start slot number " + std::to_string(a) +
                        " is greater than end slot number " + std::to_string(b));
        return false;
      }
      for (int s = a; s <= b; s++) slots->push_back(s);
    }
    return true;
  }
  for (size_t i = 2; i < ctx.argc(); i++) {
    const int s = SlotArg(ctx, i);
    if (s < 0) return false;
    slots->push_back(s);
  }
  return true;
}

void AddOrDelSlots(CommandContext& ctx, bool add) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  const bool ranges = ctx.arg(1).size() > 8;  // ADDSLOTSRANGE / DELSLOTSRANGE
  std::vector<int> slots;
  if (!CollectSlots(ctx, ranges, &slots)) return;
  ClusterState& s = c->state();
  std::vector<bool> seen(kClusterSlots);
  for (int slot : slots) {
    if (add && s.owner(slot)) {
      ctx.reply.Error("ERR Slot " + std::to_string(slot) + " is already busy");
      return;
    }
    if (!add && !s.owner(slot)) {
      ctx.reply.Error("ERR Slot " + std::to_string(slot) + " is already unassigned");
      return;
    }
    if (seen[slot]) {
      ctx.reply.Error("ERR Slot " + std::to_string(slot) + " specified multiple times");
      return;
    }
    seen[slot] = true;
  }
  for (int slot : slots) {
    if (add) s.SetImporting(slot, nullptr);
    s.SetOwner(slot, add ? s.myself() : nullptr);
  }
  s.Todo(kSaveAndUpdate);
  ctx.reply.Ok();
}

// SETSLOT <slot> NODE <id>.
void SetSlotNode(CommandContext& ctx, Cluster& c, int slot, ClusterNode* n) {
  ClusterState& s = c.state();
  ClusterNode* me = s.myself();
  const SlotIndex* keys = ctx.server.db(0).slot_index();
  if (s.owner(slot) == me && n != me && keys && keys->Count(slot) != 0) {
    ctx.reply.Error("ERR Can't assign hashslot " + std::to_string(slot) +
                    " to a different node while I still hold keys for this hash slot.");
    return;
  }
  if (s.migrating_to(slot) && n != me) s.SetMigrating(slot, nullptr);
  // Importing into myself ends: take a new epoch so the claim wins, as
  // Redis does without asking the others.
  bool durable = false;  // a new epoch or a new role: nodes.conf fsynced, as Redis
  if (n == me && s.importing_from(slot)) {
    if (me->config_epoch == 0 || me->config_epoch != s.MaxConfigEpoch()) {
      s.current_epoch++;
      me->config_epoch = s.current_epoch;
      durable = true;
    }
    s.SetImporting(slot, nullptr);
  }
  const bool was_mine = s.owner(slot) == me;
  s.SetOwner(slot, n);
  // A master that gave away its last slot replicates the new owner (when
  // replica migration is allowed), as Redis 7.0.
  if (was_mine && n != me && me->slot_count == 0 && c.settings().allow_replica_migration()) {
    LOG_WARNING("Configuration change detected. Reconfiguring myself as a replica of %.40s",
                n->id.c_str());
    c.SetMyPrimary(n);
    durable = true;
  }
  s.Todo(kSaveAndUpdate | (durable ? ClusterState::kTodoFsyncConfig : 0u));
  ctx.reply.Ok();
}

}  // namespace

void ClusterAddSlots(CommandContext& ctx) { AddOrDelSlots(ctx, true); }

void ClusterDelSlots(CommandContext& ctx) { AddOrDelSlots(ctx, false); }

void ClusterFlushSlots(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  if (ServerHasKeys(ctx.server)) {
    ctx.reply.Error("ERR DB must be empty to perform CLUSTER FLUSHSLOTS.");
    return;
  }
  ClusterState& s = c->state();
  for (int slot = 0; slot < kClusterSlots; slot++) {
    if (s.owner(slot) == s.myself()) s.SetOwner(slot, nullptr);
  }
  s.Todo(kSaveAndUpdate);
  ctx.reply.Ok();
}

void ClusterSetSlot(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  ClusterState& s = c->state();
  ClusterNode* me = s.myself();
  if (me->is_replica()) {
    ctx.reply.Error("ERR Please use SETSLOT only with masters.");
    return;
  }
  const int slot = SlotArg(ctx, 2);
  if (slot < 0) return;
  const std::string action = ToLower(ctx.arg(3));
  auto target = [&](std::string_view unknown_prefix) -> ClusterNode* {
    ClusterNode* n = s.Find(ctx.arg(4));
    if (!n) {
      ctx.reply.Error(std::string(unknown_prefix) + std::string(ctx.arg(4)));
    } else if (n->is_replica()) {
      ctx.reply.Error("ERR Target node is not a master");
      return nullptr;
    }
    return n;
  };
  if (action == "migrating" && ctx.argc() == 5) {
    if (s.owner(slot) != me) {
      ctx.reply.Error("ERR I'm not the owner of hash slot " + std::to_string(slot));
      return;
    }
    if (ClusterNode* n = target("ERR I don't know about node ")) {
      s.SetMigrating(slot, n);
      s.Todo(kSaveAndUpdate);
      ctx.reply.Ok();
    }
  } else if (action == "importing" && ctx.argc() == 5) {
    if (s.owner(slot) == me) {
      ctx.reply.Error("ERR I'm already the owner of hash slot " + std::to_string(slot));
      return;
    }
    if (ClusterNode* n = target("ERR I don't know about node ")) {
      s.SetImporting(slot, n);
      s.Todo(kSaveAndUpdate);
      ctx.reply.Ok();
    }
  } else if (action == "stable" && ctx.argc() == 4) {
    s.SetImporting(slot, nullptr);
    s.SetMigrating(slot, nullptr);
    s.Todo(kSaveAndUpdate);
    ctx.reply.Ok();
  } else if (action == "node" && ctx.argc() == 5) {
    if (ClusterNode* n = target("ERR Unknown node ")) SetSlotNode(ctx, *c, slot, n);
  } else {
    ctx.reply.Error("ERR Invalid CLUSTER SETSLOT action or number of arguments. "
                    "Try CLUSTER HELP");
  }
}

}  // namespace rankd
