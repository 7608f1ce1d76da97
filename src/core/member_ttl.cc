// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/member_ttl.h"

#include <cstdlib>
#include <cstring>

namespace rankd {

MemberTtl::~MemberTtl() {
  for (Node* n : by_member_) std::free(n);
}

int64_t MemberTtl::Get(std::string_view member) const {
  auto it = by_member_.find(member);
  return it == by_member_.end() ? -1 : (*it)->deadline;
}

void MemberTtl::Set(std::string_view member, int64_t deadline_ms) {
  auto it = by_member_.find(member);
  if (it != by_member_.end()) {
    Node* n = *it;
    // Invariant: by_time_ holds exactly (deadline, node) for each node.
    by_time_.erase({n->deadline, n});
    if (deadline_ms < 0) {
      by_member_.erase(it);
      bytes_ -= NodeBytes(n->len);
      std::free(n);
      return;
    }
    n->deadline = deadline_ms;
    by_time_.insert({deadline_ms, n});
    return;
  }
  if (deadline_ms < 0) return;
  Node* n = static_cast<Node*>(std::malloc(NodeBytes(member.size())));
  n->deadline = deadline_ms;
  n->len = static_cast<uint32_t>(member.size());
  if (!member.empty()) std::memcpy(n->bytes, member.data(), member.size());
  by_member_.insert(n);
  by_time_.insert({deadline_ms, n});
  bytes_ += NodeBytes(member.size());
}

std::vector<std::string> MemberTtl::Due(int64_t now_ms, size_t limit) const {
  std::vector<std::string> due;
  for (auto it = by_time_.begin();
       it != by_time_.end() && it->first <= now_ms && due.size() < limit; ++it) {
    due.emplace_back(it->second->member());
  }
  return due;
}

void MemberTtl::ForEach(absl::FunctionRef<void(std::string_view, int64_t)> fn) const {
  for (const auto& [deadline, node] : by_time_) fn(node->member(), deadline);
}

size_t MemberTtl::MemoryUsage() const {
  // Nodes, plus the hash set's slots and control bytes and the btree's
  // slots (about 1.3x their size in ~70%-full nodes).
  return sizeof(*this) + bytes_ + by_member_.capacity() * (sizeof(Node*) + 1) +
         by_time_.size() * sizeof(std::pair<int64_t, const Node*>) * 13 / 10;
}

}  // namespace rankd
