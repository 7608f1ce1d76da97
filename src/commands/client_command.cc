// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CLIENT ID / SETNAME / GETNAME / LIST / INFO / KILL / HELP.

#include <algorithm>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/server_handlers.h"
#include "server/client_eviction.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {

// Redis's fixed reply buffer (PROTO_REPLY_CHUNK_BYTES): replies past it
// go to a list of blocks. rankd has one growing buffer; CLIENT LIST reports
// its pending bytes in the same shape (obl, oll, omem).
constexpr int64_t kReplyChunk = 16 * 1024;

// One CLIENT LIST line in Redis 7.0's field order. `argv` is the command the
// client is running (the caller's own CLIENT LIST / INFO), else empty.
std::string DescribeClient(Client& c, std::span<const std::string_view> argv) {
  const int64_t now = MonoMs();
  Connection* conn = c.conn;
  std::string s;
  auto field = [&](std::string_view name, std::string_view value) {
    if (!s.empty()) s.push_back(' ');
    s.append(name);
    s.push_back('=');
    s.append(value);
  };
  auto num = [&](std::string_view name, int64_t v) { field(name, FormatInt64(v)); };
  int64_t argv_mem = 0, multi_mem = 0;
  for (std::string_view a : argv) argv_mem += static_cast<int64_t>(a.size());
  for (const auto& cmd : c.queued) {
    for (const std::string& a : cmd) multi_mem += static_cast<int64_t>(a.size());
  }
  const int64_t qbuf = conn ? static_cast<int64_t>(conn->query_buffer_size()) : 0;
  const int64_t qcap = conn ? static_cast<int64_t>(conn->query_buffer_capacity()) : 0;
  const int64_t pending = conn ? static_cast<int64_t>(conn->output_buffer_size()) : 0;
  const int64_t ocap = conn ? static_cast<int64_t>(conn->output_buffer_capacity()) : 0;
  const int64_t omem = std::max<int64_t>(0, pending - kReplyChunk);
  num("id", static_cast<int64_t>(c.id));
  // The master client has no connection: its link's addresses and socket.
  field("addr", conn ? conn->peer() : c.link_peer);
  field("laddr", conn ? conn->local() : c.link_local);
  num("fd", conn ? conn->fd() : c.link_fd);
  field("name", c.name);
  num("age", (now - c.created_ms) / 1000);
  num("idle", conn ? (now - conn->last_active_ms()) / 1000 : 0);
  std::string flags;
  // Redis: a monitor is a replica too, shown as O instead of S.
  if (c.monitor) {
    flags += 'O';
  } else if (c.repl_role == Client::ReplRole::kReplica) {
    flags += 'S';
  }
  if (c.repl_role == Client::ReplRole::kMaster) flags += 'M';
  if (c.all_subscription_count() > 0) flags += 'P';
  if (c.in_multi) flags += 'x';
  if (c.blocked.active || !c.postponed.empty()) flags += 'b';
  if (c.tracking.on) flags += 't';
  if (c.tracking.broken_redirect) flags += 'R';
  if (c.tracking.bcast) flags += 'B';
  if (conn && conn->unix_socket()) flags += 'U';
  if (c.cluster_readonly) flags += 'r';  // READONLY (cluster mode)
  if (c.no_evict) flags += 'e';
  if (flags.empty()) flags = "N";
  field("flags", flags);
  num("db", c.db_index);
  num("sub", static_cast<int64_t>(c.subscriptions[0].size()));
  num("psub", static_cast<int64_t>(c.subscriptions[1].size()));
  num("ssub", static_cast<int64_t>(c.subscriptions[2].size()));
  num("multi", c.in_multi ? static_cast<int64_t>(c.queued.size()) : -1);
  num("qbuf", qbuf);
  num("qbuf-free", std::max<int64_t>(0, qcap - qbuf));
  num("argv-mem", argv_mem);
  num("multi-mem", multi_mem);
  num("rbs", ocap);
  num("rbp", pending);
  num("obl", std::min(pending, kReplyChunk));
  num("oll", (omem + kReplyChunk - 1) / kReplyChunk);
  num("omem", omem);
  num("tot-mem", ClientMemory(c) + argv_mem);
  field("events", pending > 0 ? "rw" : "r");
  field("cmd", c.last_command.empty() ? "NULL" : c.last_command);
  field("user", c.user_name);
  num("redir", c.tracking.on ? static_cast<int64_t>(c.tracking.redirect) : -1);
  num("resp", c.resp());
  return s;
}

