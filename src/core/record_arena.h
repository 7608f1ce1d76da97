// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// RecordArena stores the elements of one tree-encoded sorted set, each as a
// single packed record addressed by a 32-bit Handle. The B+tree leaves and
// the member index both hold Handles, so each member's bytes exist once and
// a reference costs 4 bytes instead of an 8-byte pointer. Not thread-safe.
//
// Record layout (no alignment; the score is read with memcpy):
//
//   +--------------+----------------+-------------------------------+
//   | score (8 B)  | len (varint,   | member bytes  (len <= 1024)   |
//   | IEEE double  |  1-5 bytes)    | or char* to them (len > 1024) |
//   +--------------+----------------+-------------------------------+
//
// A 16-byte member costs 25 bytes, with no per-allocation header and no
// size-class rounding. An arena may give every record `extra` trailing bytes
// (fixed per arena, 0 for plain sorted sets) that its owner interprets;
// leaderboards keep each member's (sequence, time) stamp there:
//
//   | score | len | member bytes or char* | extra (owner's, zeroed by New) |
// Members longer than kMaxInlineMember live in their
// own heap buffer ("out of line"), which the arena owns.
//
// Handles: (block index << 16) | byte offset. Blocks are at most 64 KiB and
// grow from 256 bytes by doubling, so small sets stay small. At most 65536
// blocks: one set's inline records are limited to 4 GiB (~170M elements of
// 16-byte members). Exceeding that aborts (CHECK), see New().
//
// Blocks of a large arena (one already holding kCarveFromBytes of blocks)
// are carved 32 at a time out of 2 MiB-aligned chunks, and a chunk whose
// blocks are all handed out is advised as a huge page (base/huge_pages.h):
// records are read at random, and one TLB entry then covers 32 blocks
// instead of 16 pages per block. Only the chunk being carved holds blocks
// not yet handed out (at most 2 MiB per large set; its untouched pages are
// not resident). Carved blocks are never freed one by one, so the split
// is simply "blocks_[0, first_carved_) are malloc'd, the rest carved".
//
// Freed records go on an exact-size free list (linked through their first 4
// bytes) and are reused by the next record of the same size. Bytes that no
// free list reuses show up in waste_bytes(); the owner compacts by moving
// every live record into a fresh arena (Adopt + SetForward/Forward).

#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "base/prefetch.h"

namespace rankd {

class RecordArena {
 public:
  using Handle = uint32_t;
  // Never a valid handle (no record fits at offset 65535 of a block).
  static constexpr Handle kNoHandle = 0xFFFFFFFFu;
  static constexpr size_t kMaxInlineMember = 1024;
  static constexpr size_t kMaxBlockBytes = size_t{1} << 16;
  // From this many bytes of blocks on, new blocks come from huge pages.
  static constexpr size_t kCarveFromBytes = size_t{2} << 20;

  // `extra` trailing bytes per record (see above); Swap requires equal ones.
  explicit RecordArena(size_t extra = 0) : extra_(extra) {}
  ~RecordArena();
  RecordArena(const RecordArena&) = delete;
  RecordArena& operator=(const RecordArena&) = delete;
  // Exchanges all contents (handles stay valid for their new owner object).
  void Swap(RecordArena& other) noexcept;

  // Stores a new record and returns its handle. O(1) amortized.
  Handle New(std::string_view member, double score);
  // Releases the record. REQUIRES: h is live. The handle may be reused.
  void Free(Handle h);

