// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Handlers of the DUMP family (dump_family.cc holds its table) defined in
// files of their own.

#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "net/sync_client.h"
#include "persist/rdb_writer.h"
#include "server/command.h"

namespace rankd {

// What DUMP and MIGRATE payloads follow from the config: rdbcompression,
// list-max-listpack-size (dump_family.cc).
DumpOptions CurrentDumpOptions(CommandContext& ctx);

// MIGRATE host port key|"" db timeout [COPY] [REPLACE] [AUTH pw | AUTH2 user pw]
// [KEYS key ...] (migrate_cmd.cc).
void Migrate(CommandContext& ctx);

class EventLoop;

// MIGRATE's cached connection to one target (migrate_cache.cc).
struct MigrateSocket {
  std::unique_ptr<SyncConnection> conn;
  int64_t last_db = -1;      // the database last SELECTed on it; -1: none yet
  int64_t last_use_ms = 0;   // monotonic
};
// The cached connection to host:port, or a new one (*fresh true) that is
// cached from now on; nullptr when no connection can be made. The pointer
// is valid until the next Acquire or Close.
MigrateSocket* AcquireMigrateSocket(EventLoop& loop, const std::string& host, int port,
                                    int64_t timeout_ms, bool* fresh);
// Closes and forgets the connection to host:port (after an I/O error).
void CloseMigrateSocket(const std::string& host, int port);
// INFO migrate_cached_sockets.
size_t MigrateCachedSockets();

}  // namespace rankd
