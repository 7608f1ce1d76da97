// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CLIENT subcommands that control connections rather than describe them:
// PAUSE, UNPAUSE, REPLY, UNBLOCK, NO-EVICT. The mechanisms live in the
// server core (client_pause.cc, blocking.cc, Server::OnCommand for REPLY).

#include "base/numbers.h"
#include "commands/server_handlers.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {

// CLIENT PAUSE timeout [WRITE|ALL]
void ClientPause(CommandContext& ctx) {
  // Redis checks the argument count before the timeout.
  if (ctx.argc() > 4) {
    return ctx.reply.Error("ERR unknown subcommand or wrong number of arguments for '" +
                           std::string(ctx.arg(1)) + "'. Try CLIENT HELP.");
  }
  int64_t timeout;
  if (!ParseInt64(ctx.arg(2), &timeout)) {
    return ctx.reply.Error("ERR timeout is not an integer or out of range");
  }
  if (timeout < 0) return ctx.reply.Error(err::kTimeoutNegative);
  Server::PauseMode mode = Server::PauseMode::kAll;
  if (ctx.argc() == 4 && EqualsIgnoreCase(ctx.arg(3), "WRITE")) {
    mode = Server::PauseMode::kWrite;
  } else if (ctx.argc() == 4 && !EqualsIgnoreCase(ctx.arg(3), "ALL")) {
    return ctx.reply.Error("ERR CLIENT PAUSE mode must be WRITE or ALL");
  }
  ctx.server.PauseClients(timeout, mode);
  ctx.reply.Ok();
}

void ClientUnpause(CommandContext& ctx) {
  ctx.server.UnpauseClients();
  ctx.reply.Ok();
}

// CLIENT REPLY ON|OFF|SKIP: OFF and SKIP themselves get no reply.
void ClientReply(CommandContext& ctx) {
  Client& c = ctx.client;
  std::string_view mode = ctx.arg(2);
  if (EqualsIgnoreCase(mode, "ON")) {
    c.reply_off = c.reply_skip = false;
    return ctx.reply.Ok();
  }
  if (EqualsIgnoreCase(mode, "OFF")) {
    c.reply_off = true;
    return;
  }
  if (EqualsIgnoreCase(mode, "SKIP")) {
    if (!c.reply_off) c.reply_skip_next = true;
    return;
  }
  ctx.reply.Error(err::kSyntax);
}

// CLIENT UNBLOCK id [TIMEOUT|ERROR]
void ClientUnblock(CommandContext& ctx) {
  int64_t id;
  if (!ParseInt64(ctx.arg(2), &id)) return ctx.reply.Error(err::kNotInteger);
  bool error = false;
  if (ctx.argc() == 4) {
    if (EqualsIgnoreCase(ctx.arg(3), "ERROR")) {
      error = true;
    } else if (!EqualsIgnoreCase(ctx.arg(3), "TIMEOUT")) {
      return ctx.reply.Error("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR");
    }
  } else if (ctx.argc() > 4) {
    return ctx.reply.Error(err::kSyntax);
  }
  Client* target = id > 0 ? ctx.server.FindClient(static_cast<uint64_t>(id)) : nullptr;
  ctx.reply.Integer(target && ctx.server.UnblockClient(*target, error) ? 1 : 0);
}

// CLIENT NO-EVICT ON|OFF (no eviction here: the flag is only recorded).
void ClientNoEvict(CommandContext& ctx) {
  if (EqualsIgnoreCase(ctx.arg(2), "ON")) {
    ctx.client.no_evict = true;
  } else if (EqualsIgnoreCase(ctx.arg(2), "OFF")) {
    ctx.client.no_evict = false;
  } else {
    return ctx.reply.Error(err::kSyntax);
  }
  ctx.reply.Ok();
}

}  // namespace rankd
