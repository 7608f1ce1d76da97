// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// DEBUG subcommands about how data is stored and replied: PROTOCOL,
// QUICKLIST-PACKED-THRESHOLD, HTSTATS, HTSTATS-KEY, MALLCTL, MALLCTL-STR.
// One row per subcommand (DebugData's table),
// so each reads alone.

#include <string>

#include "commands/debug_rows.h"
#include "commands/server_handlers.h"
#include "server/config.h"
#include "server/server.h"

namespace rankd {
namespace {

// DEBUG QUICKLIST-PACKED-THRESHOLD <bytes>: list elements of at least this
// size are stored plain from now on; 0 restores the default (1 GB). As in
// Redis, a value from 4 GB less 1 MB up is refused.
void QuicklistPackedThreshold(CommandContext& ctx) {
  int64_t bytes;
  constexpr int64_t kMax = (int64_t{1} << 32) - (1 << 20);
  if (!ParseMemory(ctx.arg(2), &bytes) || bytes < 0 || bytes > kMax) {
    return ctx.reply.Error("ERR argument must be a memory value bigger than 1 and smaller than 4gb");
  }
  ctx.server.set_list_plain_threshold(bytes == 0 ? ListLimits::kDefaultPlainThreshold
                                                 : static_cast<size_t>(bytes));
  ctx.reply.Ok();
}

constexpr DebugRow kRows[] = {
    {"PROTOCOL", 3, 3, &DebugProtocol},
    {"QUICKLIST-PACKED-THRESHOLD", 3, 3, &QuicklistPackedThreshold},
    {"HTSTATS", 3, 3, &DebugHtStats},
    {"HTSTATS-KEY", 3, 3, &DebugHtStatsKey},
    {"MALLCTL", 3, 4, &DebugMallctl},
    {"MALLCTL-STR", 3, 4, &DebugMallctlStr},
};

}  // namespace

bool DebugData(CommandContext& ctx) { return RunDebugRow(kRows, ctx); }

}  // namespace rankd
