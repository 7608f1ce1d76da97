// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The server family: connection and administration commands (PING, AUTH,
// HELLO, SELECT, TIME, DEBUG, SLOWLOG, SHUTDOWN, ...). CLIENT, COMMAND, INFO
// and CONFIG have files of their own (server_handlers.h).

#include <unistd.h>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/families.h"
#include "commands/persist_family.h"
#include "commands/server_handlers.h"
#include "db/database.h"
#include "server/errors.h"
#include "server/server.h"
#include "server/shutdown.h"

namespace rankd {
namespace {

void Ping(CommandContext& ctx) {
  if (ctx.argc() > 2) return ctx.reply.Error(WrongArityError("ping"));
  if (ctx.client.resp() == 2 && ctx.client.all_subscription_count() > 0) {
    // The subscribed context answers as a message-shaped array (Redis).
    ctx.reply.ArrayHeader(2);
    ctx.reply.Bulk("pong");
    return ctx.reply.Bulk(ctx.argc() == 2 ? ctx.arg(1) : "");
  }
  if (ctx.argc() == 2) return ctx.reply.Bulk(ctx.arg(1));
  ctx.reply.SimpleString("PONG");
}

void Echo(CommandContext& ctx) { ctx.reply.Bulk(ctx.arg(1)); }

void Quit(CommandContext& ctx) {
  ctx.reply.Ok();
  if (ctx.client.conn) ctx.client.conn->CloseAfterReply();
}

// Authenticates `client` as `user` (AUTH, HELLO AUTH). On failure records
// it in ACL LOG, answers it (throttled: Server::AnswerAuthFailure) and
// returns false.
bool Authenticate(CommandContext& ctx, std::string_view user, std::string_view pass) {
  AclUser* u = ctx.server.acl().Authenticate(user, pass);
  if (!u) {
    // Inside EXEC (no_block: AUTH never runs from scripts) Redis says "multi".
    const bool multi = ctx.client.in_multi || ctx.no_block;
    ctx.server.acl().Log("auth", multi ? "multi" : "toplevel", "AUTH", user,
                         ctx.server.describe_client ? ctx.server.describe_client(ctx.client) : "");
    ctx.server.AnswerAuthFailure(ctx.client, err::kWrongPass, ctx.no_block);
    return false;
  }
  ctx.server.SetAuthenticated(ctx.client, u);
  return true;
}

void Auth(CommandContext& ctx) {
  if (ctx.argc() > 3) return ctx.reply.Error(err::kSyntax);
  if (ctx.server.acl().default_user().nopass() && ctx.argc() == 2) {
    return ctx.reply.Error(
        "ERR AUTH <password> called without any password configured for the default user. Are "
        "you sure your configuration is correct?");
  }
  std::string_view user = ctx.argc() == 3 ? ctx.arg(1) : "default";
  if (Authenticate(ctx, user, ctx.arg(ctx.argc() - 1))) ctx.reply.Ok();
}

bool ValidClientName(std::string_view name) {
  for (char ch : name) {
    if (ch < '!' || ch > '~') return false;
  }
  return true;
}

void Hello(CommandContext& ctx) {
  int64_t version = ctx.client.resp();
  size_t i = 1;
  if (ctx.argc() >= 2) {
    if (!ParseInt64(ctx.arg(1), &version)) {
      return ctx.reply.Error("ERR Protocol version is not an integer or out of range");
    }
    i = 2;
    if (version < 2 || version > 3) return ctx.reply.Error("NOPROTO unsupported protocol version");
  }
  std::string_view setname;
  bool has_setname = false;
  for (; i < ctx.argc(); i++) {
    if (EqualsIgnoreCase(ctx.arg(i), "AUTH") && i + 2 < ctx.argc()) {
      if (!Authenticate(ctx, ctx.arg(i + 1), ctx.arg(i + 2))) return;
      i += 2;
    } else if (EqualsIgnoreCase(ctx.arg(i), "SETNAME") && i + 1 < ctx.argc()) {
      setname = ctx.arg(++i);
      has_setname = true;
      if (!ValidClientName(setname)) {
        return ctx.reply.Error(
            "ERR Client names cannot contain spaces, newlines or special characters.");
      }
    } else {
      return ctx.reply.Error("ERR Syntax error in HELLO option '" + std::string(ctx.arg(i)) + "'");
    }
  }
  if (!ctx.client.authenticated) {
    return ctx.reply.Error(
        "NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO "
        "AUTH <user> <pass> option can be used to authenticate the client and select "
        "the RESP protocol version at the same time");
  }
  if (has_setname) ctx.client.name = std::string(setname);
  ctx.reply.set_version(static_cast<int>(version));
  ReplyBuilder& r = ctx.reply;
  r.MapHeader(7);
  r.Bulk("server");
  r.Bulk("redis");
  r.Bulk("version");
  r.Bulk("7.0.15");
  r.Bulk("proto");
  r.Integer(version);
  r.Bulk("id");
  r.Integer(static_cast<int64_t>(ctx.client.id));
  r.Bulk("mode");
  r.Bulk("standalone");
  r.Bulk("role");
  r.Bulk(ctx.server.replication().is_replica() ? "replica" : "master");
  r.Bulk("modules");
  r.ArrayHeader(0);
}

void Select(CommandContext& ctx) {
  int64_t index;
  if (!ParseInt64(ctx.arg(1), &index)) return ctx.reply.Error(err::kNotInteger);
  // Redis reads the index as a C int first (getIntFromObjectOrReply).
  if (index < INT32_MIN || index > INT32_MAX) return ctx.reply.Error(err::kIntOutOfRange);
  if (ctx.server.cluster() && index != 0) {
    return ctx.reply.Error("ERR SELECT is not allowed in cluster mode");
  }
  if (index < 0 || index >= ctx.server.db_count()) {
    return ctx.reply.Error(err::kDbIndexOutOfRange);
  }
  ctx.client.db_index = static_cast<int>(index);
  ctx.reply.Ok();
}

void Time(CommandContext& ctx) {
  int64_t us = WallUs();
  ctx.reply.ArrayHeader(2);
  ctx.reply.Bulk(FormatInt64(us / 1000000));
  ctx.reply.Bulk(FormatInt64(us % 1000000));
}

void Slowlog(CommandContext& ctx) {
  std::string_view sub = ctx.arg(1);
  SlowLog& log = ctx.server.slowlog();
  if (EqualsIgnoreCase(sub, "LEN") && ctx.argc() == 2) {
    return ctx.reply.Integer(static_cast<int64_t>(log.entries().size()));
  }
  if (EqualsIgnoreCase(sub, "RESET") && ctx.argc() == 2) {
    log.Reset();
    return ctx.reply.Ok();
  }
  if (EqualsIgnoreCase(sub, "GET") && ctx.argc() <= 3) {
    int64_t count = 10;
    if (ctx.argc() == 3) {
      if (!ParseInt64(ctx.arg(2), &count) || count < -1) {
        return ctx.reply.Error("ERR count should be greater than or equal to -1");
      }
      if (count == -1) count = static_cast<int64_t>(log.entries().size());
    }
    size_t n = std::min<size_t>(static_cast<size_t>(count), log.entries().size());
    ctx.reply.ArrayHeader(n);
    for (size_t i = 0; i < n; i++) {
      const SlowLog::Entry& e = log.entries()[i];
      ctx.reply.ArrayHeader(6);
      ctx.reply.Integer(static_cast<int64_t>(e.id));
      ctx.reply.Integer(e.unix_s);
      ctx.reply.Integer(e.duration_us);
      ctx.reply.ArrayHeader(e.args.size());
      for (const std::string& a : e.args) ctx.reply.Bulk(a);
      ctx.reply.Bulk(e.peer);
      ctx.reply.Bulk(e.client_name);
    }
    return;
  }
  if (EqualsIgnoreCase(sub, "HELP") && ctx.argc() == 2) {
    return ReplyHelp(
        ctx.reply, "slowlog",
        {"GET [<count>]",
         "    Return top <count> entries from the slowlog (default: 10, -1 mean all).",
         "    Entries are made of:",
         "    id, timestamp, time in microseconds, arguments array, client IP and port,",
         "    client name",
         "LEN", "    Return the length of the slowlog.",
         "RESET", "    Reset the slowlog."});
  }
  // Arity passed (SLOWLOG GET a b): Redis addReplySubcommandSyntaxError.
  ctx.reply.Error("ERR unknown subcommand or wrong number of arguments for '" +
                  std::string(sub) + "'. Try SLOWLOG HELP.");
}

void Shutdown(CommandContext& ctx) {
  // Redis 7.0 shutdownCommand: any order of NOSAVE, SAVE, NOW, FORCE, ABORT;
  // SAVE with NOSAVE, or ABORT with any other flag, is a syntax error.
  bool save = false, nosave = false, other = false, abort = false;
  for (size_t i = 1; i < ctx.argc(); i++) {
    std::string_view a = ctx.arg(i);
    if (EqualsIgnoreCase(a, "NOSAVE")) {
      nosave = true;
    } else if (EqualsIgnoreCase(a, "SAVE")) {
      save = true;
    } else if (EqualsIgnoreCase(a, "NOW") || EqualsIgnoreCase(a, "FORCE")) {
      other = true;
    } else if (EqualsIgnoreCase(a, "ABORT")) {
      abort = true;
    } else {
      return ctx.reply.Error(err::kSyntax);
    }
  }
  if ((abort && (save || nosave || other)) || (save && nosave)) {
    return ctx.reply.Error(err::kSyntax);
  }
  if (abort) {
    if (!ctx.server.shutdown().Abort()) return ctx.reply.Error("ERR No shutdown in progress.");
    return ctx.reply.Ok();
  }
  ShutdownCoordinator::Flags flags;
  flags.save = save;
  flags.nosave = nosave;
  for (size_t i = 1; i < ctx.argc(); i++) {
    flags.now |= EqualsIgnoreCase(ctx.arg(i), "NOW");
    flags.force |= EqualsIgnoreCase(ctx.arg(i), "FORCE");
  }
  // Inside MULTI or a script it cannot wait for replicas (Redis: NOW).
  if (ctx.no_block || !ctx.client.conn) flags.now = true;
  // Stopping: Redis closes the connection without a reply. Waiting: the
  // client stays blocked until the shutdown ends. Failed: an error.
  if (ctx.server.shutdown().Prepare(flags, &ctx.client) == ShutdownCoordinator::Result::kFailed &&
      !ctx.client.conn) {
    ctx.reply.Error("ERR Errors trying to SHUTDOWN. Check logs.");
  }
}

void Monitor(CommandContext& ctx) {
  // A transaction expects one reply per command (Redis DENY_BLOCKING).
  if (ctx.no_block) return ctx.reply.Error("ERR MONITOR isn't allowed for DENY BLOCKING client");
  if (ctx.client.monitor) return;  // already monitoring: no reply, as Redis
  ctx.server.AddMonitor(ctx.client);
  ctx.reply.Ok();
}

void Reset(CommandContext& ctx) {
  Client& c = ctx.client;
  c.in_multi = false;
  c.multi_error = false;
  c.ClearQueued();
  ctx.server.UnwatchAll(c);
  ctx.server.pubsub().Forget(c);
  ctx.server.board_watch().Forget(c);
  ctx.server.RemoveMonitor(c);
  ctx.server.tracking().Disable(c);
  c.reply_off = c.reply_skip = c.reply_skip_next = false;
  c.no_evict = false;
  c.db_index = 0;
  c.name.clear();
  c.user = &ctx.server.acl().default_user();
  c.user_name = "default";
  c.authenticated = c.user->nopass() && c.user->enabled();
  ctx.reply.set_version(2);
  ctx.reply.SimpleString("RESET");
}

// Subcommands, with Redis 7.0's arities; the container's handler serves them.
// Redis 7.0 marks only the subcommands that act on other clients "admin"
// (which also keeps them out of MONITOR).
constexpr uint32_t kClientFlags = kNoScript | kLoading | kStale;
constexpr uint32_t kClientAdmin = kAdmin | kClientFlags;
constexpr CommandSpec kClientSubcommands[] = {
    {"id", 2, kClientFlags, 0, 0, 0, &ClientCmd},
    {"getname", 2, kClientFlags, 0, 0, 0, &ClientCmd},
    {"setname", 3, kClientFlags, 0, 0, 0, &ClientCmd},
    {"list", -2, kClientAdmin, 0, 0, 0, &ClientCmd},
    {"info", 2, kClientFlags, 0, 0, 0, &ClientCmd},
    {"kill", -3, kClientAdmin, 0, 0, 0, &ClientCmd},
    {"no-evict", 3, kClientAdmin, 0, 0, 0, &ClientNoEvict},
    {"pause", -3, kClientAdmin, 0, 0, 0, &ClientPause},
    {"unpause", 2, kClientAdmin, 0, 0, 0, &ClientUnpause},
    {"reply", 3, kClientFlags, 0, 0, 0, &ClientReply},
    {"unblock", -3, kClientAdmin, 0, 0, 0, &ClientUnblock},
    {"tracking", -3, kClientFlags, 0, 0, 0, &ClientTracking},
    {"caching", 3, kClientFlags, 0, 0, 0, &ClientCaching},
    {"getredir", 2, kClientFlags, 0, 0, 0, &ClientGetRedir},
    {"trackinginfo", 2, kClientFlags, 0, 0, 0, &ClientTrackingInfo},
    {"help", 2, kLoading | kStale, 0, 0, 0, &ClientCmd},
};
constexpr uint32_t kConfigFlags = kAdmin | kNoScript | kLoading | kStale;
constexpr CommandSpec kConfigSubcommands[] = {
    {"get", -3, kConfigFlags, 0, 0, 0, &ConfigCmd},
    {"set", -4, kConfigFlags, 0, 0, 0, &ConfigCmd},
    {"resetstat", 2, kConfigFlags, 0, 0, 0, &ConfigCmd},
    {"rewrite", 2, kConfigFlags, 0, 0, 0, &ConfigCmd},
    {"help", 2, kLoading | kStale, 0, 0, 0, &ConfigCmd},
};
constexpr uint32_t kLatencyFlags = kAdmin | kNoScript | kLoading | kStale;
constexpr CommandSpec kLatencySubcommands[] = {
    {"latest", 2, kLatencyFlags, 0, 0, 0, &LatencyCmd},
    {"history", 3, kLatencyFlags, 0, 0, 0, &LatencyCmd},
    {"reset", -2, kLatencyFlags, 0, 0, 0, &LatencyCmd},
    {"graph", 3, kLatencyFlags, 0, 0, 0, &LatencyCmd},
    {"doctor", 2, kLatencyFlags, 0, 0, 0, &LatencyCmd},
    {"histogram", -2, kLatencyFlags, 0, 0, 0, &LatencyCmd},
    {"help", 2, kLoading | kStale, 0, 0, 0, &LatencyCmd},
};
constexpr uint32_t kSlowlogFlags = kAdmin | kLoading | kStale;
constexpr CommandSpec kSlowlogSubcommands[] = {
    {"get", -2, kSlowlogFlags, 0, 0, 0, &Slowlog},
    {"len", 2, kSlowlogFlags, 0, 0, 0, &Slowlog},
    {"reset", 2, kSlowlogFlags, 0, 0, 0, &Slowlog},
    {"help", 2, kLoading | kStale, 0, 0, 0, &Slowlog},
};
constexpr uint32_t kCommandFlags = kLoading | kStale;
constexpr CommandSpec kCommandSubcommands[] = {
    {"count", 2, kCommandFlags, 0, 0, 0, &CommandCmd},
    {"info", -2, kCommandFlags, 0, 0, 0, &CommandCmd},
    {"docs", -2, kCommandFlags, 0, 0, 0, &CommandCmd},
    {"list", -2, kCommandFlags, 0, 0, 0, &CommandCmd},
    {"getkeys", -4, kCommandFlags, 0, 0, 0, &CommandCmd},
    {"getkeysandflags", -4, kCommandFlags, 0, 0, 0, &CommandCmd},
    {"help", 2, kCommandFlags, 0, 0, 0, &CommandCmd},
};

// Arity follows Redis: N = exactly N args (incl. name), -N = at least N.
constexpr CommandSpec kServerCommands[] = {
    // name       arity flags                                  first last step handler
    {"ping", -1, kFast, 0, 0, 0, &Ping},
    {"echo", 2, kFast | kLoading | kStale, 0, 0, 0, &Echo},
    {"quit", -1, kNoAuth | kFast | kNoScript | kLoading | kStale, 0, 0, 0, &Quit},
    {"auth", -2, kNoAuth | kFast | kNoScript | kLoading | kStale, 0, 0, 0, &Auth},
    {"hello", -1, kNoAuth | kFast | kNoScript | kLoading | kStale, 0, 0, 0, &Hello},
    {"select", 2, kFast | kLoading | kStale, 0, 0, 0, &Select},
    {"time", 1, kFast | kLoading | kStale, 0, 0, 0, &Time},
    {"debug", -2, kAdmin | kNoScript | kLoading | kStale | kProtected, 0, 0, 0, &DebugCmd},
    {"slowlog", -2, 0, 0, 0, 0, &Slowlog, kSlowlogSubcommands},
    {"shutdown", -1, kAdmin | kNoScript | kNoMulti | kLoading | kStale, 0, 0, 0, &Shutdown},
    {"reset", 1, kNoAuth | kNoScript | kFast | kLoading | kStale, 0, 0, 0, &Reset},
    {"monitor", 1, kAdmin | kNoScript | kLoading | kStale, 0, 0, 0, &Monitor},
    {"client", -2, kClientFlags, 0, 0, 0, &ClientCmd, kClientSubcommands},
    {"command", -1, kCommandFlags, 0, 0, 0, &CommandCmd, kCommandSubcommands},
    {"info", -1, kLoading | kStale, 0, 0, 0, &InfoCmd},
    {"config", -2, kConfigFlags, 0, 0, 0, &ConfigCmd, kConfigSubcommands},
    {"latency", -2, kLatencyFlags, 0, 0, 0, &LatencyCmd, kLatencySubcommands},
};

}  // namespace

std::span<const CommandSpec> ServerCommands() { return kServerCommands; }

}  // namespace rankd
