// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Redis's DUMP payload, both ways (DUMP / RESTORE, docs/commands.md):
//
//   <RDB value type byte> <encoded value> <RDB version: 2 bytes LE> <CRC64: 8 bytes LE>
//
// The CRC64 (persist/rdb_reader.h Crc64Redis) covers every byte before it,
// the version included. rankd writes RDB version 10 (what Redis 7.0 writes
// and accepts) with only the types Redis 7.0 knows:
//
//   string      0   int8/16/32-encoded when the text is a canonical integer
//   list        18  quicklist 2, listpack nodes filled as Redis 7.0 fills
//                   them when a list is pushed at its tail
//                   (list-max-listpack-size)
//   set         11  intset (an intset-encoded set) / 2 plain
//   sorted set  17  listpack (a listpack-encoded set) / 5 ZSET_2 (binary doubles)
//   hash        16  listpack (a listpack-encoded hash) / 4 plain
//   stream      19  listpack nodes as rankd's nodes, consumer groups (rdb_stream.cc)
//
// Every string written (a value, a member, a field, a whole listpack or
// intset) is LZF-compressed as Redis rdbSaveRawString does when
// rdbcompression is yes: above 20 bytes, when that saves at least 4 bytes
// (base/lzf.h is liblzf's output byte for byte). So a payload is Redis
// 7.0's byte for byte wherever Redis's own is deterministic: not for plain
// sets and hashes, which Redis writes in hash-table order, nor for lists
// whose nodes Redis filled otherwise (pushes at the head, inserts). What a Redis
// value cannot hold is left out: a leaderboard is written as the plain
// sorted set of its members and scores (its tie order, policy and periods
// are lost), member deadlines and member metadata of sorted sets, and field
// deadlines of hashes, are not carried.
//
// Reading uses the RDB reader's value decoders, so a payload of any RDB
// version 1-11 of a type rankd has is accepted (e.g. Redis 7.2's set
// listpack, type 20).

#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "db/value.h"
#include "persist/snapshot.h"

namespace rankd {

// The RDB version DUMP writes (Redis 7.0's), and the highest RESTORE reads.
inline constexpr int kDumpRdbVersion = 10;
inline constexpr int kRestoreMaxRdbVersion = 11;

// What a payload's bytes depend on beyond the value: the config.
struct DumpOptions {
  bool compress = true;    // rdbcompression
  int64_t list_fill = -2;  // list-max-listpack-size
  // Set by a file writer (persist/rdb_file.h): called with the output while
  // a value in a plain encoding (a big set, hash, sorted set or list) is
  // being written, each time it has grown past kSpillBytes, so the writer
  // can write out and empty it: a 10^8-member sorted set is then never a
  // 2.5 GB string in a BGSAVE child. Not set for a DUMP payload.
  const std::function<void(std::string* out)>* spill = nullptr;
  static constexpr size_t kSpillBytes = size_t{1} << 20;
};

// The DUMP payload of `v`. O(size of v).
std::string DumpPayload(const Value& v, const DumpOptions& opts = {});

// Whether the footer of `payload` is good: at least 10 bytes, an RDB
// version <= kRestoreMaxRdbVersion, and the CRC64 of everything before the
// checksum matches (Redis verifyDumpPayload). False: Redis's "DUMP payload
// version or checksum are wrong".
// `max_version` is lower for FUNCTION RESTORE (Redis 7.0's 10).
bool DumpFooterOk(std::string_view payload, int max_version = kRestoreMaxRdbVersion);
// DEBUG SET-SKIP-CHECKSUM-VALIDATION: while set, DumpFooterOk checks the
// version only (tests feed hand-made payloads). Process-wide, as Redis's.
void SetSkipDumpChecksum(bool skip);

// Decodes the value of a payload whose footer is good. Returns:
// Corruption for bad data or an empty collection (Redis: "Bad data
// format"); InvalidArgument naming a type rankd does not have (a module
// value). As in Redis, the value is read from the whole payload
// (footer bytes included) and bytes left after it are ignored. Collections take the encodings `opts`' limits give them.
Status ReadDumpPayload(std::string_view payload, const SnapshotLoadOptions& opts, Value* out);

namespace rdb {

// The writer's building blocks, exposed for tests.
// Redis rdbSaveLen: 6/14-bit, 32-bit or 64-bit big-endian lengths.
void PutLength(std::string* out, uint64_t len);
// Appends `v` as an RDB value: its type byte, then its encoding (what
// DUMP's payload holds before the footer, and what follows a key in an RDB
// file).
void PutValue(std::string* out, const Value& v, const DumpOptions& opts);
// Appends the payload footer: RDB version kDumpRdbVersion and the CRC64 of
// `*out` with it (DUMP, FUNCTION DUMP).
void AppendDumpFooter(std::string* out);
// Reads an RDB string (any encoding: int, LZF) at `*pos` of `data` into
// *out and moves *pos past it; false when malformed or past the end.
bool ReadString(std::string_view data, size_t* pos, std::string* out);
// Redis rdbSaveRawString: int8/16/32 when `s` is the canonical text of
// such an integer; with `lzf`, an LZF blob when that pays (see above); else
// length + bytes.
void PutString(std::string* out, std::string_view s, bool lzf = false);

// Appends a stream as RDB type 19 (Redis 7.0's STREAM_LISTPACKS_2), its
// type byte included (rdb_stream.cc).
void WriteStream(std::string* out, const Stream& s, bool lzf);

// Builds one listpack (Redis listpack.c): entries are integer-encoded when
// they are the canonical text of an int64, as lpAppend does.
class ListpackBuilder {
 public:
  ListpackBuilder() { buf_.assign(6, '\0'); }
  void Append(std::string_view s);
  // Appends a sorted-set score as Redis zzlInsertAt does (d2string text).
  void AppendScore(double score);
  size_t count() const { return count_; }
  size_t bytes() const { return buf_.size() + 1; }
  // The finished listpack: header filled in, 0xFF terminator. Resets.
  std::string Finish();

 private:
  std::string buf_;
  size_t count_ = 0;
};

}  // namespace rdb
}  // namespace rankd
