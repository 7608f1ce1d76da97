// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/hash.h"

#include <algorithm>

#include "core/packed.h"

namespace rankd {
namespace {

// Shrinks a packed buffer that grew by doubling, so small hashes (the
// million-profiles case) pay for their bytes, not for the growth policy.
void Trim(std::string* buf) {
  if (buf->capacity() > buf->size() + buf->size() / 4 + 16) buf->shrink_to_fit();
}

}  // namespace

std::unique_ptr<Hash> Hash::Clone() const {
  auto copy = std::make_unique<Hash>();
  copy->listpack_ = listpack_;
  copy->count_ = count_;
  copy->buf_ = buf_;
  if (table_) {
    copy->table_ = std::make_unique<ScanTable<Node>>();
    table_->ForEach([&](Node* n) { copy->InsertNode(n->key(), n->value()); });
  }
  if (deadlines_) copy->deadlines_ = std::make_unique<FieldDeadlines>(*deadlines_);
  return copy;
}

size_t Hash::MemoryUsage() const {
  size_t bytes = sizeof(Hash) + buf_.capacity();
  if (table_) {
    bytes += sizeof(*table_) + table_->bucket_count() * sizeof(void*);
    table_->ForEach([&](Node* n) {
      bytes += sizeof(Node) + (n->bytes.size() > 15 ? n->bytes.capacity() + 1 : 0);
    });
  }
  if (deadlines_) bytes += deadlines_->capacity() * (sizeof(std::string) + sizeof(int64_t) + 1);
  return bytes;
}

size_t Hash::FindEntry(std::string_view field) const {
  size_t off = 0, next;
  while (off < buf_.size()) {
    std::string_view f = packed::At(buf_, off, &next);
    if (f == field) return off;
    (void)packed::At(buf_, next, &off);  // skip the value
  }
  return std::string::npos;
}

std::optional<std::string_view> Hash::Get(std::string_view field) const {
  if (!listpack_) {
    Node* n = table_->Find(field);
    if (!n) return std::nullopt;
    return n->value();
  }
  size_t off = FindEntry(field);
  if (off == std::string::npos) return std::nullopt;
  size_t next, ignored;
  (void)packed::At(buf_, off, &next);
  return packed::At(buf_, next, &ignored);
}

void Hash::InsertNode(std::string_view field, std::string_view value) {
  Node* n = new Node;
  n->field_len = static_cast<uint32_t>(field.size());
  n->bytes.reserve(field.size() + value.size());
  n->bytes.append(field).append(value);
  table_->Insert(n);
}

bool Hash::Set(std::string_view field, std::string_view value, const HashLimits& limits) {
  if (listpack_ &&
      (field.size() > limits.max_listpack_value || value.size() > limits.max_listpack_value)) {
    ConvertToHashtable();
  }
  if (deadlines_) deadlines_->erase(field);
  if (!listpack_) {
    if (Node* n = table_->Find(field)) {
      n->bytes.resize(n->field_len);
      n->bytes.append(value);
      return false;
    }
    InsertNode(field, value);
    return true;
  }
  size_t off = FindEntry(field);
  if (off != std::string::npos) {
    size_t vstart, vend;
    (void)packed::At(buf_, off, &vstart);
    (void)packed::At(buf_, vstart, &vend);
    buf_.replace(vstart, vend - vstart, packed::Encode(value));
    Trim(&buf_);
    return false;
  }
  packed::Append(&buf_, field);
  packed::Append(&buf_, value);
  count_++;
  if (count_ > limits.max_listpack_entries) {
    ConvertToHashtable();
  } else {
    Trim(&buf_);
  }
  return true;
}

void Hash::ConvertToHashtable() {
  if (!listpack_) return;
  table_ = std::make_unique<ScanTable<Node>>();
  ForEach([&](std::string_view f, std::string_view v) { InsertNode(f, v); });
  listpack_ = false;
  count_ = 0;
  std::string().swap(buf_);
}

bool Hash::Delete(std::string_view field) {
  bool found;
  if (!listpack_) {
    Node* n = table_->Remove(field);
    found = n != nullptr;
    delete n;
  } else {
    size_t off = FindEntry(field);
    found = off != std::string::npos;
    if (found) {
      size_t vstart, vend;
      (void)packed::At(buf_, off, &vstart);
      (void)packed::At(buf_, vstart, &vend);
      buf_.erase(off, vend - off);
      count_--;
      Trim(&buf_);
    }
  }
  if (found && deadlines_) deadlines_->erase(field);
  return found;
}

void Hash::ForEach(Visitor fn) const {
  if (!listpack_) {
    table_->ForEach([&](Node* n) { fn(n->key(), n->value()); });
    return;
  }
  size_t off = 0, next;
  while (off < buf_.size()) {
    std::string_view f = packed::At(buf_, off, &next);
    std::string_view v = packed::At(buf_, next, &off);
    fn(f, v);
  }
}

uint64_t Hash::Scan(uint64_t cursor, size_t count, Visitor fn) const {
  if (listpack_) {
    ForEach(fn);
    return 0;
  }
  return table_->Scan(cursor, count, [&](Node* n) { fn(n->key(), n->value()); });
}

int64_t Hash::FieldExpire(std::string_view field) const {
  if (!deadlines_) return -1;
  auto it = deadlines_->find(field);
  return it == deadlines_->end() ? -1 : it->second;
}

void Hash::SetFieldExpire(std::string_view field, int64_t ms) {
  if (ms < 0) {
    if (deadlines_) deadlines_->erase(field);
    return;
  }
  if (!deadlines_) deadlines_ = std::make_unique<FieldDeadlines>();
  (*deadlines_)[field] = ms;
}

int64_t Hash::NextFieldDeadline() const {
  int64_t best = -1;
  if (!deadlines_) return best;
  for (const auto& [f, ms] : *deadlines_) {
    if (best < 0 || ms < best) best = ms;
  }
  return best;
}

std::vector<std::string> Hash::RemoveExpired(int64_t now_ms) {
  std::vector<std::string> out;
  if (!deadlines_) return out;
  for (const auto& [f, ms] : *deadlines_) {
    if (ms <= now_ms) out.push_back(f);
  }
  std::sort(out.begin(), out.end());
  for (const std::string& f : out) Delete(f);
  if (deadlines_->empty()) deadlines_.reset();
  return out;
}

}  // namespace rankd