  double Score(Handle h) const {
    double s;
    std::memcpy(&s, Ptr(h), sizeof s);
    return s;
  }
  void SetScore(Handle h, double score) { std::memcpy(Ptr(h), &score, sizeof score); }
  // The member's bytes; valid while the record lives and the arena is not
  // swapped. Inline for members under 128 bytes (one length byte), which
  // every comparison and index probe reads.
  std::string_view Member(Handle h) const {
    const char* p = Ptr(h) + sizeof(double);
    const uint8_t b = static_cast<uint8_t>(*p);
    if (b < 0x80) return {p + 1, b};
    return LongMember(h);
  }
  // Starts loading the record's first line (its score, usually its length).
  // (A plain second prefetch for records straddling a line measured slower
  // in the engine's searches; PrefetchRecord's comes after a batch.)
  void Prefetch(Handle h) const { rankd::Prefetch(Ptr(h)); }
  // Prefetch, and the next line too when a record with a `member_len`-byte
  // member starting at h would cross into it (group prefetching of lookups,
  // whose Find compares the member bytes): a PrefetchNear, issued after the
  // batch's loads, since the record may be shorter and end the mapping.
  void PrefetchRecord(Handle h, size_t member_len) const {
    const char* p = Ptr(h);
    rankd::Prefetch(p);
    const char* last = p + sizeof(double) + member_len;  // after the length byte
    if ((reinterpret_cast<uintptr_t>(last) >> 6) != (reinterpret_cast<uintptr_t>(p) >> 6)) {
      PrefetchNear(last);
    }
  }
  // The record's `extra` trailing bytes (see the layout). O(1).
  char* Extra(Handle h) const;
  size_t extra() const { return extra_; }

  // Compaction support. Adopt copies record `h` of `from` into this arena
  // (an out-of-line buffer changes owner instead of being copied) and
  // returns the new handle; `from`'s record must then be treated as dead.
  // SetForward overwrites a dead record's score with the handle it moved
  // to; Forward reads it back.
  Handle Adopt(RecordArena* from, Handle h);
  void SetForward(Handle h, Handle to) { std::memcpy(Ptr(h), &to, sizeof to); }
  Handle Forward(Handle h) const {
    Handle to;
    std::memcpy(&to, Ptr(h), sizeof to);
    return to;
  }

  // Sizes the first block for about `bytes` of records. Only before the
  // first New().
  void ReserveHint(size_t bytes);

  // Bytes requested from the allocator (blocks, out-of-line buffers,
  // bookkeeping). O(1).
  size_t MemoryUsage() const;
  // Bytes of live records (inline part only).
  size_t live_bytes() const { return live_bytes_; }
  // Bytes in blocks that hold no live record (free lists, abandoned tails).
  size_t waste_bytes() const { return free_bytes_ + tail_waste_; }

  static size_t RecordSize(size_t member_len) {
    return sizeof(double) + VarintLen(member_len) +
           (member_len <= kMaxInlineMember ? member_len : sizeof(char*));
  }

 private:
  char* Ptr(Handle h) const { return blocks_[h >> 16] + (h & 0xFFFFu); }
  // Member() for lengths >= 128 (multi-byte length, maybe out of line).
  std::string_view LongMember(Handle h) const;
  static size_t VarintLen(size_t v) {
    size_t n = 1;
    while (v >= 0x80) v >>= 7, ++n;
    return n;
  }
  // Decodes the length at `p`; returns the first byte after it.
  static const char* ReadLen(const char* p, size_t* len);
  size_t SizeOf(Handle h) const;
  // A slot of `size` bytes, from a free list or the tail block.
  Handle Allocate(size_t size);

  // A new tail block of `bytes`: malloc'd, or carved from a huge chunk.
  char* NewBlock(size_t bytes);

  size_t extra_;  // trailing bytes per record; immutable after construction
  std::vector<char*> blocks_;
  std::vector<char*> chunks_;  // huge-page chunks, kHugePageBytes each
  size_t first_carved_ = SIZE_MAX;  // blocks_ index of the first carved block
  size_t chunk_used_ = 0;           // bytes carved from chunks_.back()
  size_t tail_used_ = 0, tail_cap_ = 0;  // of blocks_.back()
  size_t next_block_ = 256;
  size_t block_bytes_ = 0, live_bytes_ = 0, free_bytes_ = 0, tail_waste_ = 0;
  size_t large_bytes_ = 0;
  absl::flat_hash_map<uint32_t, Handle> free_heads_;  // record size -> list
  absl::flat_hash_set<char*> large_;                  // out-of-line buffers
};

}  // namespace rankd
