// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/compact_set.h"

#include <malloc.h>

#include <cassert>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <new>
#include <vector>

namespace rankd {

namespace {

constexpr uint8_t kSmallIntEnd = 0xE0;  // tags below: the integer tag - 32
constexpr int kSmallIntBias = 32;
constexpr uint8_t kRawDouble = 0xFF;
constexpr double kMaxExactInt = 9007199254740991.0;  // 2^53 - 1

// True when `s` is an integer that reads back bit for bit from an int64.
bool IntegerScore(double s, int64_t* v) {
  if (!(s >= -kMaxExactInt && s <= kMaxExactInt)) return false;  // also NaN, inf
  const auto i = static_cast<int64_t>(s);
  if (static_cast<double>(i) != s || (i == 0 && std::signbit(s))) return false;
  *v = i;
  return true;
}

}  // namespace

CompactSet::~CompactSet() { std::free(p_); }

CompactSet::CompactSet(const CompactSet& o) {
  if (!o.p_) return;
  Resize(o.p_->used);
  std::memcpy(p_->data(), o.p_->data(), o.p_->used);
  p_->used = o.p_->used;
  p_->count = o.p_->count;
}

size_t CompactSet::MemoryUsage() const { return p_ ? malloc_usable_size(p_) : 0; }

size_t CompactSet::capacity() const {
  return p_ ? malloc_usable_size(p_) - sizeof(Packed) : 0;
}

void CompactSet::Resize(size_t bytes) {
  void* p = std::realloc(p_, sizeof(Packed) + bytes);
  if (!p) throw std::bad_alloc();
  if (!p_) *static_cast<Packed*>(p) = Packed{0, 0};
  p_ = static_cast<Packed*>(p);
}

void CompactSet::Reserve(size_t bytes) {
  if (bytes > capacity()) Resize(bytes);
}

void CompactSet::Trim() {
  if (!p_) return;
  if (p_->count == 0) {
    std::free(p_);
    p_ = nullptr;
    return;
  }
  // Small sets (a million 5-member boards) pay for their bytes, not for a
  // growth policy (issue 15).
  const size_t need = p_->used;
  if (capacity() > need + need / 4 + 16) Resize(need);
}

void CompactSet::Splice(size_t off, size_t erase, std::string_view insert) {
  const size_t used_now = used();
  const size_t need = used_now - erase + insert.size();
  if (need > capacity()) Resize(need);
  char* d = p_->data();
  std::memmove(d + off + insert.size(), d + off + erase, used_now - off - erase);
  if (!insert.empty()) std::memcpy(d + off, insert.data(), insert.size());
  p_->used = static_cast<uint32_t>(need);
}

void CompactSet::Encode(std::string* out, std::string_view member, double score) {
  char head[9 + 5];
  size_t n = 0;
  int64_t v;
  if (IntegerScore(score, &v) && v >= -kSmallIntBias && v < kSmallIntEnd - kSmallIntBias) {
    head[n++] = static_cast<char>(v + kSmallIntBias);
  } else if (IntegerScore(score, &v)) {
    int bytes = 1;
    while (bytes < 7 && (v < -(int64_t{1} << (8 * bytes - 1)) ||
                         v >= (int64_t{1} << (8 * bytes - 1)))) {
      ++bytes;
    }
    head[n++] = static_cast<char>(kSmallIntEnd + bytes - 1);
    const auto u = static_cast<uint64_t>(v);
    std::memcpy(head + n, &u, bytes);  // little-endian hosts (x86-64, arm64)
    n += bytes;
  } else {
    head[n++] = static_cast<char>(kRawDouble);
    std::memcpy(head + n, &score, 8);
    n += 8;
  }
  size_t len = member.size();
  while (len >= 0x80) head[n++] = static_cast<char>((len & 0x7F) | 0x80), len >>= 7;
  head[n++] = static_cast<char>(len);
  out->append(head, n);
  out->append(member.data(), member.size());
}

CompactSet::Entry CompactSet::Decode(size_t offset) const {
  const char* p = data() + offset;
  Entry e;
  const uint8_t tag = static_cast<uint8_t>(p[0]);
  size_t i = 1;
  if (tag < kSmallIntEnd) {
    e.score = static_cast<double>(static_cast<int>(tag) - kSmallIntBias);
  } else if (tag == kRawDouble) {
    std::memcpy(&e.score, p + 1, 8);
    i = 9;
  } else {
    const int bytes = tag - kSmallIntEnd + 1;
    uint64_t u = 0;
    std::memcpy(&u, p + 1, bytes);
    const int shift = 64 - 8 * bytes;
    e.score = static_cast<double>(static_cast<int64_t>(u << shift) >> shift);
    i += bytes;
  }
  size_t len = 0;
  for (int shift = 0;; shift += 7) {
    uint8_t b = static_cast<uint8_t>(p[i++]);
    len |= size_t{b & 0x7Fu} << shift;
    if (b < 0x80) break;
  }
  e.member = std::string_view(p + i, len);
  e.offset = offset;
  e.size = i + len;
  return e;
}

// Inline: a walk to a rank calls it for every entry before the rank (90 of
// them for the top ten of a 100-member set, read backwards), and as a call
// it cost three times its own instructions.
[[gnu::always_inline]] inline size_t CompactSet::EntrySize(size_t offset) const {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(data() + offset);
  const uint8_t tag = p[0];
  const size_t head = tag < kSmallIntEnd ? 1 : tag == kRawDouble ? 9 : 2 + (tag - kSmallIntEnd);
  if (p[head] < 0x80) return head + 1 + p[head];  // the usual 1-byte length
  size_t len = 0, i = head;
  for (int shift = 0;; shift += 7) {
    const uint8_t b = p[i++];
    len |= size_t{b & 0x7Fu} << shift;
    if (b < 0x80) break;
  }
  return i + len;
}

size_t CompactSet::OffsetOfRank(uint64_t rank) const {
  size_t off = 0;
  for (uint64_t r = 0; r < rank; ++r) off += EntrySize(off);
  return off;
}

std::optional<std::pair<CompactSet::Entry, uint64_t>> CompactSet::Find(
    std::string_view member) const {
  uint64_t rank = 0;
  for (size_t off = 0; off < used(); ++rank) {
    Entry e = Decode(off);
    if (e.member == member) return std::make_pair(e, rank);
    off += e.size;
  }
  return std::nullopt;
}

void CompactSet::InsertEncoded(const std::string& enc, std::string_view member, double score) {
  size_t off = 0;
  while (off < used()) {
    Entry e = Decode(off);
    if (ElementLess(score, member, e.score, e.member)) break;
    off += e.size;
  }
  Splice(off, 0, enc);
  ++p_->count;
  Trim();
}

void CompactSet::Insert(std::string_view member, double score) {
  std::string enc;
  Encode(&enc, member, score);
  InsertEncoded(enc, member, score);
}

void CompactSet::UpdateScore(const Entry& e, double score) {
  std::string enc;
  Encode(&enc, e.member, score);  // copies the member before the erase
  std::string_view member(enc.data() + enc.size() - e.member.size(), e.member.size());
  Splice(e.offset, e.size, {});
  --p_->count;
  InsertEncoded(enc, member, score);
}

void CompactSet::Append(std::string_view member, double score) {
  std::string enc;
  Encode(&enc, member, score);
  Splice(used(), 0, enc);
  ++p_->count;
}

void CompactSet::Erase(const Entry& e) {
  Splice(e.offset, e.size, {});
  --p_->count;
  Trim();
}

void CompactSet::EraseRankRange(uint64_t start, uint64_t stop) {
  assert(start <= stop && stop < size());
  size_t from = OffsetOfRank(start);
  size_t to = from;
  for (uint64_t r = start; r <= stop; ++r) to += EntrySize(to);
  Splice(from, to - from, {});
  p_->count -= static_cast<uint32_t>(stop - start + 1);
  Trim();
}

CompactSet::Entry CompactSet::At(uint64_t rank) const {
  assert(rank < size());
  return Decode(OffsetOfRank(rank));
}

void CompactSet::ForEachInRankRange(uint64_t start, uint64_t stop, bool reverse,
                                    ElementVisitor fn) const {
  assert(start <= stop && stop < size());
  size_t off = OffsetOfRank(start);
  if (!reverse) {
    for (uint64_t r = start; r <= stop; ++r) {
      Entry e = Decode(off);
      fn(e.member, e.score);
      off += e.size;
    }
    return;
  }
  // Entries only decode forwards: collect the offsets first (on the stack
  // for a page of a leaderboard screen, the usual reverse read).
  const size_t count = stop - start + 1;
  uint32_t local[64];
  std::vector<uint32_t> heap;
  uint32_t* offsets = local;
  if (count > std::size(local)) heap.resize(count), offsets = heap.data();
  for (size_t i = 0; i < count; ++i) {
    offsets[i] = static_cast<uint32_t>(off);
    off += EntrySize(off);
  }
  for (size_t i = count; i-- > 0;) {
    Entry e = Decode(offsets[i]);
    fn(e.member, e.score);
  }
}

std::string CompactSet::CheckInvariants() const {
  if (p_ && p_->count == 0) return "compact: empty set holds an allocation";
  uint64_t n = 0;
  size_t off = 0;
  Entry prev{};
  while (off < used()) {
    const uint8_t tag = static_cast<uint8_t>(data()[off]);
    const size_t head = tag < kSmallIntEnd ? 1 : tag == kRawDouble ? 9 : 2 + (tag - kSmallIntEnd);
    if (tag > kSmallIntEnd + 6 && tag != kRawDouble) return "compact: bad score tag";
    if (used() - off < head + 1) return "compact: truncated entry";
    Entry e = Decode(off);
    if (e.size > used() - off) return "compact: entry overruns buffer";
    if (e.score != e.score) return "compact: NaN score";
    if (n > 0 && !ElementLess(prev.score, prev.member, e.score, e.member)) {
      return "compact: entries not strictly ascending";
    }
    prev = e;
    off += e.size;
    ++n;
  }
  if (n != size()) return "compact: size mismatch";
  return "";
}

}  // namespace rankd
