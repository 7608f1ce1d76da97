// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/record_arena.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "base/huge_pages.h"

namespace rankd {

RecordArena::~RecordArena() {
  for (size_t i = 0; i < blocks_.size() && i < first_carved_; ++i) std::free(blocks_[i]);
  for (char* c : chunks_) FreeHuge(c, kHugePageBytes);
  for (char* p : large_) std::free(p);
}

void RecordArena::Swap(RecordArena& o) noexcept {
  assert(extra_ == o.extra_);  // Invariant: handles of both stay readable.
  blocks_.swap(o.blocks_);
  chunks_.swap(o.chunks_);
  std::swap(first_carved_, o.first_carved_);
  std::swap(chunk_used_, o.chunk_used_);
  std::swap(tail_used_, o.tail_used_);
  std::swap(tail_cap_, o.tail_cap_);
  std::swap(next_block_, o.next_block_);
  std::swap(block_bytes_, o.block_bytes_);
  std::swap(live_bytes_, o.live_bytes_);
  std::swap(free_bytes_, o.free_bytes_);
  std::swap(tail_waste_, o.tail_waste_);
  std::swap(large_bytes_, o.large_bytes_);
  free_heads_.swap(o.free_heads_);
  large_.swap(o.large_);
}

const char* RecordArena::ReadLen(const char* p, size_t* len) {
  size_t v = 0;
  for (int shift = 0;; shift += 7) {
    uint8_t b = static_cast<uint8_t>(*p++);
    v |= size_t{b & 0x7Fu} << shift;
    if (b < 0x80) break;
  }
  *len = v;
  return p;
}

std::string_view RecordArena::LongMember(Handle h) const {
  size_t len;
  const char* q = ReadLen(Ptr(h) + sizeof(double), &len);
  if (len <= kMaxInlineMember) return {q, len};
  const char* ext;
  std::memcpy(&ext, q, sizeof ext);
  return {ext, len};
}

size_t RecordArena::SizeOf(Handle h) const {
  size_t len;
  ReadLen(Ptr(h) + sizeof(double), &len);
  return RecordSize(len) + extra_;
}

char* RecordArena::Extra(Handle h) const {
  size_t len;
  const char* q = ReadLen(Ptr(h) + sizeof(double), &len);
  return const_cast<char*>(q) + (len <= kMaxInlineMember ? len : sizeof(char*));
}

void RecordArena::ReserveHint(size_t bytes) {
  if (!blocks_.empty()) return;
  size_t b = 256;
  while (b < bytes && b < kMaxBlockBytes) b *= 2;
  next_block_ = b;
}

RecordArena::Handle RecordArena::Allocate(size_t size) {
  live_bytes_ += size;
  if (!free_heads_.empty()) {
    auto it = free_heads_.find(static_cast<uint32_t>(size));
    if (it != free_heads_.end()) {
      Handle h = it->second;
      Handle next = Forward(h);  // free records link through their first 4 bytes
      if (next == kNoHandle) free_heads_.erase(it); else it->second = next;
      free_bytes_ -= size;
      return h;
    }
  }
  if (tail_cap_ - tail_used_ < size) {
    if (blocks_.size() >= (size_t{1} << 16)) {
      std::fprintf(stderr, "rankd: sorted set exceeds 4 GiB of records\n");
      std::abort();  // CHECK: handles cannot address more.
    }
    size_t bytes = next_block_;
    while (bytes < size) bytes *= 2;
    tail_waste_ += tail_cap_ - tail_used_;
    blocks_.push_back(NewBlock(bytes));
    tail_used_ = 0;
    tail_cap_ = bytes;
    next_block_ = std::min(next_block_ * 2, kMaxBlockBytes);
  }
  Handle h = static_cast<Handle>(((blocks_.size() - 1) << 16) | tail_used_);
  tail_used_ += size;
  return h;
}

char* RecordArena::NewBlock(size_t bytes) {
  const bool carve = bytes == kMaxBlockBytes && block_bytes_ >= kCarveFromBytes;
  if (!carve) {
    char* b = static_cast<char*>(std::malloc(bytes));
    if (b == nullptr) std::abort();
    block_bytes_ += bytes;
    return b;
  }
  static_assert(kHugePageBytes % kMaxBlockBytes == 0);
  if (first_carved_ == SIZE_MAX) first_carved_ = blocks_.size();
  if (chunks_.empty() || chunk_used_ == kHugePageBytes) {
    chunks_.push_back(static_cast<char*>(AllocHuge(kHugePageBytes)));
    chunk_used_ = 0;
    block_bytes_ += kHugePageBytes;  // the whole chunk is allocated now
  }
  char* b = chunks_.back() + chunk_used_;
  chunk_used_ += bytes;
  // The chunk's last block: it is about to fill, so it may become a huge
  // page now (in the background, see base/huge_pages.h).
  if (chunk_used_ == kHugePageBytes) AdviseHuge(chunks_.back(), kHugePageBytes);
  return b;
}

RecordArena::Handle RecordArena::New(std::string_view member, double score) {
  const size_t len = member.size();
  Handle h = Allocate(RecordSize(len) + extra_);
  char* p = Ptr(h);
  std::memcpy(p, &score, sizeof score);
  p += sizeof score;
  size_t v = len;
  while (v >= 0x80) *p++ = static_cast<char>((v & 0x7F) | 0x80), v >>= 7;
  *p++ = static_cast<char>(v);
  if (len <= kMaxInlineMember) {
    if (len > 0) std::memcpy(p, member.data(), len);
    if (extra_ > 0) std::memset(p + len, 0, extra_);
  } else {
    char* ext = static_cast<char*>(std::malloc(len));
    if (ext == nullptr) std::abort();
    std::memcpy(ext, member.data(), len);
    std::memcpy(p, &ext, sizeof ext);
    if (extra_ > 0) std::memset(p + sizeof ext, 0, extra_);
    large_.insert(ext);
    large_bytes_ += len;
  }
  return h;
}

void RecordArena::Free(Handle h) {
  std::string_view m = Member(h);
  const size_t size = RecordSize(m.size()) + extra_;
  if (m.size() > kMaxInlineMember) {
    char* ext = const_cast<char*>(m.data());
    large_.erase(ext);
    large_bytes_ -= m.size();
    std::free(ext);
  }
  auto [it, inserted] = free_heads_.try_emplace(static_cast<uint32_t>(size), h);
  SetForward(h, inserted ? kNoHandle : it->second);
  it->second = h;
  live_bytes_ -= size;
  free_bytes_ += size;
}

RecordArena::Handle RecordArena::Adopt(RecordArena* from, Handle h) {
  const size_t size = from->SizeOf(h);
  Handle nh = Allocate(size);
  std::memcpy(Ptr(nh), from->Ptr(h), size);
  std::string_view m = from->Member(h);
  if (m.size() > kMaxInlineMember) {
    char* ext = const_cast<char*>(m.data());
    from->large_.erase(ext);
    from->large_bytes_ -= m.size();
    large_.insert(ext);
    large_bytes_ += m.size();
  }
  return nh;
}

size_t RecordArena::MemoryUsage() const {
  // Hash containers: one slot plus one control byte per bucket.
  return block_bytes_ + large_bytes_ + (blocks_.capacity() + chunks_.capacity()) * sizeof(char*) +
         free_heads_.capacity() * (sizeof(std::pair<uint32_t, Handle>) + 1) +
         large_.capacity() * (sizeof(char*) + 1);
}

}  // namespace rankd
