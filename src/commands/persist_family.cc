// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Persistence commands: SAVE, BGSAVE, BGREWRITEAOF, LASTSAVE, and the DEBUG
// RELOAD / LOADAOF subcommands. The work is PersistManager's; these parse,
// call it, and reply with Redis's texts.

#include "commands/persist_family.h"

#include "base/clock.h"
#include "commands/families.h"
#include "durability/persist_manager.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr std::string_view kNoPersistence = "ERR persistence is not available in this server";

void Save(CommandContext& ctx) {
  PersistManager* pm = PersistManager::Of(ctx.server);
  if (!pm) return ctx.reply.Error(kNoPersistence);
  Status s = pm->Save();
  if (s.code() == Status::Code::kInvalidArgument) return ctx.reply.Error("ERR " + s.message());
  if (!s.ok()) return ctx.reply.Error("ERR");
  ctx.reply.Ok();
}

void BgSave(CommandContext& ctx) {
  PersistManager* pm = PersistManager::Of(ctx.server);
  if (!pm) return ctx.reply.Error(kNoPersistence);
  bool schedule = false;
  if (ctx.argc() == 2) {
    if (!EqualsIgnoreCase(ctx.arg(1), "SCHEDULE")) return ctx.reply.Error("ERR syntax error");
    schedule = true;
  } else if (ctx.argc() > 2) {
    return ctx.reply.Error("ERR syntax error");
  }
  bool scheduled;
  std::string err = pm->BgSave(schedule, &scheduled);
  if (!err.empty()) return ctx.reply.Error(err);
  ctx.reply.SimpleString(scheduled ? "Background saving scheduled" : "Background saving started");
}

void BgRewriteAof(CommandContext& ctx) {
  PersistManager* pm = PersistManager::Of(ctx.server);
  if (!pm) return ctx.reply.Error(kNoPersistence);
  bool scheduled;
  // no_block: inside MULTI/EXEC (BGREWRITEAOF is refused in scripts).
  std::string err = pm->BgRewrite(&scheduled, ctx.no_block);
  if (!err.empty()) return ctx.reply.Error(err);
  ctx.reply.SimpleString(scheduled ? "Background append only file rewriting scheduled"
                                   : "Background append only file rewriting started");
}

void LastSave(CommandContext& ctx) {
  PersistManager* pm = PersistManager::Of(ctx.server);
  ctx.reply.Integer(pm ? pm->lastsave() : ctx.server.stats().start_wall_ms / 1000);
}

// Arity follows Redis: N = exactly N args (incl. name), -N = at least N.
constexpr CommandSpec kPersistCommands[] = {
    // name          arity flags                         first last step handler
    {"save",         1,    kAdmin | kNoScript | kNoMulti, 0,  0,   0,   &Save},
    {"bgsave",       -1,   kAdmin | kNoScript,           0,    0,   0,   &BgSave},
    {"bgrewriteaof", 1,    kAdmin | kNoScript,           0,    0,   0,   &BgRewriteAof},
    {"lastsave",     1,    kFast | kLoading | kStale,    0,    0,   0,   &LastSave},
};

}  // namespace

std::span<const CommandSpec> PersistCommands() { return kPersistCommands; }

bool DebugPersist(CommandContext& ctx) {
  std::string_view sub = ctx.arg(1);
  const bool reload = EqualsIgnoreCase(sub, "RELOAD");
  const bool loadaof = EqualsIgnoreCase(sub, "LOADAOF");
  if (!reload && !loadaof) return false;
  PersistManager* pm = PersistManager::Of(ctx.server);
  if (!pm) {
    ctx.reply.Error(kNoPersistence);
    return true;
  }
  if (loadaof) {
    const uint64_t mods = ctx.server.modifications();
    if (ctx.argc() != 2) {
      ctx.reply.Error("ERR syntax error");
    } else if (Status s = pm->DebugLoadLog(); !s.ok()) {
      ctx.reply.Error("ERR Error loading the AOF: " + s.message());
    } else {
      // The reload leaves no change to save (DebugLoadLog zeroed dirty, as
      // Redis). Server::Call still counts one for a command that touched
      // keys: start one below zero so that count lands on zero (unsigned
      // wrap-around is defined).
      if (ctx.server.modifications() != mods) ctx.server.stats().dirty = ~uint64_t{0};
      ctx.reply.Ok();
    }
    return true;
  }
  bool save = true, flush = true, merge = false;
  for (size_t i = 2; i < ctx.argc(); i++) {
    if (EqualsIgnoreCase(ctx.arg(i), "NOSAVE")) {
      save = false;
    } else if (EqualsIgnoreCase(ctx.arg(i), "NOFLUSH")) {
      flush = false;
    } else if (EqualsIgnoreCase(ctx.arg(i), "MERGE")) {
      merge = true;
    } else {
      ctx.reply.Error("ERR syntax error");
      return true;
    }
  }
  Status s = pm->DebugReload(save, flush, merge);
  if (!s.ok()) {
    ctx.reply.Error(s.code() == Status::Code::kCorruption
                        ? "ERR Error trying to load the RDB dump, check server logs."
                        : "ERR");
  } else {
    ctx.reply.Ok();
  }
  return true;
}

std::vector<std::pair<std::string, std::string>> PersistInfoFields(Server& server) {
  if (PersistManager* pm = PersistManager::Of(server)) return pm->InfoFields();
  return {{"loading", "0"},
          {"rdb_changes_since_last_save", std::to_string(server.stats().dirty)},
          {"rdb_bgsave_in_progress", "0"},
          {"rdb_last_save_time", std::to_string(server.stats().start_wall_ms / 1000)},
          {"rdb_last_bgsave_status", "ok"},
          {"aof_enabled", "0"},
          {"aof_rewrite_in_progress", "0"},
          {"aof_rewrite_scheduled", "0"},
          {"aof_last_bgrewrite_status", "ok"},
          {"aof_last_write_status", "ok"}};
}

}  // namespace rankd
