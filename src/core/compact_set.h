// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CompactSet is the small-set encoding of a sorted set (the role of Redis's
// listpack): packed entries in ascending (score, member) order. Every
// operation is a linear scan, O(n), which is faster than any pointer
// structure while n stays under zset-max-listpack-entries (128). Not
// thread-safe.
//
// The object is one pointer (null while empty) to one allocation sized to
// its bytes (issue 15: a million 5-member boards pay for their bytes only):
//
//   +-------------+------------+------------------------------+
//   | count (4 B) | used (4 B) | entries, used bytes in total |
//   +-------------+------------+------------------------------+
//
//   entry  := score | len (varint 1-5) | member bytes
//   score  := one byte b < 0xE0          the integer b - 32 (-32 .. 191)
//           | 0xE0 + (n - 1), n bytes     an integer, n-byte little-endian
//                                         two's complement (n = 1 .. 7)
//           | 0xFF, 8 bytes               any other double, bit for bit
//
// Integer scores (|v| < 2^53, not -0.0) come back bit for bit from the short
// forms, so every score reads back exactly as given (-0.0 stays -0.0): a
// 5-byte member with score 1 costs 7 bytes. Scores compare as doubles.

#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/zset_order.h"

namespace rankd {

class CompactSet {
 public:
  // One decoded entry. `member` points into the buffer.
  struct Entry {
    double score;
    std::string_view member;
    size_t offset;  // of the entry's first byte
    size_t size;    // encoded bytes
  };

  CompactSet() = default;
  ~CompactSet();
  CompactSet(const CompactSet& o);  // deep copy
  CompactSet& operator=(const CompactSet&) = delete;
  CompactSet(CompactSet&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  CompactSet& operator=(CompactSet&& o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }

  size_t size() const { return p_ ? p_->count : 0; }
  // Allocated bytes (the allocator's usable size of the buffer). O(1).
  size_t MemoryUsage() const;

  // Finds `member`: its entry and 0-based rank. O(n).
  std::optional<std::pair<Entry, uint64_t>> Find(std::string_view member) const;

  // Inserts a new element in order. REQUIRES: member absent. O(n).
  void Insert(std::string_view member, double score);
  // Appends an element. REQUIRES: it sorts after every element present.
  // Grows without giving back slack: call Trim() after a run of appends.
  void Append(std::string_view member, double score);
  // Gives the entry found by Find() a new score and moves it into place.
  // Safe even if the entry's member view is the only copy of the bytes.
  void UpdateScore(const Entry& e, double score);
  // Removes the entry found by Find().
  void Erase(const Entry& e);
  // Removes ranks [start, stop]. REQUIRES: start <= stop < size().
  void EraseRankRange(uint64_t start, uint64_t stop);
  // Room for `bytes` of entries in all (appends then move nothing).
  void Reserve(size_t bytes);
  // Gives back spare capacity left by growth, Reserve or removals.
  void Trim();

  // The number of leading elements for which pred(score, member) holds.
  // REQUIRES: pred true on a prefix of the order. O(n).
  template <typename Pred>
  uint64_t CountWhile(Pred pred) const {
    uint64_t n = 0;
    for (size_t off = 0; off < used(); ++n) {
      Entry e = Decode(off);
      if (!pred(e.score, e.member)) break;
      off += e.size;
    }
    return n;
  }

  // The element at `rank`. REQUIRES: rank < size(). O(n).
  Entry At(uint64_t rank) const;
  // Visits ranks [start, stop] ascending, or descending if `reverse`.
  // REQUIRES: start <= stop < size().
  void ForEachInRankRange(uint64_t start, uint64_t stop, bool reverse, ElementVisitor fn) const;

  // The entry starting at byte `offset`. REQUIRES: a valid entry offset.
  Entry Decode(size_t offset) const;

  // "" if entries decode exactly to the end, ascend strictly and number
  // size(); else a message.
  std::string CheckInvariants() const;

 private:
  struct Packed {
    uint32_t count;
    uint32_t used;
    char* data() { return reinterpret_cast<char*>(this + 1); }
    const char* data() const { return reinterpret_cast<const char*>(this + 1); }
  };

  size_t used() const { return p_ ? p_->used : 0; }
  const char* data() const { return p_ ? p_->data() : nullptr; }
  // Usable bytes for entries in the allocation (0 when none).
  size_t capacity() const;
  // Reallocates to hold `bytes` of entries.
  void Resize(size_t bytes);
  // Replaces `erase` bytes at `off` with `insert`; grows first if needed.
  void Splice(size_t off, size_t erase, std::string_view insert);
  // Appends the encoding of (score, member) to `out`.
  static void Encode(std::string* out, std::string_view member, double score);
  // Inserts the encoded entry `enc` of (score, member) at its position.
  void InsertEncoded(const std::string& enc, std::string_view member, double score);
  // The byte offset of the entry at `rank` (used() for rank == size()).
  size_t OffsetOfRank(uint64_t rank) const;
  // The encoded size of the entry at `offset`, without decoding its score
  // (walks over entries cost a few instructions each).
  size_t EntrySize(size_t offset) const;

  Packed* p_ = nullptr;
};

static_assert(sizeof(CompactSet) == sizeof(void*));

}  // namespace rankd
