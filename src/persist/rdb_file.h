// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// A whole Redis RDB file (what redis-server 7.0 writes for SAVE and sends a
// replica), written from rankd's databases: the exit path that Redis tools
// and a redis-server replica understand (SYNC, redis-cli --rdb, a
// redis-server replica of rankd; docs/replication.md).
//
//   "REDIS0010"
//   AUX (250) "redis-ver" "7.0.15", "redis-bits" "64", "ctime", "used-mem",
//             "aof-base" "0", then the caller's pairs (repl-stream-db,
//             repl-id, repl-offset), then "rankd-ver": redis-server skips
//             auxiliary fields it does not know
//   FUNCTION2 (245) <library code>      one per function library
//   per non-empty database:
//     SELECTDB (254) <index>  RESIZEDB (251) <keys> <keys with a deadline>
//     per live key: [EXPIRETIME_MS (252) <8 bytes LE>] <value type> <key> <value>
//       [AUX "rankd-entry" <the key as a one-key rankd snapshot>]
//   EOF (255)  <CRC64 of everything before it: 8 bytes LE>
//
// Values are DUMP's encodings (persist/rdb_writer.h PutValue): a
// leaderboard is a plain sorted set of its members and scores, member
// deadlines and metadata of sorted sets and field deadlines of hashes are
// not in the value. For such a key (HasRankdExtras) an auxiliary field
// "rankd-entry" follows its value, holding the whole key in rankd's
// snapshot format (persist/snapshot.h EncodeEntrySnapshot): redis-server and
// redis-check-rdb skip it (an unknown AUX field), rankd's reader loads it
// over the plain value (persist/rdb_reader.h), so nothing is lost either way.

#pragma once

#include <span>
#include <string>

#include "base/status.h"
#include "db/database.h"
#include "persist/env.h"
#include "persist/rdb_writer.h"
#include "persist/snapshot.h"

namespace rankd {

// The RDB version written (Redis 7.0's).
inline constexpr int kRdbFileVersion = 10;

// Writes `dbs` (index i is database i) as a Redis RDB to `file` as the
// bytes come (a 1 MiB buffer; no sync, no rename): runs in a fork()ed
// child, takes no locks. Keys already past their deadline are left out.
// `aux`: extra auxiliary fields, written after Redis's own; an entry named
// "functions" is a FUNCTION DUMP payload (persist/rdb_writer.h), written as
// the file's function records instead. `values`: rdbcompression and
// list-max-listpack-size, as DUMP. Fills *stats (keys, bytes).
Status WriteRedisRdbStream(WritableFile* file, std::span<Database* const> dbs,
                           const SnapshotAux& aux, const DumpOptions& values,
                           SnapshotWriteStats* stats);

// The name of the auxiliary field that carries a key's rankd-only state.
inline constexpr std::string_view kRankdEntryAux = "rankd-entry";

// The same as a file, crash-safe: written to `tmp_path`, fsynced, renamed
// over `path`, the directory fsynced; on error `tmp_path` is removed and
// `path` untouched (SAVE, BGSAVE, the append-only log's base).
Status WriteRedisRdbFile(Env* env, const std::string& path, const std::string& tmp_path,
                         std::span<Database* const> dbs, const SnapshotAux& aux,
                         const DumpOptions& values, SnapshotWriteStats* stats);

}  // namespace rankd
