// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// PlainSet: a Redis set (SADD and friends), present so that ZUNION / ZINTER /
// ZDIFF accept sets as inputs, as Redis does. Two encodings, as Redis 7.0:
//   - intset: a sorted array of int64 while every member is an integer in
//     canonical form and size <= set-max-intset-entries;
//   - hashtable: a ScanTable of member strings.
// Not thread-safe.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "core/scan_table.h"

namespace rankd {

struct PlainSetLimits {
  size_t max_intset_entries = 512;  // set-max-intset-entries
};

class PlainSet {
 public:
  using Visitor = absl::FunctionRef<void(std::string_view member)>;

  PlainSet() = default;
  ~PlainSet() = default;
  PlainSet(const PlainSet&) = delete;
  PlainSet& operator=(const PlainSet&) = delete;
  std::unique_ptr<PlainSet> Clone() const;

  size_t size() const { return is_intset() ? ints_.size() : table_.size(); }
  bool empty() const { return size() == 0; }
  bool is_intset() const { return !hashtable_; }
  // "intset" or "hashtable" (OBJECT ENCODING).
  std::string_view EncodingName() const { return is_intset() ? "intset" : "hashtable"; }
  size_t MemoryUsage() const;

  // Adds `member`; false if it was already there. May convert to hashtable.
  bool Add(std::string_view member, const PlainSetLimits& limits);
  // Removes `member`; false if absent.
  bool Remove(std::string_view member);
  bool Contains(std::string_view member) const;

  // Visits every member: intsets in ascending numeric order, hashtables in
  // table order.
  void ForEach(Visitor fn) const;

  // SSCAN step with Redis's guarantee; an intset is returned whole (cursor 0).
  uint64_t Scan(uint64_t cursor, size_t count, Visitor fn) const;
  // The hashtable's chain statistics (DEBUG HTSTATS-KEY). REQUIRES: !is_intset().
  ChainStats TableStats() const { return table_.Stats(); }

 private:
  struct Node {
    Node* next = nullptr;
    uint64_t hash = 0;
    std::string member;
    std::string_view key() const { return member; }
  };
  void ConvertToHashtable();

  bool hashtable_ = false;
  std::vector<int64_t> ints_;  // sorted, unique
  ScanTable<Node> table_;
};

}  // namespace rankd
