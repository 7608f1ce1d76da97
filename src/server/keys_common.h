// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Helpers shared by the key, expire and string families: key lookups that
// keep Redis's keyspace statistics and access times, and the argument
// parsers whose error texts several commands share (DB indexes, expire
// times). Handlers call these instead of Database::Find directly so that
// "a read of a key" means the same thing everywhere (Redis lookupKeyRead /
// lookupKeyWrite).
//
// Entry pointers returned here are valid until the key is deleted or
// replaced (Database::Delete / Set / Detach of that key, FLUSH, SWAPDB).

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "db/database.h"
#include "server/command.h"

namespace rankd {

// Redis lookupKeyRead: the live entry or nullptr; counts keyspace_hits /
// keyspace_misses and, unless `touch` is false (Redis LOOKUP_NOTOUCH: TYPE,
// EXISTS, TTL, OBJECT), refreshes the key's access time. Deletes the key if
// it has expired. A miss publishes Redis's "keymiss" event (class m) unless
// `notify` is false (Redis LOOKUP_NONOTIFY: OBJECT).
Database::Entry* LookupRead(CommandContext& ctx, std::string_view key, bool touch = true,
                            bool notify = true);

// Redis lookupKeyWrite: like LookupRead but never counted in the stats.
Database::Entry* LookupWrite(CommandContext& ctx, std::string_view key);

// LookupRead that also checks the type: returns the entry when it holds a
// string, nullptr when the key is missing, and sets *wrong_type (and returns
// nullptr) when it holds another type.
Database::Entry* LookupString(CommandContext& ctx, std::string_view key, bool* wrong_type);

// Redis getIntFromObjectOrReply for a DB index argument: on failure replies
// with Redis's text ("ERR value is not an integer or out of range", "ERR
// value is out of range, value must between -2147483648 and 2147483647", or
// "ERR <msg>" when `msg` is given) and returns false. Does not check that the
// database exists.
bool ParseIntOrReply(CommandContext& ctx, std::string_view arg, int* out,
                     std::string_view msg = {});

// The database numbered `index`, or nullptr when out of range.
Database* DbByIndex(CommandContext& ctx, int64_t index);

// "ERR invalid expire time in '<cmd>' command", with the command name of
// ctx (lower case) as Redis prints it.
std::string InvalidExpireError(const CommandContext& ctx);

// Logs an effect in place of the command as received (Server::Propagate),
// for commands whose replay would not reach the same state:
//   PEXPIREAT key <deadline_ms>   (relative expiry: EXPIRE, GETEX EX, ...)
//   DEL key                       (an expiry already in the past)
void PropagateExpireAt(CommandContext& ctx, std::string_view key, int64_t deadline_ms);
// Redis checkAlreadyExpired: whether a deadline of `deadline_ms` deletes the
// key at once (EXPIRE*, GETEX EXAT/PXAT, RESTORE). Never while the log is
// replayed or on a replica (the primary's commands or the writable
// replica's own): the key keeps the past deadline and goes by the normal
// expiry or the primary's DEL.
bool DeletesAtOnce(CommandContext& ctx, int64_t deadline_ms);
void PropagateDel(CommandContext& ctx, std::string_view key);

}  // namespace rankd
