// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Snapshots: every live key of every database in one file (format in
// persist/format.h, docs/file-formats.md). Used for dbfilename (SAVE,
// BGSAVE, save points, DEBUG RELOAD) and as the base of the append-only log.
//
// Writing is crash-safe: the bytes go to a temporary file that is fsynced,
// renamed over the target, and the directory is fsynced, so the target holds
// the old or the new snapshot whatever happens. Loading streams the file,
// verifies the checksum trailer, and skips keys whose deadline has passed
// (they are never resurrected).

#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "core/hash.h"
#include "core/plain_set.h"
#include "core/quick_list.h"
#include "core/sorted_set.h"
#include "db/database.h"
#include "persist/env.h"

namespace rankd {

struct SnapshotWriteStats {
  uint64_t keys = 0;
  uint64_t bytes = 0;
};

// Metadata stored with the keys (kOpAux), e.g. {"functions", FUNCTION DUMP}.
using SnapshotAux = std::vector<std::pair<std::string, std::string>>;

// Writes `dbs` (index i of the span is database i) and `aux` to `path`
// through `tmp_path`. Keys already expired are left out. Runs in a fork()ed
// child for BGSAVE, so it takes no locks. On error the temporary file is
// removed and `path` is untouched.
Status WriteSnapshot(Env* env, const std::string& path, const std::string& tmp_path,
                     std::span<Database* const> dbs, SnapshotWriteStats* stats,
                     const SnapshotAux& aux = {});

// Writes the same bytes to `file` as they come (no sync, no rename): a
// full sync's snapshot streamed to a pipe by a fork()ed child.
Status WriteSnapshotStream(WritableFile* file, std::span<Database* const> dbs,
                           SnapshotWriteStats* stats, const SnapshotAux& aux = {});

struct SnapshotLoadOptions {
  SortedSetLimits zset_limits;
  PlainSetLimits set_limits;
  HashLimits hash_limits;
  ListLimits list_limits;
  // Keys whose deadline is <= now_ms are skipped. Read at each key, so
  // on_aux may change it (aux fields precede the keys).
  int64_t now_ms = 0;
  // A key already in its database is replaced by the file's (DEBUG RELOAD
  // NOFLUSH MERGE); otherwise it is an error ("duplicate key").
  bool replace_existing = false;
  // Called about once a second during long loads, and once at the end;
  // `elements` counts keys plus members of collections read so far.
  std::function<void(uint64_t bytes_done, uint64_t bytes_total, uint64_t elements)> progress;
  // Called with each metadata pair (including rankd's own "rankd-ver" and
  // "ctime-ms"); a non-OK status stops the load with that error.
  std::function<Status(std::string_view key, std::string_view value)> on_aux;
  // Redis RDBs only (persist/rdb_reader.h): called with each function
  // library's source code (FUNCTION LOAD's argument); null: an error.
  std::function<Status(std::string_view code)> on_function;
  // key-load-delay (a test setting, persist/key_delay.h): a pause after each key.
  int64_t key_delay = 0;
};

struct SnapshotLoadStats {
  uint64_t keys_loaded = 0;
  uint64_t keys_expired = 0;  // skipped because their deadline had passed
  uint64_t keys_empty = 0;    // skipped because they held no element (RDB only)
  uint64_t bytes = 0;
};

// Loads the snapshot at `path` into the databases that db_for(index)
// returns (nullptr: the index is out of range, which is corruption). Keys
// are Insert()ed: REQUIRES the target databases hold none of them (load into
// empty ones). Returns Corruption("<path>: <what> at offset <n>") for bad
// magic, version, structure or checksum; the databases may then hold part of
// the file and should be discarded.
Status LoadSnapshot(Env* env, const std::string& path,
                    const std::function<Database*(int index)>& db_for,
                    const SnapshotLoadOptions& options, SnapshotLoadStats* stats);

// The same from bytes in memory; `name` stands for the path in messages.
Status LoadSnapshotBytes(std::string_view data, const std::string& name,
                         const std::function<Database*(int index)>& db_for,
                         const SnapshotLoadOptions& options, SnapshotLoadStats* stats);

// Whether `v` holds state a Redis RDB value cannot: a leaderboard (policy,
// tie stamps, periods, views), member deadlines or metadata of a sorted set,
// field deadlines of a hash. O(1).
bool HasRankdExtras(const Value& v);

// One key as a whole snapshot of this format (database `db` holding only
// that entry, its extra items included): what rankd's RDB files carry in a
// "rankd-entry" auxiliary field after the key's plain RDB value
// (persist/rdb_file.h), so a rankd reload loses nothing.
std::string EncodeEntrySnapshot(int db, const Database::Entry& e, int64_t expire_ms);

// Checks a snapshot without loading it: structure and checksum. Counts keys.
Status VerifySnapshot(Env* env, const std::string& path, SnapshotLoadStats* stats);

}  // namespace rankd
