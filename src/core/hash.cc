// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/hash.h"

#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "core/packed.h"

namespace rankd {

ChainStats Hash::TableStats() const { return table()->Stats(); }

size_t Hash::size() const {
  if (!is_listpack()) return table()->size();
  return rep_ ? packed()->count : 0;
}

std::string_view Hash::bytes() const {
  return rep_ ? std::string_view(packed()->data(), packed()->used) : std::string_view();
}

char* Hash::Splice(size_t off, size_t erase, size_t insert) {
  const size_t used = rep_ ? packed()->used : 0;
  if (erase == insert) return rep_ ? packed()->data() + off : nullptr;  // in place
  const size_t need = used - erase + insert;
  // The allocation follows the bytes held (the allocator rounds up to its
  // size class): grown before the move, shrunk after it when left mostly
  // empty, so small hashes (the million-profiles case) pay for their bytes,
  // not for a growth policy.
  auto resize = [&](size_t bytes) {
    void* p = std::realloc(rep_ ? static_cast<void*>(packed()) : nullptr, sizeof(Packed) + bytes);
    if (!p) throw std::bad_alloc();
    if (!rep_) *static_cast<Packed*>(p) = Packed{0, 0};
    rep_ = reinterpret_cast<uintptr_t>(p);
  };
  auto capacity = [&] { return malloc_usable_size(packed()) - sizeof(Packed); };
  if (!rep_ || need > capacity()) resize(need);
  char* d = packed()->data();
  std::memmove(d + off + insert, d + off + erase, used - off - erase);
  packed()->used = static_cast<uint32_t>(need);
  if (capacity() > need + need / 4 + 16) resize(need);
  return packed()->data() + off;
}

void Hash::Reset() {
  if (is_listpack()) {
    std::free(packed());
  } else {
    delete table();
  }
  rep_ = 0;
  delete deadlines_;
  deadlines_ = nullptr;
}

std::unique_ptr<Hash> Hash::Clone() const {
  auto copy = std::make_unique<Hash>();
  if (is_listpack()) {
    const std::string_view b = bytes();
    if (char* d = copy->Splice(0, 0, b.size())) {
      std::memcpy(d, b.data(), b.size());
      copy->packed()->count = packed()->count;
    }
  } else {
    copy->rep_ = reinterpret_cast<uintptr_t>(new ScanTable<Node>()) | kTableBit;
    table()->ForEach([&](Node* n) { copy->InsertNode(n->key(), n->value()); });
  }
  if (deadlines_) copy->deadlines_ = new FieldDeadlines(*deadlines_);
  return copy;
}

size_t Hash::MemoryUsage() const {
  size_t bytes = sizeof(Hash);
  if (is_listpack()) {
    if (rep_) bytes += malloc_usable_size(packed());
  } else {
    bytes += sizeof(ScanTable<Node>) + table()->bucket_count() * sizeof(void*);
    table()->ForEach([&](Node* n) {
      bytes += sizeof(Node) + (n->bytes.size() > 15 ? n->bytes.capacity() + 1 : 0);
    });
  }
  if (deadlines_) bytes += deadlines_->capacity() * (sizeof(std::string) + sizeof(int64_t) + 1);
  return bytes;
}

size_t Hash::FindEntry(std::string_view field) const {
  const std::string_view buf = bytes();
  size_t off = 0, next;
  while (off < buf.size()) {
    std::string_view f = packed::At(buf, off, &next);
    if (f == field) return off;
    (void)packed::At(buf, next, &off);  // skip the value
  }
  return std::string::npos;
}

std::optional<std::string_view> Hash::Get(std::string_view field) const {
  if (!is_listpack()) {
    Node* n = table()->Find(field);
    if (!n) return std::nullopt;
    return n->value();
  }
  size_t off = FindEntry(field);
  if (off == std::string::npos) return std::nullopt;
  size_t next, ignored;
  (void)packed::At(bytes(), off, &next);
  return packed::At(bytes(), next, &ignored);
}

void Hash::InsertNode(std::string_view field, std::string_view value) {
  Node* n = new Node;
  n->field_len = static_cast<uint32_t>(field.size());
  n->bytes.reserve(field.size() + value.size());
  n->bytes.append(field).append(value);
  table()->Insert(n);
}

bool Hash::Set(std::string_view field, std::string_view value, const HashLimits& limits) {
  if (is_listpack() &&
      (field.size() > limits.max_listpack_value || value.size() > limits.max_listpack_value)) {
    ConvertToHashtable();
  }
  if (deadlines_) deadlines_->erase(field);
  if (!is_listpack()) {
    if (Node* n = table()->Find(field)) {
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
    (void)packed::At(bytes(), off, &vstart);
    (void)packed::At(bytes(), vstart, &vend);
    // An equal-length value is rewritten in place (no move, no realloc).
    (void)packed::Write(Splice(vstart, vend - vstart, packed::EntrySize(value.size())), value);
    return false;
  }
  const size_t flen = packed::EntrySize(field.size());
  char* d = Splice(bytes().size(), 0, flen + packed::EntrySize(value.size()));
  (void)packed::Write(d, field);
  (void)packed::Write(d + flen, value);
  packed()->count++;
  if (packed()->count > limits.max_listpack_entries) ConvertToHashtable();
  return true;
}

void Hash::ConvertToHashtable() {
  if (!is_listpack()) return;
  auto* t = new ScanTable<Node>();
  Packed* old = rep_ ? packed() : nullptr;
  rep_ = reinterpret_cast<uintptr_t>(t) | kTableBit;
  if (old) {
    const std::string_view buf(old->data(), old->used);
    size_t off = 0, next;
    while (off < buf.size()) {
      std::string_view f = packed::At(buf, off, &next);
      std::string_view v = packed::At(buf, next, &off);
      InsertNode(f, v);
    }
    std::free(old);
  }
}

bool Hash::Delete(std::string_view field) {
  bool found;
  if (!is_listpack()) {
    Node* n = table()->Remove(field);
    found = n != nullptr;
    delete n;
  } else {
    size_t off = FindEntry(field);
    found = off != std::string::npos;
    if (found) {
      size_t vstart, vend;
      (void)packed::At(bytes(), off, &vstart);
      (void)packed::At(bytes(), vstart, &vend);
      (void)Splice(off, vend - off, 0);
      packed()->count--;
    }
  }
  if (found && deadlines_) deadlines_->erase(field);
  return found;
}

void Hash::ForEach(Visitor fn) const {
  if (!is_listpack()) {
    table()->ForEach([&](Node* n) { fn(n->key(), n->value()); });
    return;
  }
  const std::string_view buf = bytes();
  size_t off = 0, next;
  while (off < buf.size()) {
    std::string_view f = packed::At(buf, off, &next);
    std::string_view v = packed::At(buf, next, &off);
    fn(f, v);
  }
}

uint64_t Hash::Scan(uint64_t cursor, size_t count, Visitor fn) const {
  if (is_listpack()) {
    ForEach(fn);
    return 0;
  }
  return table()->Scan(cursor, count, [&](Node* n) { fn(n->key(), n->value()); });
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
  if (!deadlines_) deadlines_ = new FieldDeadlines();
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
  if (deadlines_->empty()) {
    delete deadlines_;
    deadlines_ = nullptr;
  }
  return out;
}

}  // namespace rankd
