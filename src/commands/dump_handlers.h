// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Handlers of the DUMP family (dump_family.cc holds its table) defined in
// files of their own.

#pragma once

#include "persist/rdb_writer.h"
#include "server/command.h"

namespace rankd {

// What DUMP and MIGRATE payloads follow from the config: rdbcompression,
// list-max-listpack-size (dump_family.cc).
DumpOptions CurrentDumpOptions(CommandContext& ctx);

// MIGRATE host port key|"" db timeout [COPY] [REPLACE] [AUTH pw | AUTH2 user pw]
// [KEYS key ...] (migrate_cmd.cc).
void Migrate(CommandContext& ctx);

}  // namespace rankd