namespace {

// Redis getClientType's names: "master" (a replica's master client, which
// stands for its link to the primary), "replica" (a replica's link on its
// primary), "pubsub" (subscribed to anything), "normal".
std::string_view ClientType(Server& server, const Client& c) {
  if (c.repl_role == Client::ReplRole::kMaster) return "master";
  if (server.replication().IsReplicaClient(c)) return "replica";
  return c.all_subscription_count() > 0 ? "pubsub" : "normal";
}

// Parses a CLIENT LIST / KILL TYPE value into *type ("replica" for "slave").
bool ParseClientType(std::string_view arg, std::string_view* type) {
  for (std::string_view t : {"normal", "master", "replica", "pubsub"}) {
    if (EqualsIgnoreCase(arg, t)) {
      *type = t;
      return true;
    }
  }
  if (EqualsIgnoreCase(arg, "slave")) {
    *type = "replica";
    return true;
  }
  return false;
}

// CLIENT LIST | CLIENT LIST TYPE type | CLIENT LIST ID id [id ...], as
// Redis 7.0 parses it: the ID form lists clients in argument order (a
// repeated or unknown id is repeated or skipped), any integer is accepted.
void ClientList(CommandContext& ctx) {
  std::string out;
  std::string_view type;
  if (ctx.argc() == 4 && EqualsIgnoreCase(ctx.arg(2), "TYPE")) {
    if (!ParseClientType(ctx.arg(3), &type)) {
      return ctx.reply.Error("ERR Unknown client type '" + std::string(ctx.arg(3)) + "'");
    }
  } else if (ctx.argc() > 3 && EqualsIgnoreCase(ctx.arg(2), "ID")) {
    for (size_t i = 3; i < ctx.argc(); i++) {
      int64_t id;
      if (!ParseInt64(ctx.arg(i), &id)) return ctx.reply.Error("ERR Invalid client ID");
      Client* c = id > 0 ? ctx.server.FindClient(static_cast<uint64_t>(id)) : nullptr;
      Client* link = ctx.server.replication().LinkClient();
      if (!c && link && link->id == static_cast<uint64_t>(id)) c = link;
      if (!c) continue;
      std::span<const std::string_view> argv;
      if (c == &ctx.client) argv = ctx.args;
      out += DescribeClient(*c, argv) + "\n";
    }
    return ctx.reply.Verbatim(out);
  } else if (ctx.argc() != 2) {
    return ctx.reply.Error(err::kSyntax);
  }
  auto add = [&](Client& c) {
    if (!type.empty() && ClientType(ctx.server, c) != type) return;
    out += DescribeClient(c, &c == &ctx.client ? ctx.args : std::span<const std::string_view>());
    out += '\n';
  };
  // The master client (not a connection) in its place in id order.
  Client* link = ctx.server.replication().LinkClient();
  ctx.server.ForEachClient([&](Client& c) {
    if (link && link->id < c.id) add(*std::exchange(link, nullptr));
    add(c);
  });
  if (link) add(*link);
  ctx.reply.Verbatim(out);
}

// CLIENT KILL addr | CLIENT KILL [ID id] [ADDR addr] [LADDR addr] [SKIPME yes/no] ...
void ClientKill(CommandContext& ctx) {
  if (ctx.argc() == 3) {
    Client* victim = nullptr;
    ctx.server.ForEachClient([&](Client& c) {
      if (c.conn && c.conn->peer() == ctx.arg(2)) victim = &c;
    });
    if (!victim) {
      Client* link = ctx.server.replication().LinkClient();
      if (!link || link->link_peer != ctx.arg(2)) return ctx.reply.Error("ERR No such client");
      ctx.server.replication().KillLink();
      return ctx.reply.Ok();
    }
    ctx.reply.Ok();
    // Killing oneself still delivers the +OK first, as Redis does.
    victim == &ctx.client ? victim->conn->CloseAfterReply() : victim->conn->Kill();
    return;
  }
  if (ctx.argc() % 2 != 0) return ctx.reply.Error(err::kSyntax);
  int64_t id = 0, max_age = 0;
  std::string_view addr, laddr, type, user;
  bool skipme = true;
  for (size_t i = 2; i + 1 < ctx.argc(); i += 2) {
    std::string_view opt = ctx.arg(i), val = ctx.arg(i + 1);
    if (EqualsIgnoreCase(opt, "ID")) {
      if (!ParseInt64(val, &id) || id <= 0) {
        return ctx.reply.Error("ERR client-id should be greater than 0");
      }
    } else if (EqualsIgnoreCase(opt, "ADDR")) {
      addr = val;
    } else if (EqualsIgnoreCase(opt, "LADDR")) {
      laddr = val;
    } else if (EqualsIgnoreCase(opt, "TYPE")) {
      if (!ParseClientType(val, &type)) {
        return ctx.reply.Error("ERR Unknown client type '" + std::string(val) + "'");
      }
    } else if (EqualsIgnoreCase(opt, "USER")) {
      if (!ctx.server.acl().Find(val)) {
        return ctx.reply.Error("ERR No such user '" + std::string(val) + "'");
      }
      user = val;
    } else if (EqualsIgnoreCase(opt, "MAXAGE")) {
      if (!ParseInt64(val, &max_age)) return ctx.reply.Error(err::kNotInteger);
    } else if (EqualsIgnoreCase(opt, "SKIPME")) {
      if (EqualsIgnoreCase(val, "yes")) {
        skipme = true;
      } else if (EqualsIgnoreCase(val, "no")) {
        skipme = false;
      } else {
        return ctx.reply.Error(err::kSyntax);
      }
    } else {
      return ctx.reply.Error(err::kSyntax);
    }
  }
  auto matches = [&](Client& c, std::string_view peer, std::string_view local) {
    if (id && c.id != static_cast<uint64_t>(id)) return false;
    if (!addr.empty() && peer != addr) return false;
    if (!laddr.empty() && local != laddr) return false;
    if (!type.empty() && ClientType(ctx.server, c) != type) return false;
    if (!user.empty() && c.user_name != user) return false;
    if (max_age > 0 && (MonoMs() - c.created_ms) / 1000 <= max_age) return false;
    return !(skipme && &c == &ctx.client);
  };
  int64_t killed = 0;
  // The master client (the link to the primary, while up): dropping the
  // link, which reconnects and continues with PSYNC, as Redis.
  if (Client* link = ctx.server.replication().LinkClient();
      link && matches(*link, link->link_peer, link->link_local)) {
    ctx.server.replication().KillLink();
    killed++;
  }
  ctx.server.ForEachClient([&](Client& c) {
    if (!c.conn || !matches(c, c.conn->peer(), c.conn->local())) return;
    &c == &ctx.client ? c.conn->CloseAfterReply() : c.conn->Kill();
    killed++;
  });
  ctx.reply.Integer(killed);
}

}  // namespace

