// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The routing decision of cluster mode (Cluster::Route): gathers a command's
// keys (EXEC: every queued command's) and the client's flags, and asks
// DecideRoute (route_decision.h).

#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "cluster/route_decision.h"
#include "server/command_keys.h"
#include "server/pubsub.h"

namespace rankd {
namespace {

bool IsShardPubSub(std::string_view name) {
  return EqualsIgnoreCase(name, "spublish") || EqualsIgnoreCase(name, "ssubscribe") ||
         EqualsIgnoreCase(name, "sunsubscribe");
}

// ASKING covers the next command only (a whole transaction inside MULTI):
// the flag is dropped when the command after that one is routed.
void ExpireAsking(Client& c, std::string_view name) {
  if (EqualsIgnoreCase(name, "asking") || EqualsIgnoreCase(name, "multi")) return;
  if (c.in_multi && !EqualsIgnoreCase(name, "exec") && !EqualsIgnoreCase(name, "discard")) return;
  c.asking_spent = true;
}

}  // namespace

void Cluster::AddRouteKeys(std::span<const std::string_view> args, const CommandSpec* spec,
                           RouteInput* in) const {
  if (args.empty()) return;
  if (IsShardPubSub(args[0])) {
    in->shard_pubsub = true;
    const size_t last = EqualsIgnoreCase(args[0], "spublish") ? 2 : args.size();
    for (size_t i = 1; i < last && i < args.size(); i++) in->keys.push_back(args[i]);
    return;
  }
  auto add = [&](const auto& positions) {
    for (size_t pos : positions) {
      if (pos < args.size()) in->keys.push_back(args[pos]);
    }
  };
  if (spec) {  // resolved by the dispatcher: no second lookup of the name
    const CommandIds& ids = server_.command_ids();
    add(CommandKeyPositions(server_.find_acl_keys, *spec, ids.NameOf(ids.IdOf(spec)), args));
  } else {
    add(server_.CommandKeys(args, &spec));
  }
  if (spec && (spec->flags & kWrite)) in->write = true;
}

RouteSettings Cluster::RoutingSettings() {
  const ClusterSettings cs = settings();
  return {cs.allow_reads_when_down(), cs.allow_pubsubshard_when_down(), cs.preferred_endpoint()};
}

void Cluster::DropUnservedShardChannels() {
  PubSub& pubsub = server_.pubsub();
  if (pubsub.NumNames(PubSub::kShard) == 0) return;
  const ClusterNode* me = state_.myself();
  for (const std::string& channel : pubsub.Names(PubSub::kShard, std::nullopt)) {
    const ClusterNode* owner = state_.owner(KeySlot(channel));
    if (owner == me || (owner != nullptr && owner == me->primary)) continue;
    pubsub.UnsubscribeEveryone(PubSub::kShard, channel);
  }
}

std::string Cluster::BlockedRefusal(const Client& c) {
  if (!state_.ok()) return "CLUSTERDOWN The cluster is down";
  if (c.blocked.keys.empty()) return {};
  // Every key of a blocked command is in one slot (routing saw to it).
  const int slot = KeySlot(c.blocked.keys.front());
  const ClusterNode* owner = state_.owner(slot);
  const ClusterNode* me = state_.myself();
  if (owner != me && c.cluster_readonly && me->is_replica() && me->primary == owner &&
      !c.blocked.args.empty()) {
    const CommandSpec* spec = server_.FindCommand(c.blocked.args.front());
    if (spec && !(spec->flags & kWrite)) return {};
  }
  if (owner == me || state_.importing_from(slot) != nullptr) return {};
  if (owner == nullptr) return "CLUSTERDOWN Hash slot not served";
  return "MOVED " + std::to_string(slot) + " " +
         RedirectAddress(*owner, RoutingSettings().endpoint_type);
}

void Cluster::AfterSlotChanges() {
  DropUnservedShardChannels();
  server_.FailBlockedClients([this](const Client& c) { return BlockedRefusal(c); });
}

std::string Cluster::ScriptAccess(const Client& caller, std::span<const std::string_view> args,
                                  int* script_slot) {
  if (caller.obeyed) return {};
  RouteInput in;
  in.asking = caller.asking;
  in.readonly = caller.cluster_readonly;
  in.migrate = EqualsIgnoreCase(args[0], "migrate");
  AddRouteKeys(args, nullptr, &in);
  RouteVerdict verdict;
  int slot = -1;
  Database& db = server_.db(0);
  const std::string refusal = DecideRoute(
      state_, in, [this] { return RoutingSettings(); },
      [&db](std::string_view key) { return db.Peek(key) != nullptr; }, &verdict, &slot);
  if (!refusal.empty()) {
    if (verdict == RouteVerdict::kDownReadOnly) {
      return "ERR Script attempted to execute a write command while the cluster is down and "
             "readonly";
    }
    if (verdict == RouteVerdict::kDown) {
      return "ERR Script attempted to execute a command while the cluster is down";
    }
    return "ERR Script attempted to access a non local key in a cluster node";
  }
  if (slot < 0 || script_slot == nullptr) return {};
  if (*script_slot < 0) {
    *script_slot = slot;
  } else if (*script_slot != slot) {
    return "ERR Script attempted to access keys that do not hash to the same slot";
  }
  return {};
}

std::string Cluster::Route(Client& c, const CommandSpec& spec,
                           std::span<const std::string_view> args) {
  const std::string_view name = args[0];
  if (c.asking_spent) {
    c.asking = false;
    c.asking_spent = false;
  }
  RouteInput in;
  in.asking = c.asking || EqualsIgnoreCase(name, "restore-asking");
  in.readonly = c.cluster_readonly;
  in.migrate = EqualsIgnoreCase(name, "migrate");
  ExpireAsking(c, name);
  if (EqualsIgnoreCase(name, "exec")) {
    if (!c.in_multi) return {};
    for (const std::vector<std::string>& q : c.queued) {
      std::vector<std::string_view> line(q.begin(), q.end());
      AddRouteKeys(line, nullptr, &in);
    }
    in.write = c.queued_flags & kWrite;
  } else {
    AddRouteKeys(args, &spec, &in);
    in.write = spec.flags & kWrite;
  }
  Database& db = server_.db(0);
  return DecideRoute(
      state_, in, [this] { return RoutingSettings(); },
      [&db](std::string_view key) { return db.Peek(key) != nullptr; });
}

}  // namespace rankd
