// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/member_ttl.h"

namespace rankd {

int64_t MemberTtl::Get(std::string_view member) const {
  auto it = by_member_.find(member);
  return it == by_member_.end() ? -1 : it->second;
}

void MemberTtl::Set(std::string_view member, int64_t deadline_ms) {
  auto it = by_member_.find(member);
  if (it != by_member_.end()) {
    // Invariant: by_time_ holds exactly (deadline, key view) for each entry.
    by_time_.erase({it->second, std::string_view(it->first)});
    if (deadline_ms < 0) {
      bytes_ -= EntryBytes(it->first);
      by_member_.erase(it);
      return;
    }
    it->second = deadline_ms;
  } else {
    if (deadline_ms < 0) return;
    it = by_member_.emplace(std::string(member), deadline_ms).first;
    bytes_ += EntryBytes(member);
  }
  by_time_.insert({deadline_ms, std::string_view(it->first)});
}

std::vector<std::string> MemberTtl::Due(int64_t now_ms) const {
  std::vector<std::string> due;
  for (auto it = by_time_.begin(); it != by_time_.end() && it->first <= now_ms; ++it) {
    due.emplace_back(it->second);
  }
  return due;
}

void MemberTtl::ForEach(absl::FunctionRef<void(std::string_view, int64_t)> fn) const {
  for (const auto& [deadline, member] : by_time_) fn(member, deadline);
}

size_t MemberTtl::EntryBytes(std::string_view member) {
  // A hash node (string + deadline + slot) and a btree slot; long members
  // own a heap buffer too.
  return sizeof(std::string) + 2 * sizeof(int64_t) + sizeof(void*) +
         sizeof(std::pair<int64_t, std::string_view>) + (member.size() > 15 ? member.size() + 1 : 0);
}

}  // namespace rankd
