// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Redis 7.0's append-only file format, read and written beside rankd's own
// (persist/format.h), so that a Redis user can start rankd on the files
// redis-server left and go back to redis-server with them:
//
//   <name>.<seq>.incr.aof, <name>.<seq>.base.aof, an old single <name>:
//       RESP arrays of bulk strings, one per command ("*3\r\n$3\r\nSET\r\n
//       ..."); SELECT switches the database; MULTI ... EXEC groups the
//       commands of a transaction; lines that start with '#' are
//       annotations ("#TS:<unix time>") and carry no command. A base (or an
//       old single file) may start with an RDB (the "preamble", "REDIS...")
//       followed by commands.
//   <name>.<seq>.base.rdb: an RDB file.
//
// A Redis file has no checksums: a cut-short last command is the only
// damage told apart (a torn tail, as Redis's loader and redis-check-aof
// treat it); anything that is not RESP is a format error.

#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "base/status.h"

namespace rankd {

// Whether a manifest entry names a Redis file (".aof" / ".rdb" suffix, or
// no rankd suffix at all: the old single-file AOF), not one of rankd's.
bool IsRedisAofFileName(std::string_view name);

// How a RESP command stream ended.
struct RedisAofEnd {
  enum class Kind {
    kClean,      // every byte belongs to a whole command (or annotation)
    kTruncated,  // the last command, or a MULTI without EXEC, is cut short
    kBadFormat,  // bytes that are not RESP at `valid_size`
  };
  Kind kind = Kind::kClean;
  // Bytes from the start of `data` that hold whole commands and whole
  // MULTI/EXEC blocks: what a torn tail is truncated back to.
  uint64_t valid_size = 0;
  uint64_t commands = 0;
};

// Parses the RESP commands in data[start, end) and calls on_command for each
// (with its offset in `data`). The commands of a MULTI/EXEC block are passed
// at its EXEC, without the MULTI and EXEC themselves, so a block is applied
// whole or (cut short) not at all. Stops at the first non-OK Status from
// on_command and returns it; otherwise OK with *end describing the end.
using RedisAofCommandFn =
    std::function<Status(std::span<const std::string_view> args, uint64_t offset)>;
Status ReadRedisAofCommands(std::string_view data, size_t start,
                            const RedisAofCommandFn& on_command, RedisAofEnd* end);

}  // namespace rankd
