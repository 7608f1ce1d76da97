// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CONFIG GET / SET / RESETSTAT / REWRITE / HELP over the ConfigTable.

#include <string>
#include <utility>
#include <vector>

#include "commands/server_handlers.h"
#include "durability/persist_manager.h"
#include "server/config_rewrite.h"
#include "server/errors.h"
#include "server/protected_action.h"
#include "server/server.h"

namespace rankd {

void ConfigRewrite(CommandContext& ctx, bool force_all) {
  const std::string& path = ctx.server.config().config_file;
  if (path.empty()) return ctx.reply.Error("ERR The server is running without a config file");
  std::vector<std::string> users;
  if (ctx.server.config().aclfile.empty()) {
    for (const AclUser* u : ctx.server.acl().Users()) {
      users.push_back("user " + u->name() + " " + u->Describe());
    }
  }
  std::string error = RewriteConfigFile(path, ctx.server.config_table(), users, force_all);
  if (!error.empty()) return ctx.reply.Error("ERR Rewriting config file: " + error);
  ctx.reply.Ok();
}

void ConfigCmd(CommandContext& ctx) {
  std::string_view sub = ctx.arg(1);
  ReplyBuilder& r = ctx.reply;
  if (EqualsIgnoreCase(sub, "GET")) {
    if (ctx.argc() < 3) return r.Error(WrongArityError("config|get"));
    std::vector<std::string_view> patterns(ctx.args.begin() + 2, ctx.args.end());
    auto pairs = ctx.server.config_table().Get(patterns);
    r.MapHeader(pairs.size());
    for (auto& [name, value] : pairs) {
      r.Bulk(name);
      r.Bulk(value);
    }
    return;
  }
  if (EqualsIgnoreCase(sub, "SET")) {
    if (ctx.argc() < 4) return r.Error(WrongArityError("config|set"));
    if (ctx.argc() % 2 != 0) return r.Error(err::kSyntax);  // a name without a value (Redis)
    std::vector<std::pair<std::string, std::string>> pairs;
    for (size_t i = 2; i + 1 < ctx.argc(); i += 2) {
      pairs.emplace_back(std::string(ctx.arg(i)), std::string(ctx.arg(i + 1)));
    }
    // Redis checks names first: the first unknown, immutable or protected
    // one fails the whole call before any value is parsed.
    for (auto& [name, value] : pairs) {
      if (!ctx.server.config_table().Known(name)) break;
      if (IsProtectedConfig(name) &&
          !AllowProtectedAction(ctx.server.config().enable_protected_configs, ctx.client)) {
        return r.Error("ERR CONFIG SET failed (possibly related to argument '" + name +
                       "') - can't set protected config");
      }
    }
    std::string error = ctx.server.config_table().SetMany(pairs);
    if (!error.empty()) return r.Error("ERR " + error);
    // Inside MULTI/EXEC (no_block): turning the log on waits for the cron.
    if (PersistManager* pm = PersistManager::Of(ctx.server); pm && ctx.no_block) {
      pm->NoteConfigSetInExec();
    }
    return r.Ok();
  }
  if (EqualsIgnoreCase(sub, "RESETSTAT") && ctx.argc() == 2) {
    ServerStats& s = ctx.server.stats();
    s.total_commands = s.total_connections = s.rejected_connections = 0;
    s.keyspace_hits = s.keyspace_misses = 0;
    s.net_input_bytes = s.net_output_bytes = 0;
    s.total_forks = 0;
    s.latest_fork_usec = 0;
    s.evicted_clients = 0;
    s.lazyfreed_at_reset = ctx.server.lazy_free().freed_objects();
    s.per_command.clear();
    s.errors = ErrorCounts();
    ctx.server.evictor().reset_stats();
    ctx.server.slowlog().Reset();
    ctx.server.replication().ResetStats();
    return r.Ok();
  }
  if (EqualsIgnoreCase(sub, "REWRITE") && ctx.argc() == 2) return ConfigRewrite(ctx, false);
  if (EqualsIgnoreCase(sub, "HELP") && ctx.argc() == 2) {
    return ReplyHelp(r, "config",
                     {"GET <pattern>",
                      "    Return parameters matching the glob-like <pattern> and their values.",
                      "SET <directive> <value>",
                      "    Set the configuration <directive> to <value>.",
                      "RESETSTAT",
                      "    Reset statistics reported by the INFO command.",
                      "REWRITE",
                      "    Rewrite the configuration file."});
  }
  r.Error(UnknownSubcommandError(sub, "CONFIG"));
}

}  // namespace rankd
