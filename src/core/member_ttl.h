// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// MemberTtl: the deadlines of the members of one sorted set that have one
// (ZEXPIRE and friends, issue 17). A SortedSet holds a pointer to one only
// while some member has a deadline, so members without a TTL cost nothing.
//
// Deadlines are unix times in ms. Two views of the same pairs: member ->
// deadline (O(1) lookups) and (deadline, member) in order (the earliest
// deadline in O(1), the due members in O(log n + due)). The ordered view's
// member strings point at the map's keys (a node map, so they never move).
// Not thread-safe: the set's owner thread.

#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/btree_set.h"
#include "absl/container/node_hash_map.h"
#include "absl/functional/function_ref.h"
#include "base/str_hash.h"

namespace rankd {

class MemberTtl {
 public:
  MemberTtl() = default;
  MemberTtl(const MemberTtl&) = delete;
  MemberTtl& operator=(const MemberTtl&) = delete;

  size_t size() const { return by_member_.size(); }
  bool empty() const { return by_member_.empty(); }

  // The member's deadline, or -1 when it has none. O(1).
  int64_t Get(std::string_view member) const;
  // Sets the member's deadline; a negative `deadline_ms` removes it.
  // O(log n).
  void Set(std::string_view member, int64_t deadline_ms);
  // Removes the member's deadline, if any. O(log n).
  void Erase(std::string_view member) { Set(member, -1); }

  // The earliest deadline, or -1 when empty. O(1).
  int64_t earliest() const { return by_time_.empty() ? -1 : by_time_.begin()->first; }

  // Copies of the members whose deadline is <= now_ms, earliest first.
  std::vector<std::string> Due(int64_t now_ms) const;

  // Visits every (member, deadline) pair, in deadline order.
  void ForEach(absl::FunctionRef<void(std::string_view, int64_t)> fn) const;

  // Approximate bytes owned (MEMORY USAGE). O(1).
  size_t MemoryUsage() const { return sizeof(*this) + bytes_; }

 private:
  static size_t EntryBytes(std::string_view member);

  absl::node_hash_map<std::string, int64_t, StrHash, StrEq> by_member_;
  absl::btree_set<std::pair<int64_t, std::string_view>> by_time_;
  size_t bytes_ = 0;
};

}  // namespace rankd
