// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// QuickList: a Redis list, the role of Redis's quicklist: a sequence of
// chunks, each one packed buffer of entries (core/packed.h), so an element
// costs its bytes plus 2, not a node and a pointer.
//
//   chunks_:  [chunk 0] [chunk 1] ... [chunk k]      (std::deque: O(1) at ends)
//   chunk:    count | buf = entry entry entry ...
//
// Chunk size follows list-max-listpack-size (`fill`): a positive fill caps
// the entries per chunk (and 8 KB, Redis's safety limit), a negative one the
// bytes: -1 4 KB, -2 8 KB, -3 16 KB, -4 32 KB, -5 (and below) 64 KB. An
// element bigger than the limit gets a chunk of its own. Pushing at an end
// fills the end chunk or starts a new one; inserting in a full chunk splits
// it; chunks emptied by removals are dropped. list-compress-depth is
// accepted but chunks are never compressed.
//
// Invariants: no chunk is empty; size_ is the sum of the counts. Index
// access walks chunks from the nearer end (O(chunks + chunk entries)).
// OBJECT ENCODING answers "quicklist", as Redis 7.0 does for every list.
// string_views are valid until the next mutation. Not thread-safe.

#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"

namespace rankd {

struct ListLimits {
  int64_t fill = -2;  // list-max-listpack-size
};

class QuickList {
 public:
  using Visitor = absl::FunctionRef<void(std::string_view element)>;

  QuickList() = default;
  ~QuickList() = default;
  QuickList(const QuickList&) = delete;
  QuickList& operator=(const QuickList&) = delete;
  std::unique_ptr<QuickList> Clone() const;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::string_view EncodingName() const { return "quicklist"; }
  size_t MemoryUsage() const;
  size_t chunk_count() const { return chunks_.size(); }

  void PushFront(std::string_view v, const ListLimits& limits);
  void PushBack(std::string_view v, const ListLimits& limits);
  // Remove and return an end element. REQUIRES: !empty().
  std::string PopFront();
  std::string PopBack();

  // The element at `index` (0-based from the head). REQUIRES: index < size().
  std::string_view At(size_t index) const;
  // Replaces the element at `index`. REQUIRES: index < size().
  void Replace(size_t index, std::string_view v, const ListLimits& limits);
  // Inserts `v` so that it becomes element `index`. REQUIRES: index <= size().
  void Insert(size_t index, std::string_view v, const ListLimits& limits);
  // Removes `count` elements from `index`. REQUIRES: index + count <= size().
  void Erase(size_t index, size_t count);

  // Visits elements [first, first + count) from the head, or, when
  // `reverse`, from element first + count - 1 down to first. `fn` must not
  // mutate the list. REQUIRES: first + count <= size().
  void ForEach(size_t first, size_t count, bool reverse, Visitor fn) const;

  // Checks the invariants (tests).
  bool CheckInvariants() const;

 private:
  struct Chunk {
    std::string buf;
    uint32_t count = 0;
  };
  // True when `chunk` may take one more entry of `len` bytes.
  bool Fits(const Chunk& chunk, size_t len, const ListLimits& limits) const;
  // The chunk holding element `index` and the index inside it.
  size_t Locate(size_t index, size_t* in_chunk) const;
  // Byte offset of entry `i` of `c` (i <= c.count; c.count gives the end).
  static size_t Offset(const Chunk& c, size_t i);

  std::deque<Chunk> chunks_;
  size_t size_ = 0;
};

}  // namespace rankd
