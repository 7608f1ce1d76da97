// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// MemberIndex maps a member's bytes to its record Handle in O(1) expected
// time, and iterates for ZSCAN with Redis's guarantee. It stores only 4-byte
// handles (the member bytes stay in the RecordArena) plus one byte of probe
// metadata and a 2-bit hash tag per slot, packed 12 slots to a 64-byte
// cache line: 5.33 bytes per slot, ~6.7 bytes per element on average.
// From 2 MiB up the slot array is advised as huge pages once a rehash has
// filled it (base/huge_pages.h).
// Not thread-safe.
//
// Slot layout (one cache line per group of 12 consecutive slots, so a probe
// usually touches one line for metadata and handle together):
//
//   | handle[12] (48 B) | dist[12] (12 B) | tags (4 B: 2 bits per slot) |
//
// The tag is 2 low bits of the hash: a lookup reads a record only for a
// resident with the same home *and* the same tag (~1.1 record reads per
// successful lookup at load 0.9 instead of ~1.45).
//
// Design: open addressing with linear probing and Robin Hood insertion,
// where an element's home slot is a monotone function of its 64-bit hash:
//   home(hash) = floor(hash * capacity / 2^64)
// Robin Hood keeps every cluster sorted by home, so the whole table is
// sorted by home, hence (coarsely) by hash:
//
//   slot:   0    1    2    3    4    5    6   ...   cap-1 | slack ...
//   dist:   1    1    2    0    1    2    3          0     | 0
//   home:   0    1    1    -    4    4    4                |
//
//   dist = 0: empty; else 1 + (slot - home). No wrap-around: slack slots
//   after cap absorb the last cluster.
//
// A lookup skips residents whose home is below its own (read from `dist`,
// no record access) and compares bytes only against residents with the
// same home and tag.
//
// SCAN: the cursor is a hash threshold T; a call visits every element whose
// hash is >= T in ascending home order, whole homes at a time, and returns
// the smallest hash of the first home it did not visit. Every element with
// hash < the returned cursor has been visited, whatever the capacity was on
// each call, so an element present for the whole iteration is returned at
// least once even across growth and shrinking. Elements sharing a home (and
// thus any elements sharing a full hash) are returned by the same call.
// Cursor 0 starts; 0 is returned when the iteration is complete. Cursors are
// only meaningful within one process (the hash is seeded per process).

#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "base/prefetch.h"
#include "core/record_arena.h"

namespace rankd {

class MemberIndex {
 public:
  using Handle = RecordArena::Handle;

  // `arena` resolves handles to member bytes; it must outlive the index.
  explicit MemberIndex(const RecordArena* arena) : arena_(arena) {}
  ~MemberIndex();
  MemberIndex(const MemberIndex&) = delete;
  MemberIndex& operator=(const MemberIndex&) = delete;

  static uint64_t Hash(std::string_view member);

  size_t size() const { return size_; }
  size_t capacity() const { return cap_; }

  // The handle whose member equals `member`, or kNoHandle.
  // REQUIRES: hash == Hash(member).
  Handle Find(std::string_view member, uint64_t hash) const;
  // Group prefetching (issue 16): hints that change nothing. PrefetchSlot
  // starts loading the line holding `hash`'s home slot; PrefetchCandidates,
  // called once that line has arrived (the group's step-0 batch was
  // flushed, base/prefetch.h), reads it and starts loading the records of
  // the residents Find would compare.
  void PrefetchSlot(uint64_t hash) const {
    if (size_ != 0) Prefetch(&groups_[Home(hash) / kGroupSlots]);
  }
  // `member_len`: the member's length, to load all of a record that crosses
  // a line (Find compares the bytes).
  void PrefetchCandidates(uint64_t hash, size_t member_len) const;
  // Adds `h`. REQUIRES: its member is absent; hash == Hash(its member).
  // May grow the table (rehashing reads every member once).
  void Insert(Handle h, uint64_t hash);
  // Removes `h`. REQUIRES: h is present; hash = Hash(its member). May
  // shrink the table.
  void Erase(Handle h, uint64_t hash);
  // Prepares for `n` elements in total (conversion, clone).
  void Reserve(size_t n);
  // Removes everything and frees the table.
  void Clear();

  // ZSCAN step, see the design block. Visits at least min(count, remaining)
  // elements (count < 1 counts as 1) and returns the next cursor or 0.
  uint64_t Scan(uint64_t cursor, size_t count, absl::FunctionRef<void(Handle)> fn) const;

  // Replaces every handle h by fn(h). REQUIRES: fn(h) names a record with
  // the same member bytes (used when the arena is compacted). O(capacity).
  void MapHandles(absl::FunctionRef<Handle(Handle)> fn);

  // Bytes of the slot groups. O(1).
  size_t MemoryUsage() const { return GroupBytes(); }

  // "" if every element sits at or after its home, homes ascend, each
  // element is found by its own bytes, tags match, and size() matches;
  // else a message.
  std::string CheckInvariants() const;

 private:
  static constexpr size_t kGroupSlots = 12;
  // One cache line: slots [12 g, 12 g + 12). dist 0: empty; else
  // 1 + (slot - home). tags: bits [2k, 2k + 2) belong to slot k.
  struct alignas(64) Group {
    Handle handles[kGroupSlots];
    uint8_t dist[kGroupSlots];
    uint32_t tags;
  };
  static_assert(sizeof(Group) == 64, "a group is one cache line");

  static uint32_t TagOf(uint64_t hash) { return static_cast<uint32_t>(hash) & 3u; }
  size_t Home(uint64_t hash) const {
    return static_cast<size_t>((static_cast<unsigned __int128>(hash) * cap_) >> 64);
  }
  uint8_t Dist(size_t i) const { return groups_[i / kGroupSlots].dist[i % kGroupSlots]; }
  Handle HandleAt(size_t i) const { return groups_[i / kGroupSlots].handles[i % kGroupSlots]; }
  size_t HomeAt(size_t i) const { return i - (Dist(i) - 1); }
  // Copies slot `from` to slot `to` with displacement `dist` (tag too).
  void MoveSlot(size_t from, size_t to, uint8_t dist);
  void SetSlot(size_t i, Handle h, uint8_t dist, uint32_t tag);
  // The smallest hash whose home is `home` (exact inverse of Home()).
  uint64_t MinHashOfHome(size_t home) const;
  // Places h; false (nothing changed) if a probe limit would be exceeded.
  bool TryPlace(Handle h, uint64_t hash);
  // Rebuilds with `new_cap` home slots (grows further if placement fails).
  void Rehash(size_t new_cap);
  void Allocate(size_t cap);
  size_t GroupBytes() const { return total_ / kGroupSlots * sizeof(Group); }  // of groups_

  const RecordArena* arena_;
  Group* groups_ = nullptr;  // total_ / kGroupSlots groups
  size_t cap_ = 0;           // number of home slots
  size_t total_ = 0;         // cap_ + slack, a multiple of kGroupSlots
  size_t size_ = 0;
};

}  // namespace rankd
