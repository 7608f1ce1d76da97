// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// DebugRow: one DEBUG subcommand in a table (debug_data.cc,
// debug_control.cc), so each file's subcommands read as data.

#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "server/command.h"

namespace rankd {

struct DebugRow {
  std::string_view name;     // any case
  size_t min_argc, max_argc;  // counting DEBUG and the subcommand
  void (*run)(CommandContext&);
};

// Runs the row `ctx` names (subcommand and argument count) and returns
// true; false when none matches.
inline bool RunDebugRow(std::span<const DebugRow> rows, CommandContext& ctx) {
  for (const DebugRow& row : rows) {
    if (EqualsIgnoreCase(ctx.arg(1), row.name) && ctx.argc() >= row.min_argc &&
        ctx.argc() <= row.max_argc) {
      row.run(ctx);
      return true;
    }
  }
  return false;
}

}  // namespace rankd
