// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CompactSet is the small-set encoding of a sorted set (the role of Redis's
// listpack): one contiguous byte string of packed entries in ascending
// (score, member) order. Every operation is a linear scan, O(n), which is
// faster than any pointer structure while n stays under
// zset-max-listpack-entries (128). Not thread-safe.
//
// Entry layout, repeated size() times with no gaps:
//
//   +--------------+------------------+----------------+
//   | score (8 B)  | len (varint 1-5) | member bytes   |
//   +--------------+------------------+----------------+
//
// A 16-byte member costs 25 bytes; the only other memory is the string's
// spare capacity. Scores are stored bit for bit as given (so -0.0 stays
// -0.0) and compared as doubles.

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
  CompactSet(const CompactSet&) = default;
  CompactSet& operator=(const CompactSet&) = default;

  size_t size() const { return size_; }
  // Allocated bytes (the buffer's capacity). O(1).
  size_t MemoryUsage() const { return buf_.capacity(); }

  // Finds `member`: its entry and 0-based rank. O(n).
  std::optional<std::pair<Entry, uint64_t>> Find(std::string_view member) const;

  // Inserts a new element in order. REQUIRES: member absent. O(n).
  void Insert(std::string_view member, double score);
  // Appends an element. REQUIRES: it sorts after every element present.
  void Append(std::string_view member, double score);
  // Gives the entry found by Find() a new score and moves it into place.
  // Safe even if the entry's member view is the only copy of the bytes.
  void UpdateScore(const Entry& e, double score);
  // Removes the entry found by Find().
  void Erase(const Entry& e);
  // Removes ranks [start, stop]. REQUIRES: start <= stop < size().
  void EraseRankRange(uint64_t start, uint64_t stop);
  void Reserve(size_t bytes) { buf_.reserve(bytes); }

  // The number of leading elements for which pred(score, member) holds.
  // REQUIRES: pred true on a prefix of the order. O(n).
  template <typename Pred>
  uint64_t CountWhile(Pred pred) const {
    uint64_t n = 0;
    for (size_t off = 0; off < buf_.size(); ++n) {
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
  // Gives back spare capacity left by growth or removals.
  void Trim();
  static void Encode(std::string* out, std::string_view member, double score);
  // Inserts the encoded entry `enc` of (score, member) at its position.
  void InsertEncoded(const std::string& enc, std::string_view member, double score);
  // The byte offset of the entry at `rank` (buf_.size() for rank == size()).
  size_t OffsetOfRank(uint64_t rank) const;

  std::string buf_;
  uint32_t size_ = 0;
};

}  // namespace rankd
