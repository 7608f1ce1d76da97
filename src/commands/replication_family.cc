// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The replication family: REPLICAOF / SLAVEOF, ROLE, REPLCONF, PSYNC, WAIT.
// The protocol and its state live in server/replication.h; these handlers
// parse and reply with Redis 7.0's texts.

#include <string>

#include "base/numbers.h"
#include "base/split.h"
#include "commands/families.h"
#include "durability/persist_manager.h"
#include "server/errors.h"
#include "server/replication.h"
#include "server/server.h"

namespace rankd {
namespace {

void ReplicaOf(CommandContext& ctx) {
  Replication& repl = ctx.server.replication();
  if (repl.failover_state() != Replication::FailoverState::kNone) {
    return ctx.reply.Error("ERR REPLICAOF not allowed while failing over.");
  }
  if (EqualsIgnoreCase(ctx.arg(1), "no") && EqualsIgnoreCase(ctx.arg(2), "one")) {
    repl.BecomePrimary();
    return ctx.reply.Ok();
  }
  int64_t port = 0;
  // Redis getRangeLongFromObjectOrReply(0, 65535, "Invalid master port"):
  // one message for a non-number and a number out of range.
  if (!ParseInt64(ctx.arg(2), &port) || port < 0 || port > 65535) {
    return ctx.reply.Error("ERR Invalid master port");
  }
  if (!repl.ReplicaOf(std::string(ctx.arg(1)), port)) {
    return ctx.reply.SimpleString("OK Already connected to specified master");
  }
  ctx.reply.Ok();
}

void Role(CommandContext& ctx) {
  Replication& repl = ctx.server.replication();
  ReplyBuilder& r = ctx.reply;
  if (repl.is_replica()) {
    r.ArrayHeader(5);
    r.Bulk("slave");
    r.Bulk(repl.master_host());
    r.Integer(repl.master_port());
    r.Bulk(repl.link_state());
    r.Integer(repl.link_up() ? static_cast<int64_t>(repl.offset()) : -1);
    return;
  }
  r.ArrayHeader(3);
  r.Bulk("master");
  r.Integer(static_cast<int64_t>(repl.offset()));
  r.ArrayHeader(repl.replicas().size());
  for (const ReplicaInfo& info : repl.replicas()) {
    r.ArrayHeader(3);
    r.Bulk(info.ip);
    r.Bulk(std::to_string(info.port));
    r.Bulk(std::to_string(info.ack_offset));
  }
}

void ReplConf(CommandContext& ctx) {
  Replication& repl = ctx.server.replication();
  if (ctx.argc() % 2 == 0) return ctx.reply.Error(err::kSyntax);
  for (size_t i = 1; i < ctx.argc(); i += 2) {
    std::string_view opt = ctx.arg(i), value = ctx.arg(i + 1);
    if (EqualsIgnoreCase(opt, "listening-port")) {
      int64_t port = 0;
      if (!ParseInt64(value, &port)) return ctx.reply.Error(err::kNotInteger);
      repl.SetListeningPort(ctx.client, port);
    } else if (EqualsIgnoreCase(opt, "ack")) {
      // No reply, as Redis: the replica does not read one.
      int64_t offset = 0;
      if (ParseInt64(value, &offset) && offset >= 0) repl.Ack(ctx.client, offset);
      return;
    } else if (EqualsIgnoreCase(opt, "getack")) {
      if (repl.IsMasterClient(ctx.client)) repl.SendAck();
      return;
    } else if (EqualsIgnoreCase(opt, "ip-address")) {
      repl.SetAnnouncedIp(ctx.client, value);
    } else if (EqualsIgnoreCase(opt, "capa")) {
      repl.SetCapa(ctx.client, value);
    } else if (EqualsIgnoreCase(opt, "rdb-only")) {
      int64_t on = 0;
      if (!ParseInt64(value, &on) || on < 0 || on > 1) {
        return ctx.reply.Error("ERR value is out of range, must be positive");
      }
      repl.SetRdbOnly(ctx.client, on == 1);
    } else if (EqualsIgnoreCase(opt, "rdb-filter-only")) {
      // What the snapshot includes: never keys; "functions" adds the
      // function libraries (the only filter Redis 7.0 has).
      bool functions = false;
      for (std::string_view word : SplitSpaces(value)) {
        if (!EqualsIgnoreCase(word, "functions")) {
          return ctx.reply.Error("ERR Unsupported rdb-filter-only option: " + std::string(word));
        }
        functions = true;
      }
      if (PersistManager* pm = PersistManager::Of(ctx.server)) {
        pm->SetRdbFilter(ctx.client.id, functions);
      }
    } else {
      return ctx.reply.Error("ERR Unrecognized REPLCONF option: " + std::string(opt));
    }
  }
  ctx.reply.Ok();
}

void PSync(CommandContext& ctx) {
  Replication& repl = ctx.server.replication();
  if (repl.IsReplicaClient(ctx.client)) return;  // Redis ignores a second one
  // PSYNC <replid> <offset> FAILOVER: our primary hands its role to us.
  if (ctx.args.size() > 3 && EqualsIgnoreCase(ctx.arg(3), "failover")) {
    std::string error = repl.AcceptFailover(ctx.arg(1), ctx.client.conn ? ctx.client.conn->peer() : "");
    if (!error.empty()) return ctx.reply.Error(error);
  }
  if (repl.failover_state() != Replication::FailoverState::kNone) {
    return ctx.reply.Error("NOMASTERLINK Can't SYNC while failing over");
  }
  if (repl.is_replica() && !repl.link_up()) {
    return ctx.reply.Error("NOMASTERLINK Can't SYNC while not connected with my master");
  }
  int64_t offset = 0;
  if (!ParseInt64(ctx.arg(2), &offset)) return ctx.reply.Error(err::kNotInteger);
  std::string error = repl.PSync(ctx.client, ctx.arg(1), offset);
  if (!error.empty()) ctx.reply.Error(error);
}

// SYNC: a full sync without PSYNC's handshake reply (redis-cli --rdb).
void Sync(CommandContext& ctx) {
  Replication& repl = ctx.server.replication();
  if (repl.IsReplicaClient(ctx.client)) return;  // Redis ignores a second one
  if (repl.is_replica() && !repl.link_up()) {
    return ctx.reply.Error("NOMASTERLINK Can't SYNC while not connected with my master");
  }
  std::string error = repl.Sync(ctx.client);
  if (!error.empty()) ctx.reply.Error(error);
}

void Wait(CommandContext& ctx) {
  Replication& repl = ctx.server.replication();
  if (repl.is_replica()) {
    return ctx.reply.Error(
        "ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 "
        "if a replica is configured to be writable (which is not the default) writes to "
        "replicas are just local and are not propagated.");
  }
  int64_t numreplicas = 0, timeout = 0;
  if (!ParseInt64(ctx.arg(1), &numreplicas)) return ctx.reply.Error(err::kNotInteger);
  if (!ParseInt64(ctx.arg(2), &timeout)) {
    return ctx.reply.Error("ERR timeout is not an integer or out of range");
  }
  if (timeout < 0) return ctx.reply.Error("ERR timeout is negative");
  repl.Wait(ctx.client, numreplicas, timeout, ctx.no_block);
}

// FAILOVER [TO host port [FORCE]] [TIMEOUT ms] | FAILOVER ABORT, parsed as
// Redis 7.0 parses it (each option once, TO needs both words).
void Failover(CommandContext& ctx) {
  if (ctx.server.cluster()) {
    return ctx.reply.Error(
        "ERR FAILOVER not allowed in cluster mode. Use CLUSTER FAILOVER command instead.");
  }
  Replication::FailoverRequest req;
  bool to = false, abort = false;
  for (size_t i = 1; i < ctx.args.size(); i++) {
    std::string_view opt = ctx.arg(i);
    if (EqualsIgnoreCase(opt, "to") && !to && i + 2 < ctx.args.size()) {
      if (!ParseInt64(ctx.arg(i + 2), &req.port)) return ctx.reply.Error(err::kNotInteger);
      req.host = std::string(ctx.arg(i + 1));
      to = true;
      i += 2;
    } else if (EqualsIgnoreCase(opt, "timeout") && req.timeout_ms == 0 && i + 1 < ctx.args.size()) {
      if (!ParseInt64(ctx.arg(++i), &req.timeout_ms)) return ctx.reply.Error(err::kNotInteger);
      if (req.timeout_ms <= 0) return ctx.reply.Error("ERR FAILOVER timeout must be greater than 0");
    } else if (EqualsIgnoreCase(opt, "force") && !req.force) {
      req.force = true;
    } else if (EqualsIgnoreCase(opt, "abort") && !abort) {
      abort = true;
    } else {
      return ctx.reply.Error(err::kSyntax);
    }
  }
  Replication& repl = ctx.server.replication();
  std::string error;
  if (abort) {
    if (to || req.force || req.timeout_ms != 0) return ctx.reply.Error(err::kSyntax);
    error = repl.AbortFailoverCommand();
  } else {
    error = repl.StartFailover(req);
  }
  if (!error.empty()) return ctx.reply.Error(error);
  ctx.reply.Ok();
}

constexpr uint32_t kReplAdmin = kAdmin | kNoScript | kStale;

// Arity follows Redis: N = exactly N args (incl. name), -N = at least N.
constexpr CommandSpec kReplicationCommands[] = {
    // name       arity flags                                first last step handler
    {"replicaof", 3,    kReplAdmin | kNoPropagate,           0,    0,   0,   &ReplicaOf},
    {"slaveof",   3,    kReplAdmin | kNoPropagate,           0,    0,   0,   &ReplicaOf},
    {"role",      1,    kNoScript | kLoading | kStale | kFast, 0,  0,   0,   &Role},
    {"replconf",  -1,   kReplAdmin | kLoading | kNoPropagate, 0,   0,   0,   &ReplConf},
    {"psync",     -3,   kAdmin | kNoScript | kNoMulti | kNoPropagate, 0, 0, 0, &PSync},
    {"sync",      1,    kAdmin | kNoScript | kNoMulti | kNoPropagate, 0, 0, 0, &Sync},
    {"wait",      3,    kNoScript,                           0,    0,   0,   &Wait},
    {"failover",  -1,   kReplAdmin | kNoPropagate,           0,    0,   0,   &Failover},
};

}  // namespace

std::span<const CommandSpec> ReplicationCommands() { return kReplicationCommands; }

}  // namespace rankd
