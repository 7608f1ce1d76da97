// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CLIENT ID / SETNAME / GETNAME / LIST / INFO / KILL / HELP.

#include <string>
#include <vector>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/server_handlers.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {

// One CLIENT LIST line in Redis 7.0's field order (fields rankd does not
// track report Redis's neutral values).
std::string DescribeClient(Server& server, Client& c) {
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
  num("id", static_cast<int64_t>(c.id));
  field("addr", conn ? conn->peer() : "");
  field("laddr", conn ? conn->local() : "");
  num("fd", conn ? conn->fd() : -1);
  field("name", c.name);
  num("age", (now - c.created_ms) / 1000);
  num("idle", conn ? (now - conn->last_active_ms()) / 1000 : 0);
  std::string flags;
  if (c.in_multi) flags += 'x';
  if (c.blocked.active) flags += 'b';
  if (flags.empty()) flags = "N";
  field("flags", flags);
  num("db", c.db_index);
  num("sub", 0);
  num("psub", 0);
  num("ssub", 0);
  num("multi", c.in_multi ? static_cast<int64_t>(c.queued.size()) : -1);
  num("qbuf", conn ? static_cast<int64_t>(conn->query_buffer_size()) : 0);
  num("qbuf-free", 0);
  num("argv-mem", 0);
  num("multi-mem", 0);
  num("rbs", 0);
  num("rbp", 0);
  num("obl", 0);
  num("oll", 0);
  num("omem", conn ? static_cast<int64_t>(conn->output_buffer_size()) : 0);
  num("tot-mem", 0);
  field("events", "r");
  field("cmd", c.last_command.empty() ? "NULL" : c.last_command);
  field("user", c.user_name);
  num("redir", -1);
  num("resp", c.resp());
  (void)server;
  return s;
}

namespace {

void ClientList(CommandContext& ctx) {
  std::vector<uint64_t> ids;
  bool filter_ids = false;
  for (size_t i = 2; i < ctx.argc(); i++) {
    if (EqualsIgnoreCase(ctx.arg(i), "TYPE") && i + 1 < ctx.argc()) {
      std::string_view type = ctx.arg(++i);
      if (!EqualsIgnoreCase(type, "normal") && !EqualsIgnoreCase(type, "master") &&
          !EqualsIgnoreCase(type, "replica") && !EqualsIgnoreCase(type, "pubsub")) {
        return ctx.reply.Error("ERR Unknown client type '" + std::string(type) + "'");
      }
      if (!EqualsIgnoreCase(type, "normal")) return ctx.reply.Verbatim("");
    } else if (EqualsIgnoreCase(ctx.arg(i), "ID") && i + 1 < ctx.argc()) {
      filter_ids = true;
      for (i++; i < ctx.argc(); i++) {
        int64_t id;
        if (!ParseInt64(ctx.arg(i), &id) || id <= 0) {
          return ctx.reply.Error("ERR Invalid client ID");
        }
        ids.push_back(static_cast<uint64_t>(id));
      }
    } else {
      return ctx.reply.Error(err::kSyntax);
    }
  }
  std::string out;
  ctx.server.ForEachClient([&](Client& c) {
    if (filter_ids && std::find(ids.begin(), ids.end(), c.id) == ids.end()) return;
    out += DescribeClient(ctx.server, c);
    out += '\n';
  });
  ctx.reply.Verbatim(out);
}

// CLIENT KILL addr | CLIENT KILL [ID id] [ADDR addr] [LADDR addr] [SKIPME yes/no] ...
void ClientKill(CommandContext& ctx) {
  if (ctx.argc() == 3) {
    Client* victim = nullptr;
    ctx.server.ForEachClient([&](Client& c) {
      if (c.conn && c.conn->peer() == ctx.arg(2)) victim = &c;
    });
    if (!victim) return ctx.reply.Error("ERR No such client");
    ctx.reply.Ok();
    // Killing oneself still delivers the +OK first, as Redis does.
    victim == &ctx.client ? victim->conn->CloseAfterReply() : victim->conn->Kill();
    return;
  }
  if (ctx.argc() % 2 != 0) return ctx.reply.Error(err::kSyntax);
  int64_t id = 0;
  std::string_view addr, laddr;
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
    } else if (EqualsIgnoreCase(opt, "TYPE") || EqualsIgnoreCase(opt, "USER")) {
      // Every client is a normal client of the default user.
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
  int64_t killed = 0;
  ctx.server.ForEachClient([&](Client& c) {
    if (!c.conn) return;
    if (id && c.id != static_cast<uint64_t>(id)) return;
    if (!addr.empty() && c.conn->peer() != addr) return;
    if (!laddr.empty() && c.conn->local() != laddr) return;
    if (skipme && &c == &ctx.client) return;
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
    return ctx.reply.Verbatim(DescribeClient(ctx.server, c) + "\n");
  }
  if (EqualsIgnoreCase(sub, "KILL") && ctx.argc() >= 3) return ClientKill(ctx);
  if ((EqualsIgnoreCase(sub, "NO-EVICT") || EqualsIgnoreCase(sub, "NO-TOUCH")) &&
      ctx.argc() == 3) {
    return ctx.reply.Ok();
  }
  if (EqualsIgnoreCase(sub, "HELP") && ctx.argc() == 2) {
    return ReplyHelp(
        ctx.reply, "client",
        {"GETNAME", "    Return the name of the current connection.",
         "ID", "    Return the ID of the current connection.",
         "INFO", "    Return information about the current client connection.",
         "KILL <ip:port>", "    Kill connection made from <ip:port>.",
         "KILL <option> <value> [<option> <value> [...]]",
         "    Kill connections. Options are:",
         "    * ADDR (<ip:port>|<unixsocket>:0)", "      Kill connections made from the specified address",
         "    * LADDR (<ip:port>|<unixsocket>:0)", "      Kill connections made to specified local address",
         "    * ID <client-id>", "      Kill connections by client id.",
         "    * SKIPME (YES|NO)", "      Skip killing current connection (default: yes).",
         "LIST [options ...]", "    Return information about client connections. Options:",
         "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)", "      Return clients of specified type.",
         "    * ID <client-id> [<client-id> ...]", "      Return clients of specified IDs only.",
         "SETNAME <name>", "    Assign the name <name> to the current connection."});
  }
  ctx.reply.Error(UnknownSubcommandError(sub, "CLIENT"));
}

}  // namespace rankd
