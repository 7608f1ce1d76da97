// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Transactions: MULTI, EXEC, DISCARD, WATCH, UNWATCH, with Redis's rules:
// an error while queueing aborts EXEC (EXECABORT); a runtime error inside
// EXEC does not roll back the other commands; any change to a WATCHed key
// (writes, expiry, FLUSHDB/FLUSHALL, SWAPDB) makes EXEC return a null array,
// except the deletion of a key that was already expired when watched.
// Queued commands run back to back, so no other client interleaves.

#include <string>
#include <vector>

#include "commands/families.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

void EndTransaction(Server& server, Client& c) {
  c.in_multi = false;
  c.multi_error = false;
  c.ClearQueued();
  server.UnwatchAll(c);
}

void Multi(CommandContext& ctx) {
  if (ctx.client.in_multi) return ctx.reply.Error(err::kNestedMulti);
  ctx.client.in_multi = true;
  ctx.reply.Ok();
}

void Exec(CommandContext& ctx) {
  Client& c = ctx.client;
  if (!c.in_multi) return ctx.reply.Error(err::kExecWithoutMulti);
  if (c.multi_error) {
    EndTransaction(ctx.server, c);
    return ctx.reply.Error(err::kExecAbort);
  }
  // A watched key that expired since WATCH counts as modified; one already
  // expired when watched does not (Redis 7.0 isWatchedKeyExpired).
  bool dirty = c.watcher.dirty;
  for (auto& [dbi, key] : c.watched) {
    if (dirty) break;
    const Database& d = ctx.server.db(dbi);
    dirty = d.IsExpiredButPresent(key) && !d.WatchedAsExpired(key, &c.watcher);
  }
  if (dirty) {
    EndTransaction(ctx.server, c);
    return ctx.reply.NullArray();
  }
  std::vector<std::vector<std::string>> queued = std::move(c.queued);
  c.in_multi = false;
  c.ClearQueued();
  ctx.server.UnwatchAll(c);
  ctx.reply.ArrayHeader(queued.size());
  std::vector<std::string_view> args;
  for (const auto& cmd : queued) {
    args.assign(cmd.begin(), cmd.end());
    ctx.server.Execute(c, args, /*no_block=*/true);
  }
}

void Discard(CommandContext& ctx) {
  if (!ctx.client.in_multi) return ctx.reply.Error(err::kDiscardWithoutMulti);
  EndTransaction(ctx.server, ctx.client);
  ctx.reply.Ok();
}

void Watch(CommandContext& ctx) {
  if (ctx.client.in_multi) return ctx.reply.Error(err::kWatchInMulti);
  for (size_t i = 1; i < ctx.argc(); i++) ctx.server.WatchKey(ctx.client, ctx.arg(i));
  ctx.reply.Ok();
}

void Unwatch(CommandContext& ctx) {
  ctx.server.UnwatchAll(ctx.client);
  ctx.reply.Ok();
}

constexpr CommandSpec kTransactionCommands[] = {
    // name     arity flags                              first last step handler
    {"multi", 1, kNoScript | kLoading | kStale | kFast, 0, 0, 0, &Multi},
    {"exec", 1, kNoScript | kLoading | kStale | kSkipSlowlog, 0, 0, 0, &Exec},
    {"discard", 1, kNoScript | kLoading | kStale | kFast, 0, 0, 0, &Discard},
    {"watch", -2, kNoScript | kLoading | kStale | kFast, 1, -1, 1, &Watch},
    {"unwatch", 1, kNoScript | kLoading | kStale | kFast, 0, 0, 0, &Unwatch},
};

}  // namespace

std::span<const CommandSpec> TransactionCommands() { return kTransactionCommands; }

}  // namespace rankd
