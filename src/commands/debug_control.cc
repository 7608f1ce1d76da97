// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// DEBUG subcommands that steer the server for tests (Redis's test suite
// calls them): PAUSE-CRON, SET-DISABLE-DENY-SCRIPTS, CONFIG-REWRITE-FORCE-ALL,
// REPLICATE, REPLYBUFFER. One row per subcommand (DebugControl's table).

#include <string>

#include "base/numbers.h"
#include "commands/debug_rows.h"
#include "commands/server_handlers.h"
#include "server/server.h"

namespace rankd {
namespace {

// DEBUG PAUSE-CRON <0|1>: the server's periodic task stops / resumes.
void PauseCron(CommandContext& ctx) {
  ctx.server.set_cron_paused(ctx.arg(2) != "0");
  ctx.reply.Ok();
}

// DEBUG SET-DISABLE-DENY-SCRIPTS <0|1>: scripts may call no-script commands.
void DisableDenyScripts(CommandContext& ctx) {
  ctx.server.set_script_deny_disabled(ctx.arg(2) != "0");
  ctx.reply.Ok();
}

// DEBUG CONFIG-REWRITE-FORCE-ALL: CONFIG REWRITE writing every parameter.
void RewriteForceAll(CommandContext& ctx) { ConfigRewrite(ctx, true); }

// DEBUG REPLICATE <command> [args...]: sends the command to the replicas and
// the append-only log without running it.
void Replicate(CommandContext& ctx) {
  ctx.server.Propagate(ctx.client, ctx.args.subspan(2));
  ctx.reply.Ok();
}

// DEBUG REPLYBUFFER PEAK-RESET-TIME <never|reset|ms> | RESIZING <0|1>:
// accepted for Redis's tests; rankd sizes reply buffers its own way
// (docs/compatibility.md), so neither changes anything.
void ReplyBuffer(CommandContext& ctx) {
  std::string_view what = ctx.arg(2), value = ctx.arg(3);
  int64_t n;
  if (EqualsIgnoreCase(what, "PEAK-RESET-TIME")) {
    if (!EqualsIgnoreCase(value, "never") && !EqualsIgnoreCase(value, "reset") &&
        !ParseInt64(value, &n)) {
      return ctx.reply.Error("ERR value is not an integer or out of range");
    }
    return ctx.reply.Ok();
  }
  if (EqualsIgnoreCase(what, "RESIZING")) return ctx.reply.Ok();
  ctx.reply.Error("ERR unknown subcommand or wrong number of arguments for 'replybuffer'. Try "
                  "DEBUG HELP.");
}

constexpr DebugRow kRows[] = {
    {"PAUSE-CRON", 3, 3, &PauseCron},
    {"SET-DISABLE-DENY-SCRIPTS", 3, 3, &DisableDenyScripts},
    {"CONFIG-REWRITE-FORCE-ALL", 2, 2, &RewriteForceAll},
    {"REPLICATE", 3, SIZE_MAX, &Replicate},
    {"REPLYBUFFER", 4, 4, &ReplyBuffer},
};

}  // namespace

bool DebugControl(CommandContext& ctx) { return RunDebugRow(kRows, ctx); }

}  // namespace rankd
