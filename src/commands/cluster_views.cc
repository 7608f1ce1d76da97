// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CLUSTER SLOTS / SHARDS / LINKS: the slot map and the bus links as
// structured replies, in Redis 7.0's shapes (endpoint choice by
// cluster-preferred-endpoint-type, the hostname / ip metadata).

#include <string>

#include "base/clock.h"
#include "cluster/bus.h"
#include "cluster/cluster.h"
#include "commands/cluster_handlers.h"
#include "server/replication.h"

namespace rankd {
namespace {

std::string Endpoint(Cluster& c, const ClusterNode& n) {
  const std::string type = c.settings().preferred_endpoint();
  if (type == "ip") return n.ip;
  if (type == "hostname") return n.hostname.empty() ? "?" : n.hostname;
  return "?";
}

// [endpoint, port, id, {metadata}]
void SlotsNodeEntry(CommandContext& ctx, Cluster& c, const ClusterNode& n) {
  const std::string type = c.settings().preferred_endpoint();
  ctx.reply.ArrayHeader(4);
  ctx.reply.Bulk(Endpoint(c, n));
  ctx.reply.Integer(n.port);
  ctx.reply.Bulk(n.id);
  if (type == "ip" && !n.hostname.empty()) {
    ctx.reply.MapHeader(1);
    ctx.reply.Bulk("hostname");
    ctx.reply.Bulk(n.hostname);
  } else if (type != "ip" && !n.ip.empty()) {
    ctx.reply.MapHeader(type == "hostname" || n.hostname.empty() ? 1 : 2);
    ctx.reply.Bulk("ip");
    ctx.reply.Bulk(n.ip);
    if (type != "hostname" && !n.hostname.empty()) {
      ctx.reply.Bulk("hostname");
      ctx.reply.Bulk(n.hostname);
    }
  } else {
    ctx.reply.MapHeader(0);
  }
}

uint64_t NodeOffset(Cluster& c, const ClusterNode& n) {
  return n.is_myself() ? c.ReplOffset() : n.repl_offset;
}

void ShardNode(CommandContext& ctx, Cluster& c, const ClusterNode& n) {
  const bool has_host = !n.hostname.empty();
  ctx.reply.MapHeader(has_host ? 8 : 7);
  ctx.reply.Bulk("id");
  ctx.reply.Bulk(n.id);
  ctx.reply.Bulk("port");
  ctx.reply.Integer(n.port);
  ctx.reply.Bulk("ip");
  ctx.reply.Bulk(n.ip);
  ctx.reply.Bulk("endpoint");
  ctx.reply.Bulk(Endpoint(c, n));
  if (has_host) {
    ctx.reply.Bulk("hostname");
    ctx.reply.Bulk(n.hostname);
  }
  ctx.reply.Bulk("role");
  ctx.reply.Bulk(n.is_master() ? "master" : "replica");
  const uint64_t offset = NodeOffset(c, n);
  ctx.reply.Bulk("replication-offset");
  ctx.reply.Integer(static_cast<int64_t>(offset));
  ctx.reply.Bulk("health");
  ctx.reply.Bulk(n.failed() ? "fail" : n.is_replica() && offset == 0 ? "loading" : "online");
}

}  // namespace

void ClusterSlots(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  const ClusterState& s = c->state();
  const size_t token = ctx.reply.DeferArray();
  size_t ranges = 0;
  int start = 0;
  for (int slot = 1; slot <= kClusterSlots; slot++) {
    const ClusterNode* n = s.owner(start);
    if (slot < kClusterSlots && s.owner(slot) == n) continue;
    if (n) {
      std::vector<const ClusterNode*> replicas;
      for (const ClusterNode* r : n->replicas) {
        if (!r->failed()) replicas.push_back(r);
      }
      ctx.reply.ArrayHeader(3 + replicas.size());
      ctx.reply.Integer(start);
      ctx.reply.Integer(slot - 1);
      SlotsNodeEntry(ctx, *c, *n);
      for (const ClusterNode* r : replicas) SlotsNodeEntry(ctx, *c, *r);
      ranges++;
    }
    start = slot;
  }
  ctx.reply.FinishArray(token, ranges);
}

void ClusterShards(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  std::vector<const ClusterNode*> masters;
  for (const ClusterNode* n : c->state().nodes()) {
    if (n->is_master()) masters.push_back(n);
  }
  ctx.reply.ArrayHeader(masters.size());
  for (const ClusterNode* m : masters) {
    ctx.reply.MapHeader(2);
    ctx.reply.Bulk("slots");
    std::vector<int> bounds;
    for (int slot = 0; slot < kClusterSlots; slot++) {
      if (!m->slots.test(slot)) continue;
      if (bounds.empty() || bounds.back() != slot - 1) {
        bounds.push_back(slot);
        bounds.push_back(slot);
      } else {
        bounds.back() = slot;
      }
    }
    ctx.reply.ArrayHeader(bounds.size());
    for (int b : bounds) ctx.reply.Integer(b);
    ctx.reply.Bulk("nodes");
    ctx.reply.ArrayHeader(1 + m->replicas.size());
    ShardNode(ctx, *c, *m);
    for (const ClusterNode* r : m->replicas) ShardNode(ctx, *c, *r);
  }
}

void ClusterLinks(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  std::vector<const ClusterLink*> links;
  for (const auto& l : c->bus().links()) {
    if (l->node && l->fd >= 0) links.push_back(l.get());
  }
  ctx.reply.ArrayHeader(links.size());
  for (const ClusterLink* l : links) {
    ctx.reply.MapHeader(6);
    ctx.reply.Bulk("direction");
    ctx.reply.Bulk(l->inbound ? "from" : "to");
    ctx.reply.Bulk("node");
    ctx.reply.Bulk(l->node->id);
    ctx.reply.Bulk("create-time");
    ctx.reply.Integer(l->ctime_ms);
    ctx.reply.Bulk("events");
    ctx.reply.Bulk(l->out_pos < l->out.size() ? "rw" : "r");
    ctx.reply.Bulk("send-buffer-allocated");
    ctx.reply.Integer(static_cast<int64_t>(l->out.capacity()));
    ctx.reply.Bulk("send-buffer-used");
    ctx.reply.Integer(static_cast<int64_t>(l->out.size() - l->out_pos));
  }
}

}  // namespace rankd
