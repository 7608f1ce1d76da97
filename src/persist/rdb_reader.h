// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Redis's RDB format (versions 1-11, as Redis 7.0 writes version 10), read
// into rankd's databases: the migration path from a running redis-server
// (its full sync payload, see docs/replication.md "Migrating from Redis").
//
// Understood: the header "REDIS" + 4 digits; aux fields (0xFA, the
// repl-stream-db one reaches options.on_aux like every other); SELECTDB,
// RESIZEDB, EXPIRETIME_MS / EXPIRETIME, IDLE / FREQ (skipped: rankd keeps
// no per-key LRU/LFU history from Redis); EOF and the CRC64 trailer
// (verified unless zero, as Redis); length encodings (6/14/32/64-bit) and
// string encodings (int8/16/32, LZF). Value types: string (0), list (1,
// quicklist 14 and quicklist2 18 with plain and packed nodes, ziplist 10),
// set (2, intset 11, listpack 20), zset (3, zset2 5, ziplist 12, listpack
// 17), hash (4, zipmap 9, ziplist 13, listpack 16); ziplists and listpacks
// are checked as Redis's deep sanitization does (header, count, terminator,
// prevlen); streams (15, 19, 21: persist/rdb_stream.cc). Anything else
// (modules 6/7, module aux, 7.0-rc functions) is an InvalidArgument
// error naming it: rankd has no such type. Function libraries (0xF5) go to
// options.on_function as source code.

#pragma once

#include <functional>
#include <string_view>

#include "base/status.h"
#include "db/database.h"
#include "persist/snapshot.h"

namespace rankd {

// Whether `data` starts with Redis's RDB magic ("REDIS").
bool IsRedisRdb(std::string_view data);

// Loads the RDB in `data` into the databases db_for(index) returns
// (nullptr: index out of range, an error). Keys are Insert()ed: REQUIRES
// empty target databases. Keys whose deadline is <= options.now_ms are
// skipped (counted in stats->keys_expired), and so are keys holding no
// element (stats->keys_empty, each logged). On error the databases may hold
// part of the data and should be discarded; the message says what and at
// which byte offset.
Status LoadRedisRdb(std::string_view data, const std::function<Database*(int index)>& db_for,
                    const SnapshotLoadOptions& options, SnapshotLoadStats* stats);

// Redis's CRC64 (Jones polynomial, reflected, as redis/src/crc64.c):
// crc = Crc64Redis(crc, bytes), starting from 0.
uint64_t Crc64Redis(uint64_t crc, std::string_view data);

}  // namespace rankd
