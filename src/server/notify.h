// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Keyspace notifications (Redis 7.0 notify-keyspace-events) and the one
// call every write makes to report itself.
//
// The hub: a write command reports each key it changes exactly once, with
// KeyChanged(ctx, db, key, class, "event"). That single report fans out to
// every consumer of "a key changed": WATCH and blocked clients (through
// Database::Touch), client-side caching invalidation (the server's
// on-touch hook), and the keyspace event published on
// __keyspace@<db>__:<key> and __keyevent@<db>__:<event> when the event's
// class is enabled. A command that causes a second event on a key it
// already reported (a ZREM that empties the set also emits "del"; SET EX
// also emits "expire") adds it with KeyEvent, which publishes only.
// "new" (key created), "expired" and flush signals come from the database
// itself, so no family reports them.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rankd {

class Database;
struct CommandContext;

// Event classes, one bit per notify-keyspace-events character.
enum NotifyClass : uint32_t {
  kNotifyKeyspace = 1 << 0,  // K: publish on __keyspace@<db>__:<key>
  kNotifyKeyevent = 1 << 1,  // E: publish on __keyevent@<db>__:<event>
  kNotifyGeneric = 1 << 2,   // g: DEL, EXPIRE, RENAME, ...
  kNotifyString = 1 << 3,    // $
  kNotifyList = 1 << 4,      // l
  kNotifySet = 1 << 5,       // s
  kNotifyHash = 1 << 6,      // h
  kNotifyZset = 1 << 7,      // z: sorted sets and leaderboards (lb.*)
  kNotifyExpired = 1 << 8,   // x
  kNotifyEvicted = 1 << 9,   // e
  kNotifyStream = 1 << 10,   // t
  kNotifyKeyMiss = 1 << 11,  // m: reads of missing keys (not in A)
  kNotifyModule = 1 << 12,   // d
  kNotifyNew = 1 << 13,      // n: key created (not in A)
  // A: every class except m and n.
  kNotifyAll = kNotifyGeneric | kNotifyString | kNotifyList | kNotifySet | kNotifyHash |
               kNotifyZset | kNotifyExpired | kNotifyEvicted | kNotifyStream | kNotifyModule,
};

// Parses a notify-keyspace-events value ("KEA", "Ez", "" = off) as Redis
// keyspaceEventsStringToFlags. False on any other character.
[[nodiscard]] bool ParseNotifyFlags(std::string_view s, int64_t* flags);
// The canonical string CONFIG GET shows ("AKE" for "KEA"), as Redis
// keyspaceEventsFlagsToString (which drops "n" when "A" is set).
std::string FormatNotifyFlags(int64_t flags);

// Reports that the running command changed `key` of `db`, as Redis's
// event `event` of class `cls` (e.g. kNotifyZset, "zadd"). Call once per
// changed key, after the change.
void KeyChanged(CommandContext& ctx, Database& db, std::string_view key, NotifyClass cls,
                std::string_view event);

// Publishes one more keyspace event about `key` without reporting a
// change again (see above).
void KeyEvent(CommandContext& ctx, Database& db, NotifyClass cls, std::string_view event,
              std::string_view key);

}  // namespace rankd
