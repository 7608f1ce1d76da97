// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CLUSTER subcommands about membership and this node's view: INFO, MYID,
// NODES, MEET, FORGET, REPLICATE, REPLICAS / SLAVES, RESET, SAVECONFIG,
// SET-CONFIG-EPOCH, BUMPEPOCH, COUNT-FAILURE-REPORTS, FAILOVER. Replies
// and error texts as Redis 7.0. SLOTS / SHARDS / LINKS: cluster_views.cc.

#include <string>

#include "base/numbers.h"
#include "cluster/bus.h"
#include "cluster/cluster.h"
#include "cluster/failover.h"
#include "cluster/nodes_conf.h"
#include "commands/cluster_handlers.h"

namespace rankd {
namespace {

// The node named by argument `i`, or nullptr after "ERR Unknown node <id>".
ClusterNode* NodeArg(CommandContext& ctx, Cluster& c, size_t i) {
  ClusterNode* n = c.state().Find(ctx.arg(i));
  if (!n) ctx.reply.Error("ERR Unknown node " + std::string(ctx.arg(i)));
  return n;
}

// Redis's answer to a subcommand given the wrong arguments.
void SubcommandSyntaxError(CommandContext& ctx) {
  ctx.reply.Error("ERR unknown subcommand or wrong number of arguments for '" +
                  std::string(ctx.arg(1)) + "'. Try CLUSTER HELP.");
}

void InfoLine(std::string* out, std::string_view name, uint64_t v) {
  *out += std::string(name) + ':' + std::to_string(v) + "\r\n";
}

}  // namespace

bool ServerHasKeys(Server& s) {
  for (int i = 0; i < s.db_count(); i++) {
    if (s.db(i).size() > 0) return true;
  }
  return false;
}

void ClusterInfo(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  const ClusterState& s = c->state();
  uint64_t assigned = 0, pfail = 0, fail = 0;
  for (int slot = 0; slot < kClusterSlots; slot++) {
    const ClusterNode* n = s.owner(slot);
    if (!n) continue;
    assigned++;
    if (n->flags & kNodeFail) {
      fail++;
    } else if (n->flags & kNodePFail) {
      pfail++;
    }
  }
  const ClusterNode* me = s.myself();
  const uint64_t my_epoch =
      me->is_replica() && me->primary ? me->primary->config_epoch : me->config_epoch;
  std::string out = std::string("cluster_state:") + (s.ok() ? "ok" : "fail") + "\r\n";
  InfoLine(&out, "cluster_slots_assigned", assigned);
  InfoLine(&out, "cluster_slots_ok", assigned - pfail - fail);
  InfoLine(&out, "cluster_slots_pfail", pfail);
  InfoLine(&out, "cluster_slots_fail", fail);
  InfoLine(&out, "cluster_known_nodes", s.nodes().size());
  InfoLine(&out, "cluster_size", static_cast<uint64_t>(s.SizedMasters()));
  InfoLine(&out, "cluster_current_epoch", s.current_epoch);
  InfoLine(&out, "cluster_my_epoch", my_epoch);
  for (const auto* counts : {&c->bus().sent(), &c->bus().received()}) {
    const bool sent = counts == &c->bus().sent();
    uint64_t total = 0;
    for (uint16_t t = 0; t < kMsgTypeCount; t++) {
      if ((*counts)[t] == 0) continue;
      total += (*counts)[t];
      InfoLine(&out, "cluster_stats_messages_" + std::string(BusMsgTypeName(t)) +
                         (sent ? "_sent" : "_received"), (*counts)[t]);
    }
    InfoLine(&out, sent ? "cluster_stats_messages_sent" : "cluster_stats_messages_received",
             total);
  }
  InfoLine(&out, "total_cluster_links_buffer_limit_exceeded", c->bus().links_over_limit());
  ctx.reply.Verbatim(out);
}

void ClusterMyId(CommandContext& ctx) {
  if (Cluster* c = RequireCluster(ctx)) ctx.reply.Bulk(c->state().myself()->id);
}

void ClusterNodes(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  c->RefreshMyself();  // a CONFIG SET of an announced address shows at once
  std::string out;
  for (const ClusterNode* n : c->state().nodes()) out += NodeLine(c->state(), *n) + '\n';
  ctx.reply.Verbatim(out);
}

void ClusterMeet(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  if (ctx.argc() > 5) {
    SubcommandSyntaxError(ctx);
    return;
  }
  int64_t port = 0, cport = 0;
  if (!ParseInt64(ctx.arg(3), &port)) {
    ctx.reply.Error("ERR Invalid TCP base port specified: " + std::string(ctx.arg(3)));
    return;
  }
  if (ctx.argc() == 5) {
    if (!ParseInt64(ctx.arg(4), &cport)) {
      ctx.reply.Error("ERR Invalid TCP bus port specified: " + std::string(ctx.arg(4)));
      return;
    }
  } else {
    cport = port + 10000;
  }
  if (port < 0 || port > 65535 || cport < 0 || cport > 65535 ||
      !c->bus().Meet(std::string(ctx.arg(2)), static_cast<int>(port), static_cast<int>(cport))) {
    ctx.reply.Error("ERR Invalid node address specified: " + std::string(ctx.arg(2)) + ':' +
                    std::string(ctx.arg(3)));
    return;
  }
  ctx.reply.Ok();
}

void ClusterForget(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  ClusterNode* n = NodeArg(ctx, *c, 2);
  if (!n) return;
  ClusterNode* me = c->state().myself();
  if (n == me) {
    ctx.reply.Error("ERR I tried hard but I can't forget myself...");
    return;
  }
  if (me->is_replica() && me->primary == n) {
    ctx.reply.Error("ERR Can't forget my master!");
    return;
  }
  c->bus().Blacklist(n->id);
  c->bus().DeleteNode(n);
  ctx.reply.Ok();
}

void ClusterReplicate(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  ClusterNode* n = NodeArg(ctx, *c, 2);
  if (!n) return;
  ClusterNode* me = c->state().myself();
  if (n == me) {
    ctx.reply.Error("ERR Can't replicate myself");
    return;
  }
  if (n->is_replica()) {
    ctx.reply.Error("ERR I can only replicate a master, not a replica.");
    return;
  }
  if (me->is_master() && (me->slot_count > 0 || ServerHasKeys(ctx.server))) {
    ctx.reply.Error("ERR To set a master the node must be empty and without assigned slots.");
    return;
  }
  c->SetMyPrimary(n);
  ctx.reply.Ok();
}

void ClusterReplicas(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  ClusterNode* n = NodeArg(ctx, *c, 2);
  if (!n) return;
  if (!n->is_master()) {
    ctx.reply.Error("ERR The specified node is not a master");
    return;
  }
  ctx.reply.ArrayHeader(n->replicas.size());
  for (const ClusterNode* r : n->replicas) ctx.reply.Bulk(NodeLine(c->state(), *r));
}

void ClusterReset(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  bool hard = false;
  if (ctx.argc() == 3) {
    if (EqualsIgnoreCase(ctx.arg(2), "hard")) {
      hard = true;
    } else if (!EqualsIgnoreCase(ctx.arg(2), "soft")) {
      ctx.reply.Error("ERR syntax error");
      return;
    }
  } else if (ctx.argc() > 3) {
    SubcommandSyntaxError(ctx);
    return;
  }
  if (c->state().myself()->is_master() && ServerHasKeys(ctx.server)) {
    ctx.reply.Error("ERR CLUSTER RESET can't be called with master nodes containing keys");
    return;
  }
  c->Reset(hard);
  ctx.reply.Ok();
}

void ClusterSaveConfig(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  if (!c->SaveConfig()) {
    ctx.reply.Error("ERR error saving the cluster node config: " + std::string(strerror(errno)));
    return;
  }
  ctx.reply.Ok();
}

void ClusterSetConfigEpoch(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  int64_t epoch = 0;
  if (!ParseInt64(ctx.arg(2), &epoch)) {
    ctx.reply.Error("ERR value is not an integer or out of range");
    return;
  }
  ClusterState& s = c->state();
  if (epoch < 0) {
    ctx.reply.Error("ERR Invalid config epoch specified: " + std::to_string(epoch));
  } else if (s.nodes().size() > 1) {
    ctx.reply.Error("ERR The user can assign a config epoch only when the node does not "
                    "know any other node.");
  } else if (s.myself()->config_epoch != 0) {
    ctx.reply.Error("ERR Node config epoch is already non-zero");
  } else {
    s.myself()->config_epoch = static_cast<uint64_t>(epoch);
    if (s.current_epoch < s.myself()->config_epoch) s.current_epoch = s.myself()->config_epoch;
    s.Todo(ClusterState::kTodoSaveConfig | ClusterState::kTodoUpdateState |
           ClusterState::kTodoFsyncConfig);
    ctx.reply.Ok();
  }
}

void ClusterBumpEpoch(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  ClusterState& s = c->state();
  ClusterNode* me = s.myself();
  const bool bump = me->config_epoch == 0 || me->config_epoch != s.MaxConfigEpoch();
  if (bump) {
    s.current_epoch++;
    me->config_epoch = s.current_epoch;
    s.Todo(ClusterState::kTodoSaveConfig | ClusterState::kTodoFsyncConfig);
  }
  ctx.reply.SimpleString(std::string(bump ? "BUMPED " : "STILL ") +
                         std::to_string(me->config_epoch));
}

void ClusterCountFailureReports(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  if (ClusterNode* n = NodeArg(ctx, *c, 2)) {
    ctx.reply.Integer(static_cast<int64_t>(n->fail_reports.size()));
  }
}

void ClusterFailover(CommandContext& ctx) {
  Cluster* c = RequireCluster(ctx);
  if (!c) return;
  if (ctx.argc() == 3 && !EqualsIgnoreCase(ctx.arg(2), "force") &&
      !EqualsIgnoreCase(ctx.arg(2), "takeover")) {
    ctx.reply.Error("ERR syntax error");
  } else if (ctx.argc() > 3) {
    SubcommandSyntaxError(ctx);
  } else {
    const bool takeover = ctx.argc() == 3 && EqualsIgnoreCase(ctx.arg(2), "takeover");
    const bool force = takeover || (ctx.argc() == 3 && EqualsIgnoreCase(ctx.arg(2), "force"));
    const std::string err = c->failover().StartManual(force, takeover);
    if (err.empty()) {
      ctx.reply.Ok();
    } else {
      ctx.reply.Error(err);
    }
  }
}

void DebugDropClusterPackets(CommandContext& ctx) {
  int64_t type = 0;
  if (!ParseInt64(ctx.arg(2), &type)) {
    return ctx.reply.Error("ERR value is not an integer or out of range");
  }
  if (Cluster* c = Cluster::Of(ctx.server)) c->bus().set_drop_filter(type);
  ctx.reply.Ok();
}

void DebugClusterLink(CommandContext& ctx) {
  Cluster* c = Cluster::Of(ctx.server);
  if (!c) {
    ctx.reply.Error("ERR Debug option only available for cluster mode enabled setup!");
    return;
  }
  ClusterNode* n = c->state().Find(ctx.arg(4));
  if (!n) {
    ctx.reply.Error("ERR Unknown node " + std::string(ctx.arg(4)));
    return;
  }
  const std::string_view dir = ctx.arg(3);
  const bool all = EqualsIgnoreCase(dir, "all");
  if (!all && !EqualsIgnoreCase(dir, "to") && !EqualsIgnoreCase(dir, "from")) {
    ctx.reply.Error("ERR Unknown direction " + std::string(dir));
    return;
  }
  c->bus().KillLinks(n, all || EqualsIgnoreCase(dir, "to"), all || EqualsIgnoreCase(dir, "from"));
  ctx.reply.Ok();
}

}  // namespace rankd
