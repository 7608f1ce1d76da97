// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/compact_set.h"

#include <cassert>
#include <cstring>
#include <vector>

namespace rankd {

void CompactSet::Encode(std::string* out, std::string_view member, double score) {
  char head[8 + 5];
  std::memcpy(head, &score, 8);
  size_t n = 8;
  size_t v = member.size();
  while (v >= 0x80) head[n++] = static_cast<char>((v & 0x7F) | 0x80), v >>= 7;
  head[n++] = static_cast<char>(v);
  out->append(head, n);
  out->append(member.data(), member.size());
}

CompactSet::Entry CompactSet::Decode(size_t offset) const {
  const char* p = buf_.data() + offset;
  Entry e;
  std::memcpy(&e.score, p, 8);
  size_t len = 0, i = 8;
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

size_t CompactSet::OffsetOfRank(uint64_t rank) const {
  size_t off = 0;
  for (uint64_t r = 0; r < rank; ++r) off += Decode(off).size;
  return off;
}

std::optional<std::pair<CompactSet::Entry, uint64_t>> CompactSet::Find(
    std::string_view member) const {
  uint64_t rank = 0;
  for (size_t off = 0; off < buf_.size(); ++rank) {
    Entry e = Decode(off);
    if (e.member == member) return std::make_pair(e, rank);
    off += e.size;
  }
  return std::nullopt;
}

void CompactSet::InsertEncoded(const std::string& enc, std::string_view member, double score) {
  size_t off = 0;
  while (off < buf_.size()) {
    Entry e = Decode(off);
    if (ElementLess(score, member, e.score, e.member)) break;
    off += e.size;
  }
  buf_.insert(off, enc);
  ++size_;
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
  Erase(e);
  InsertEncoded(enc, member, score);
}

void CompactSet::Append(std::string_view member, double score) {
  Encode(&buf_, member, score);
  ++size_;
}

void CompactSet::Erase(const Entry& e) {
  buf_.erase(e.offset, e.size);
  --size_;
  Trim();
}

void CompactSet::EraseRankRange(uint64_t start, uint64_t stop) {
  assert(start <= stop && stop < size_);
  size_t from = OffsetOfRank(start);
  size_t to = from;
  for (uint64_t r = start; r <= stop; ++r) to += Decode(to).size;
  buf_.erase(from, to - from);
  size_ -= static_cast<uint32_t>(stop - start + 1);
  Trim();
}

void CompactSet::Trim() {
  // The buffer grows by doubling; small sets (a million 5-member boards)
  // pay for their bytes, not for the growth policy (issue 15).
  if (buf_.capacity() > buf_.size() + buf_.size() / 4 + 16) buf_.shrink_to_fit();
}

CompactSet::Entry CompactSet::At(uint64_t rank) const {
  assert(rank < size_);
  return Decode(OffsetOfRank(rank));
}

void CompactSet::ForEachInRankRange(uint64_t start, uint64_t stop, bool reverse,
                                    ElementVisitor fn) const {
  assert(start <= stop && stop < size_);
  size_t off = OffsetOfRank(start);
  if (!reverse) {
    for (uint64_t r = start; r <= stop; ++r) {
      Entry e = Decode(off);
      fn(e.member, e.score);
      off += e.size;
    }
    return;
  }
  // Entries only decode forwards: collect the offsets first.
  std::vector<size_t> offsets;
  offsets.reserve(stop - start + 1);
  for (uint64_t r = start; r <= stop; ++r) {
    offsets.push_back(off);
    off += Decode(off).size;
  }
  for (auto it = offsets.rbegin(); it != offsets.rend(); ++it) {
    Entry e = Decode(*it);
    fn(e.member, e.score);
  }
}

std::string CompactSet::CheckInvariants() const {
  uint64_t n = 0;
  size_t off = 0;
  Entry prev{};
  while (off < buf_.size()) {
    if (buf_.size() - off < 9) return "compact: truncated entry";
    Entry e = Decode(off);
    if (e.size > buf_.size() - off) return "compact: entry overruns buffer";
    if (e.score != e.score) return "compact: NaN score";
    if (n > 0 && !ElementLess(prev.score, prev.member, e.score, e.member)) {
      return "compact: entries not strictly ascending";
    }
    prev = e;
    off += e.size;
    ++n;
  }
  if (n != size_) return "compact: size mismatch";
  return "";
}

}  // namespace rankd
