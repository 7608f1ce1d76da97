// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The file checker behind `rankd --check-aof` (and tools/rankd-check):
//
//   rankd --check-aof [--fix] <file>
//
// <file> is an append-only log directory, its manifest, one incremental log,
// or a snapshot (dump.rdb or a base file; told apart by their magic bytes),
// or a Redis RDB (magic "REDIS": a redis-server dump.rdb for
// --load-redis-rdb; every value is decoded as rankd loads it, so this needs
// about the memory the load does).
// It reports each file's records/keys and its end: clean, a torn tail (a
// crash cut the last write short; the server drops it by itself at start-up
// unless aof-load-truncated is no) or corruption at an offset, including a
// damaged complete last record (the server refuses to start). With --fix, a
// log is truncated at the first bad byte: a torn tail loses nothing that was
// acknowledged; for corruption everything after the damage is lost, which
// the tool says. Snapshots cannot be repaired (use the previous one).
// For a Redis RDB it reports version, keys per database and checksum, or
// the first damage (CORRUPT) or value rankd cannot hold (NOT LOADABLE: a
// stream, a module type), with its offset or key.
// Exit status: 0 clean or repaired, 1 damage left (or not loadable), 2
// usage or I/O error.

#pragma once

#include <cstdio>

#include "persist/env.h"

namespace rankd {

// argv[0] is "--check-aof" (or the tool's name). Writes the report to `out`.
int RunCheckTool(Env* env, int argc, char** argv, FILE* out);

}  // namespace rankd