void ClientCmd(CommandContext& ctx) {
  std::string_view sub = ctx.arg(1);
  Client& c = ctx.client;
  if (EqualsIgnoreCase(sub, "ID") && ctx.argc() == 2) return ctx.reply.Integer(c.id);
  if (EqualsIgnoreCase(sub, "GETNAME") && ctx.argc() == 2) {
    return c.name.empty() ? ctx.reply.Null() : ctx.reply.Bulk(c.name);
  }
  if (EqualsIgnoreCase(sub, "SETNAME") && ctx.argc() == 3) {
    for (char ch : ctx.arg(2)) {
      if (ch < '!' || ch > '~') {
        return ctx.reply.Error(
            "ERR Client names cannot contain spaces, newlines or special characters.");
      }
    }
    c.name = std::string(ctx.arg(2));
    return ctx.reply.Ok();
  }
  if (EqualsIgnoreCase(sub, "LIST")) return ClientList(ctx);
  if (EqualsIgnoreCase(sub, "INFO") && ctx.argc() == 2) {
    return ctx.reply.Verbatim(DescribeClient(c, ctx.args) + "\n");
  }
  if (EqualsIgnoreCase(sub, "KILL") && ctx.argc() >= 3) return ClientKill(ctx);
  if (EqualsIgnoreCase(sub, "HELP") && ctx.argc() == 2) {
    return ReplyHelp(
        ctx.reply, "client",
        {
         "CACHING (YES|NO)",
         "    Enable/disable tracking of the keys for next command in OPTIN/OPTOUT modes.",
         "GETREDIR",
         "    Return the client ID we are redirecting to when tracking is enabled.",
         "GETNAME",
         "    Return the name of the current connection.",
         "ID",
         "    Return the ID of the current connection.",
         "INFO",
         "    Return information about the current client connection.",
         "KILL <ip:port>",
         "    Kill connection made from <ip:port>.",
         "KILL <option> <value> [<option> <value> [...]]",
         "    Kill connections. Options are:",
         "    * ADDR (<ip:port>|<unixsocket>:0)",
         "      Kill connections made from the specified address",
         "    * LADDR (<ip:port>|<unixsocket>:0)",
         "      Kill connections made to specified local address",
         "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
         "      Kill connections by type.",
         "    * USER <username>",
         "      Kill connections authenticated by <username>.",
         "    * SKIPME (YES|NO)",
         "      Skip killing current connection (default: yes).",
         "LIST [options ...]",
         "    Return information about client connections. Options:",
         "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
         "      Return clients of specified type.",
         "UNPAUSE",
         "    Stop the current client pause, resuming traffic.",
         "PAUSE <timeout> [WRITE|ALL]",
         "    Suspend all, or just write, clients for <timeout> milliseconds.",
         "REPLY (ON|OFF|SKIP)",
         "    Control the replies sent to the current connection.",
         "SETNAME <name>",
         "    Assign the name <name> to the current connection.",
         "UNBLOCK <clientid> [TIMEOUT|ERROR]",
         "    Unblock the specified blocked client.",
         "TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]]",
         "         [OPTIN] [OPTOUT] [NOLOOP]",
         "    Control server assisted client side caching.",
         "TRACKINGINFO",
         "    Report tracking status for the current connection.",
         "NO-EVICT (ON|OFF)",
         "    Protect current client connection from eviction."});
  }
  ctx.reply.Error(UnknownSubcommandError(sub, "CLIENT"));
}

}  // namespace rankd
