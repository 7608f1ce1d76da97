// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/quick_list.h"

#include <algorithm>
#include <cassert>

#include "core/packed.h"

namespace rankd {
namespace {

constexpr size_t kSafetyLimit = 8192;
constexpr size_t kByteLevels[] = {4096, 8192, 16384, 32768, 65536};

}  // namespace

std::unique_ptr<QuickList> QuickList::Clone() const {
  auto copy = std::make_unique<QuickList>();
  copy->chunks_ = chunks_;
  copy->size_ = size_;
  return copy;
}

size_t QuickList::MemoryUsage() const {
  size_t bytes = sizeof(QuickList);
  for (const Chunk& c : chunks_) bytes += sizeof(Chunk) + c.buf.capacity();
  return bytes;
}

bool QuickList::Fits(const Chunk& chunk, size_t len, const ListLimits& limits) const {
  if (chunk.count == 0) return true;
  const size_t bytes = chunk.buf.size() + packed::EntrySize(len);
  if (limits.fill > 0) {
    return chunk.count + 1 <= static_cast<uint64_t>(limits.fill) && bytes <= kSafetyLimit;
  }
  size_t level = limits.fill == 0 ? 0 : static_cast<size_t>(-limits.fill) - 1;
  level = std::min(level, std::size(kByteLevels) - 1);
  return bytes <= kByteLevels[level];
}

size_t QuickList::Offset(const Chunk& c, size_t i) {
  size_t off;
  if (i <= c.count / 2) {
    off = 0;
    for (size_t j = 0; j < i; j++) (void)packed::At(c.buf, off, &off);
  } else {
    off = c.buf.size();
    for (size_t j = c.count; j > i; j--) (void)packed::Before(c.buf, off, &off);
  }
  return off;
}

size_t QuickList::Locate(size_t index, size_t* in_chunk) const {
  assert(index < size_);
  if (index < size_ / 2) {
    for (size_t ci = 0;; ci++) {
      if (index < chunks_[ci].count) {
        *in_chunk = index;
        return ci;
      }
      index -= chunks_[ci].count;
    }
  }
  size_t from_end = size_ - 1 - index;
  for (size_t ci = chunks_.size() - 1;; ci--) {
    if (from_end < chunks_[ci].count) {
      *in_chunk = chunks_[ci].count - 1 - from_end;
      return ci;
    }
    from_end -= chunks_[ci].count;
  }
}

void QuickList::PushFront(std::string_view v, const ListLimits& limits) {
  if (chunks_.empty() || !Fits(chunks_.front(), v.size(), limits)) chunks_.emplace_front();
  Chunk& c = chunks_.front();
  packed::Insert(&c.buf, 0, v);
  c.count++;
  size_++;
}

void QuickList::PushBack(std::string_view v, const ListLimits& limits) {
  if (chunks_.empty() || !Fits(chunks_.back(), v.size(), limits)) chunks_.emplace_back();
  Chunk& c = chunks_.back();
  packed::Append(&c.buf, v);
  c.count++;
  size_++;
}

std::string QuickList::PopFront() {
  assert(size_ > 0);
  Chunk& c = chunks_.front();
  size_t next;
  std::string out(packed::At(c.buf, 0, &next));
  c.buf.erase(0, next);
  size_--;
  if (--c.count == 0) chunks_.pop_front();
  return out;
}

std::string QuickList::PopBack() {
  assert(size_ > 0);
  Chunk& c = chunks_.back();
  size_t start;
  std::string out(packed::Before(c.buf, c.buf.size(), &start));
  c.buf.resize(start);
  size_--;
  if (--c.count == 0) chunks_.pop_back();
  return out;
}

std::string_view QuickList::At(size_t index) const {
  size_t k;
  const Chunk& c = chunks_[Locate(index, &k)];
  size_t next;
  return packed::At(c.buf, Offset(c, k), &next);
}

void QuickList::Replace(size_t index, std::string_view v, const ListLimits& limits) {
  Erase(index, 1);
  Insert(index, v, limits);
}

void QuickList::Insert(size_t index, std::string_view v, const ListLimits& limits) {
  assert(index <= size_);
  if (index == 0) return PushFront(v, limits);
  if (index == size_) return PushBack(v, limits);
  size_t k;
  const size_t ci = Locate(index, &k);
  Chunk& c = chunks_[ci];
  const bool fits = Fits(c, v.size(), limits);
  packed::Insert(&c.buf, Offset(c, k), v);
  c.count++;
  size_++;
  if (fits || c.count < 2) return;
  // Split the overfull chunk in two halves (Redis splits at the insertion
  // point; only the memory layout differs).
  const size_t half = c.count / 2, cut = Offset(c, half);
  Chunk tail;
  tail.buf = c.buf.substr(cut);
  tail.count = c.count - static_cast<uint32_t>(half);
  c.buf.resize(cut);
  c.buf.shrink_to_fit();
  c.count = static_cast<uint32_t>(half);
  chunks_.insert(chunks_.begin() + static_cast<std::ptrdiff_t>(ci) + 1, std::move(tail));
}

void QuickList::Erase(size_t index, size_t count) {
  assert(index + count <= size_);
  while (count > 0) {
    size_t k;
    const size_t ci = Locate(index, &k);
    Chunk& c = chunks_[ci];
    const size_t n = std::min<size_t>(count, c.count - k);
    if (n == c.count) {
      chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(ci));
    } else {
      const size_t from = Offset(c, k);
      size_t to = from;
      for (size_t j = 0; j < n; j++) (void)packed::At(c.buf, to, &to);
      c.buf.erase(from, to - from);
      c.count -= static_cast<uint32_t>(n);
    }
    size_ -= n;
    count -= n;
  }
}

void QuickList::ForEach(size_t first, size_t count, bool reverse, Visitor fn) const {
  assert(first + count <= size_);
  if (count == 0) return;
  if (!reverse) {
    size_t k;
    size_t ci = Locate(first, &k);
    size_t off = Offset(chunks_[ci], k);
    while (count > 0) {
      const Chunk& c = chunks_[ci];
      if (off >= c.buf.size()) {
        ci++;
        off = 0;
        continue;
      }
      fn(packed::At(c.buf, off, &off));
      count--;
    }
    return;
  }
  size_t k;
  size_t ci = Locate(first + count - 1, &k);
  size_t end = Offset(chunks_[ci], k + 1);
  while (count > 0) {
    if (end == 0) {
      ci--;
      end = chunks_[ci].buf.size();
      continue;
    }
    fn(packed::Before(chunks_[ci].buf, end, &end));
    count--;
  }
}

bool QuickList::CheckInvariants() const {
  size_t total = 0;
  for (const Chunk& c : chunks_) {
    if (c.count == 0) return false;
    size_t off = 0, n = 0;
    while (off < c.buf.size()) {
      (void)packed::At(c.buf, off, &off);
      n++;
    }
    if (n != c.count || off != c.buf.size()) return false;
    total += n;
  }
  return total == size_;
}

}  // namespace rankd
