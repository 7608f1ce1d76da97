// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/plain_set.h"

#include <algorithm>

#include "base/numbers.h"

namespace rankd {

std::unique_ptr<PlainSet> PlainSet::Clone() const {
  auto copy = std::make_unique<PlainSet>();
  copy->hashtable_ = hashtable_;
  copy->ints_ = ints_;
  table_.ForEach([&](Node* n) { copy->table_.Insert(new Node{nullptr, 0, n->member}); });
  return copy;
}

size_t PlainSet::MemoryUsage() const {
  size_t bytes = sizeof(PlainSet) + ints_.capacity() * sizeof(int64_t);
  table_.ForEach([&](Node* n) { bytes += sizeof(Node) + n->member.capacity(); });
  return bytes + table_.bucket_count() * sizeof(void*);
}

bool PlainSet::Add(std::string_view member, const PlainSetLimits& limits) {
  if (!hashtable_) {
    int64_t v;
    if (ParseInt64(member, &v)) {
      auto it = std::lower_bound(ints_.begin(), ints_.end(), v);
      if (it != ints_.end() && *it == v) return false;
      ints_.insert(it, v);
      if (ints_.size() > limits.max_intset_entries) ConvertToHashtable();
      return true;
    }
    ConvertToHashtable();
  }
  if (table_.Find(member)) return false;
  table_.Insert(new Node{nullptr, 0, std::string(member)});
  return true;
}

bool PlainSet::Remove(std::string_view member) {
  if (!hashtable_) {
    int64_t v;
    if (!ParseInt64(member, &v)) return false;
    auto it = std::lower_bound(ints_.begin(), ints_.end(), v);
    if (it == ints_.end() || *it != v) return false;
    ints_.erase(it);
    return true;
  }
  Node* n = table_.Remove(member);
  delete n;
  return n != nullptr;
}

bool PlainSet::Contains(std::string_view member) const {
  if (!hashtable_) {
    int64_t v;
    return ParseInt64(member, &v) && std::binary_search(ints_.begin(), ints_.end(), v);
  }
  return table_.Find(member) != nullptr;
}

void PlainSet::ForEach(Visitor fn) const {
  if (!hashtable_) {
    for (int64_t v : ints_) fn(FormatInt64(v));
    return;
  }
  table_.ForEach([&](Node* n) { fn(n->member); });
}

uint64_t PlainSet::Scan(uint64_t cursor, size_t count, Visitor fn) const {
  if (!hashtable_) {
    ForEach(fn);
    return 0;
  }
  return table_.Scan(cursor, count, [&](Node* n) { fn(n->member); });
}

void PlainSet::ConvertToHashtable() {
  hashtable_ = true;
  for (int64_t v : ints_) table_.Insert(new Node{nullptr, 0, FormatInt64(v)});
  ints_.clear();
  ints_.shrink_to_fit();
}

}  // namespace rankd
