// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/repl_backlog.h"

#include <algorithm>

namespace rankd {

ReplBacklog::ReplBacklog(int64_t size, uint64_t next_offset)
    : buf_(static_cast<size_t>(std::max(size, kMinSize)), '\0'), next_offset_(next_offset) {}

void ReplBacklog::Append(std::string_view bytes) {
  next_offset_ += bytes.size();
  const size_t cap = buf_.size();
  if (bytes.size() >= cap) {  // only the tail fits
    bytes = bytes.substr(bytes.size() - cap);
    buf_.assign(bytes);
    head_ = 0;
    histlen_ = cap;
    return;
  }
  const size_t first = std::min(bytes.size(), cap - head_);
  buf_.replace(head_, first, bytes.substr(0, first));
  buf_.replace(0, bytes.size() - first, bytes.substr(first));
  head_ = (head_ + bytes.size()) % cap;
  histlen_ = std::min(cap, histlen_ + bytes.size());
}

std::string ReplBacklog::CopyFrom(uint64_t offset) const {
  if (!Covers(offset)) return "";
  const size_t n = static_cast<size_t>(next_offset_ - offset);
  const size_t cap = buf_.size();
  const size_t start = (head_ + cap - n) % cap;
  std::string out;
  out.reserve(n);
  const size_t first = std::min(n, cap - start);
  out.append(buf_, start, first);
  out.append(buf_, 0, n - first);
  return out;
}

void ReplBacklog::Resize(int64_t size) {
  size = std::max(size, kMinSize);
  if (size == this->size()) return;
  std::string held = CopyFrom(first_offset());
  if (held.size() > static_cast<size_t>(size)) held.erase(0, held.size() - size);
  const uint64_t next = next_offset_;
  buf_.assign(static_cast<size_t>(size), '\0');
  head_ = 0;
  histlen_ = 0;
  next_offset_ = next - held.size();
  Append(held);
}

void ReplBacklog::Reset(uint64_t next_offset) {
  head_ = 0;
  histlen_ = 0;
  next_offset_ = next_offset;
}

}  // namespace rankd
