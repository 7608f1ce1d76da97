// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Every on-disk format rankd writes, in one place. docs/file-formats.md
// describes the same bytes for people; change both together, and bump the
// version when old files would be misread.
//
// 1. Log file (the append-only log, "<appendfilename>.<seq>.incr.log"):
//
//      file   := record*
//      record := crc (fixed32, masked CRC-32C of type+payload)
//                | length (fixed32, payload bytes) | type (1 byte) | payload
//
//    The first record of a file is kHeader (payload "RANKDLOG" + fixed32
//    version). Each later record is one kBatch: every effect of one
//    event-loop iteration, which is also the unit of fsync, so a crash keeps
//    or drops a batch (and any MULTI/EXEC or script inside it) whole.
//      batch payload := command*
//      command       := db (varint) | RESP array of bulk strings
//                       ("*<n>\r\n" then n times "$<len>\r\n<bytes>\r\n")
//    A bad record at the very end that is short (runs past the end of the
//    file) or zero fill is a torn tail: recovery truncates it. Any other bad
//    record is corruption, including a full-length last record whose CRC
//    fails (media damage, not a crash).
//
// 2. Snapshot ("dump.rdb" = dbfilename, and "<appendfilename>.<seq>.base.snap"):
//
//      file   := magic "RANKDSNP" | version (fixed32) | item* | kOpEof | crc
//      item   := kOpAux key (lp) value (lp)       metadata, readers skip unknown
//              | kOpDb db (varint) keys (varint)  following entries go to db
//              | kOpEntry type (1) flags (1) [expire_ms (fixed64)] key (lp) value
//      value  := string: bytes (lp)
//              | zset:   count (varint) max_member_len (varint)
//                        count x (member (lp), score (double))  ascending order
//              | set:    count (varint) count x member (lp)
//              | board:  order (1) ties (1) next_seq (varint) count (varint)
//                        max_member_len (varint) count x (member (lp),
//                        score (double), seq (varint), ms (fixed64))
//                        ascending engine order; count may be 0
//              | hash:   count (varint) count x (field (lp), value (lp))
//              | hash with field deadlines (kTypeHashTtl): count (varint)
//                        count x (field (lp), value (lp), deadline_ms+1 (varint),
//                        0 = no deadline)
//              | list:   count (varint) count x element (lp)  head to tail
//              | stream: blob (lp) := Redis's RDB stream value (type byte 19
//                        and body, uncompressed: persist/rdb_stream.cc)
//      crc    := fixed32 masked CRC-32C of every byte before it
//    lp = length-prefixed (varint length + bytes); integers little-endian;
//    a double is its IEEE-754 bits as fixed64.
//
// 3. Manifest ("<appendfilename>.manifest" in appenddirname): text lines
//      file <name> seq <n> type <b|i>
//    at most one base ('b') first, then incremental logs ('i') in replay order.

#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace rankd::format {

// ---- Log ----
constexpr size_t kRecordHeaderSize = 4 + 4 + 1;
// A record longer than this is corrupt (a batch is split before it grows so).
constexpr uint32_t kMaxRecordPayload = 1u << 30;
// Batches are split at command boundaries once they pass this size.
constexpr size_t kBatchSplitBytes = 64u << 20;

enum class RecordType : uint8_t { kHeader = 1, kBatch = 2 };

constexpr std::string_view kLogMagic = "RANKDLOG";
constexpr uint32_t kLogVersion = 1;

// ---- Snapshot ----
constexpr std::string_view kSnapshotMagic = "RANKDSNP";
constexpr uint32_t kSnapshotVersion = 1;
constexpr size_t kSnapshotHeaderSize = 8 + 4;
constexpr size_t kSnapshotTrailerSize = 1 + 4;  // kOpEof + crc

enum Op : uint8_t { kOpEntry = 0x01, kOpAux = 0xFA, kOpDb = 0xFE, kOpEof = 0xFF };
// Member deadlines (issue 17) of the sorted set or board in the kOpEntry
// just before: count (varint) x (member (lp) deadline_ms (fixed64)).
constexpr uint8_t kOpMemberExpiry = 0x10;
// Member metadata (LB.ADD ... META) of that entry: count (varint) x
// (member (lp) bytes (lp)). May follow kOpMemberExpiry.
constexpr uint8_t kOpMemberMeta = 0x11;
// The periods of a periodic leaderboard (issue 17) in the kOpEntry just
// before, ahead of its kOpMemberExpiry / kOpMemberMeta: blob (lp), see
// persist/periodic_codec.h.
constexpr uint8_t kOpPeriodic = 0x12;
// The stable-view schedule of a leaderboard (issue 17, LB.CREATE ...
// SNAPSHOT EVERY) in the kOpEntry just before, after its kOpPeriodic and
// ahead of kOpMemberExpiry / kOpMemberMeta: blob (lp) := every_ms (varint).
// The view itself is never written (views do not survive a restart).
constexpr uint8_t kOpBoardViews = 0x13;
// Entry value types: the first three are the ValueType numbers; kTypeBoard
// is a sorted set in board mode (a ValueType::kZSet whose board() is set);
// hashes and lists (added in version 1 without a bump: old files never hold
// them) have their own numbers, which differ from their ValueType's.
enum EntryType : uint8_t {
  kTypeString = 0,
  kTypeZSet = 1,
  kTypeSet = 2,
  kTypeBoard = 3,
  kTypeHash = 4,
  kTypeList = 5,
  kTypeHashTtl = 6,
  kTypeStream = 7,
};
constexpr uint8_t kFlagHasExpiry = 0x01;

// ---- Multi-part log (appenddirname) ----
constexpr std::string_view kManifestSuffix = ".manifest";
// rankd's own log files (sections 1 and 2): written under persist-format
// rankd (rankd's default before it wrote Redis's formats), always read.
constexpr std::string_view kBaseSuffix = ".base.snap";
constexpr std::string_view kIncrSuffix = ".incr.log";
// What rankd writes now, as Redis 7.0 (persist/redis_aof.h): a base is a
// Redis RDB (persist/rdb_file.h), an incremental log RESP commands.
constexpr std::string_view kRedisBaseSuffix = ".base.rdb";
constexpr std::string_view kRedisIncrSuffix = ".incr.aof";

}  // namespace rankd::format
