// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// MemberTtl: the deadlines of the members of one sorted set that have one
// (ZEXPIRE and friends, issue 17). A SortedSet holds a pointer to one only
// while some member has a deadline, so members without a TTL cost nothing.
//
// Deadlines are unix times in ms. Each member with a deadline is one
// allocation [deadline | length | bytes], reached two ways: a hash set keyed
// by the member bytes (O(1) lookups) and a btree of (deadline, node) (the
// earliest deadline in O(1), the due members in O(log n + due)). About 64
// bytes per member for 16-byte members.
// Not thread-safe: the set's owner thread.

#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/btree_set.h"
#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "base/str_hash.h"

namespace rankd {

class MemberTtl {
 public:
  MemberTtl() = default;
  ~MemberTtl();
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

  // Copies of the members whose deadline is <= now_ms, earliest first, at
  // most `limit` of them.
  std::vector<std::string> Due(int64_t now_ms, size_t limit = SIZE_MAX) const;

  // Visits every (member, deadline) pair, in deadline order.
  void ForEach(absl::FunctionRef<void(std::string_view, int64_t)> fn) const;

  // Approximate bytes owned (MEMORY USAGE). O(1).
  size_t MemoryUsage() const;

 private:
  struct Node {
    int64_t deadline;
    uint32_t len;
    char bytes[];  // the member
    std::string_view member() const { return {bytes, len}; }
  };
  // Hashes and compares nodes by their member bytes (and looks up by bytes).
  struct NodeHash {
    using is_transparent = void;
    size_t operator()(std::string_view m) const { return StrHash{}(m); }
    size_t operator()(const Node* n) const { return StrHash{}(n->member()); }
  };
  struct NodeEq {
    using is_transparent = void;
    static std::string_view View(std::string_view m) { return m; }
    static std::string_view View(const Node* n) { return n->member(); }
    template <class A, class B>
    bool operator()(const A& a, const B& b) const { return View(a) == View(b); }
  };
  static size_t NodeBytes(size_t len) { return sizeof(Node) + len; }

  absl::flat_hash_set<Node*, NodeHash, NodeEq> by_member_;
  absl::btree_set<std::pair<int64_t, const Node*>> by_time_;
  size_t bytes_ = 0;
};

}  // namespace rankd
