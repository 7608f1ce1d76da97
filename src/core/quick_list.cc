// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// QuickList operations. Every edit of a chunk goes Open -> edit -> Settle,
// and every change in the number of chunks ends with SettleEnds, so the
// compression invariants hold between calls (quick_list_compress.cc).

#include "core/quick_list.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <vector>

#include "core/packed.h"

namespace rankd {
namespace {

constexpr size_t kSafetyLimit = 8192;
constexpr size_t kByteLevels[] = {4096, 8192, 16384, 32768, 65536};

// The most bytes a chunk of two or more entries may hold under `limits`.
size_t ByteCap(const ListLimits& limits) {
  if (limits.fill > 0) return kSafetyLimit;
  size_t level = limits.fill == 0 ? 0 : static_cast<size_t>(-limits.fill) - 1;
  level = std::min(level, std::size(kByteLevels) - 1);
  return kByteLevels[level];
}

// True when a chunk of `count` entries and `bytes` bytes respects `limits`.
bool Within(size_t count, size_t bytes, const ListLimits& limits) {
  if (limits.fill > 0 && count > static_cast<uint64_t>(limits.fill)) return false;
  return bytes <= ByteCap(limits);
}

}  // namespace

QuickList::QuickList(int64_t compress_depth)
    : depth_(static_cast<uint32_t>(std::clamp<int64_t>(compress_depth, 0, kMaxCompressDepth))) {}

std::unique_ptr<QuickList> QuickList::Clone() const {
  auto copy = std::make_unique<QuickList>(depth_);
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
  if (chunk.plain || len >= limits.plain_threshold) return false;
  return Within(chunk.count + 1, chunk.raw_bytes() + packed::EntrySize(len), limits);
}

void QuickList::GrowLead(Chunk* c, size_t n, const ListLimits& limits) {
  assert(!c->compressed());
  const std::string_view old = c->entries();
  // Double the chunk, up to what its limit still lets it take (a chunk of
  // one oversized element gets exactly `n`).
  const size_t cap = ByteCap(limits);
  const size_t room = cap > old.size() ? cap - old.size() : 0;
  const size_t lead = std::max(n, std::min(old.size(), room));
  std::string buf(lead + old.size(), '\0');
  std::memcpy(buf.data() + lead, old.data(), old.size());
  c->buf = std::move(buf);
  c->aux = static_cast<uint32_t>(lead);
}

void QuickList::Trim(Chunk* c) {
  assert(!c->compressed());
  if (c->aux == 0 && c->buf.capacity() == c->buf.size()) return;
  c->buf = std::string(c->entries());
  c->aux = 0;
}

size_t QuickList::Offset(std::string_view buf, size_t count, size_t i) {
  size_t off;
  if (i <= count / 2) {
    off = 0;
    for (size_t j = 0; j < i; j++) (void)packed::At(buf, off, &off);
  } else {
    off = buf.size();
    for (size_t j = count; j > i; j--) (void)packed::Before(buf, off, &off);
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
  const bool grow = chunks_.empty() || !Fits(chunks_.front(), v.size(), limits);
  if (grow) {
    // The full end chunk is final now: give back its growth slack.
    if (!chunks_.empty()) Trim(&chunks_.front());
    chunks_.emplace_front();
    chunks_.front().plain = v.size() >= limits.plain_threshold;
  }
  Chunk& c = chunks_.front();
  assert(!c.compressed());  // Invariant: end chunks are raw.
  const size_t n = packed::EntrySize(v.size());
  if (c.aux < n) GrowLead(&c, n, limits);
  c.aux -= static_cast<uint32_t>(n);  // the lead
  (void)packed::Write(c.buf.data() + c.aux, v);
  c.count++;
  size_++;
  if (grow) SettleEnds();
}

void QuickList::PushBack(std::string_view v, const ListLimits& limits) {
  const bool grow = chunks_.empty() || !Fits(chunks_.back(), v.size(), limits);
  if (grow) {
    if (!chunks_.empty()) Trim(&chunks_.back());
    chunks_.emplace_back();
    chunks_.back().plain = v.size() >= limits.plain_threshold;
  }
  Chunk& c = chunks_.back();
  assert(!c.compressed());
  packed::Append(&c.buf, v);
  c.count++;
  size_++;
  if (grow) SettleEnds();
}

std::string QuickList::PopFront() {
  assert(size_ > 0);
  Chunk& c = chunks_.front();
  assert(!c.compressed());
  size_t next;
  std::string out(packed::At(c.entries(), 0, &next));
  c.aux += static_cast<uint32_t>(next);  // the popped bytes join the lead
  size_--;
  if (--c.count == 0) {
    chunks_.pop_front();
    SettleEnds();
  }
  return out;
}

std::string QuickList::PopBack() {
  assert(size_ > 0);
  Chunk& c = chunks_.back();
  assert(!c.compressed());
  size_t start;
  const std::string_view raw = c.entries();
  std::string out(packed::Before(raw, raw.size(), &start));
  c.buf.resize(c.lead() + start);
  size_--;
  if (--c.count == 0) {
    chunks_.pop_back();
    SettleEnds();
  }
  return out;
}

std::string QuickList::At(size_t index) const {
  size_t k;
  const size_t ci = Locate(index, &k);
  std::string scratch;
  const std::string_view raw = View(ci, &scratch);
  size_t next;
  return std::string(packed::At(raw, Offset(raw, chunks_[ci].count, k), &next));
}

bool QuickList::SplitIfOverfull(size_t ci, const ListLimits& limits) {
  Chunk& c = chunks_[ci];
  assert(!c.compressed());  // REQUIRES: opened by the caller
  if (c.count < 2 || Within(c.count, c.buf.size(), limits)) return false;
  // Split in two halves (Redis splits at the edit point; only the memory
  // layout differs).
  const size_t half = c.count / 2, cut = Offset(c.buf, c.count, half);
  Chunk tail;
  tail.buf = c.buf.substr(cut);
  tail.count = c.count - static_cast<uint32_t>(half);
  c.buf.resize(cut);
  c.buf.shrink_to_fit();
  c.count = static_cast<uint32_t>(half);
  chunks_.insert(chunks_.begin() + static_cast<std::ptrdiff_t>(ci) + 1, std::move(tail));
  Settle(ci);
  Settle(ci + 1);
  SettleEnds();
  return true;
}

void QuickList::Replace(size_t index, std::string_view v, const ListLimits& limits) {
  size_t k;
  const size_t ci = Locate(index, &k);
  std::string& buf = Open(ci);
  const size_t off = Offset(buf, chunks_[ci].count, k);
  size_t next;
  (void)packed::At(buf, off, &next);
  const size_t n = packed::EntrySize(v.size());
  if (next - off != n) buf.replace(off, next - off, n, '\0');
  (void)packed::Write(buf.data() + off, v);
  // A plain chunk's one element is replaced in place; it stays plain only
  // while the element is plain-sized.
  if (chunks_[ci].plain) chunks_[ci].plain = v.size() >= limits.plain_threshold;
  if (v.size() >= limits.plain_threshold) return IsolatePlain(ci, k, true);
  if (!SplitIfOverfull(ci, limits)) Settle(ci);
}

void QuickList::Insert(size_t index, std::string_view v, const ListLimits& limits) {
  assert(index <= size_);
  if (index == 0) return PushFront(v, limits);
  if (index == size_) return PushBack(v, limits);
  size_t k;
  size_t ci = Locate(index, &k);
  if (chunks_[ci].plain) {
    // Element `index` is a plain chunk's: insert before it, at the end of
    // the previous chunk (index > 0, so there is one).
    ci--;
    k = chunks_[ci].count;
  }
  std::string& buf = Open(ci);
  Chunk& c = chunks_[ci];
  packed::Insert(&buf, Offset(buf, c.count, k), v);
  c.count++;
  size_++;
  const bool plain = v.size() >= limits.plain_threshold;
  if (plain || c.plain) return IsolatePlain(ci, k, plain);
  if (!SplitIfOverfull(ci, limits)) Settle(ci);
}

void QuickList::IsolatePlain(size_t ci, size_t k, bool plain) {
  Chunk& c = chunks_[ci];
  assert(!c.compressed());  // REQUIRES: opened by the caller
  const bool was_plain = c.plain;
  // Cut at the element's bounds: [0, k) stays, [k] and (k, count) follow.
  const size_t from = Offset(c.buf, c.count, k), to = Offset(c.buf, c.count, k + 1);
  std::vector<Chunk> pieces;
  if (k > 0) {
    Chunk head;
    head.buf = c.buf.substr(0, from);
    head.count = static_cast<uint32_t>(k);
    head.plain = was_plain && k == 1;  // a plain element the insert went after
    pieces.push_back(std::move(head));
  }
  Chunk mid;
  mid.buf = c.buf.substr(from, to - from);
  mid.count = 1;
  mid.plain = plain;
  pieces.push_back(std::move(mid));
  if (k + 1 < c.count) {
    Chunk tail;
    tail.buf = c.buf.substr(to);
    tail.count = c.count - static_cast<uint32_t>(k) - 1;
    pieces.push_back(std::move(tail));
  }
  chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(ci));
  chunks_.insert(chunks_.begin() + static_cast<std::ptrdiff_t>(ci),
                 std::make_move_iterator(pieces.begin()), std::make_move_iterator(pieces.end()));
  for (size_t i = 0; i < pieces.size(); i++) Settle(ci + i);
  SettleEnds();
}

void QuickList::Erase(size_t index, size_t count) {
  assert(index + count <= size_);
  if (count == 0) return;
  size_t k;
  size_t ci = Locate(index, &k);
  // Chunks edited in part: at most the first and the last of the range,
  // and no chunk before them is removed, so their indexes hold.
  size_t edited[2];
  size_t n_edited = 0;
  bool removed_chunk = false;
  while (count > 0) {
    const size_t n = std::min<size_t>(count, chunks_[ci].count - k);
    if (n == chunks_[ci].count) {
      chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(ci));
      removed_chunk = true;
    } else {
      std::string& buf = Open(ci);
      Chunk& c = chunks_[ci];
      const size_t from = Offset(buf, c.count, k);
      size_t to = from;
      for (size_t j = 0; j < n; j++) (void)packed::At(buf, to, &to);
      buf.erase(from, to - from);
      c.count -= static_cast<uint32_t>(n);
      assert(n_edited < 2);
      edited[n_edited++] = ci++;
    }
    k = 0;
    size_ -= n;
    count -= n;
  }
  for (size_t i = 0; i < n_edited; i++) Settle(edited[i]);
  if (removed_chunk) SettleEnds();
}

size_t QuickList::RemoveIf(Predicate match, uint64_t limit, bool from_tail) {
  size_t removed = 0;
  bool emptied = false;
  std::string scratch;
  std::vector<size_t> offs;  // entry boundaries of the chunk at hand
  std::vector<bool> drop;
  for (size_t step = 0; step < chunks_.size() && removed < limit; step++) {
    const size_t ci = from_tail ? chunks_.size() - 1 - step : step;
    Chunk& c = chunks_[ci];
    const std::string_view raw = View(ci, &scratch);
    offs.assign(1, 0);
    for (size_t off = 0; off < raw.size();) {
      (void)packed::At(raw, off, &off);
      offs.push_back(off);
    }
    drop.assign(c.count, false);
    size_t hits = 0;
    for (size_t j = 0; j < c.count && removed + hits < limit; j++) {
      const size_t e = from_tail ? c.count - 1 - j : j;
      size_t next;
      if (match(packed::At(raw, offs[e], &next))) {
        drop[e] = true;
        hits++;
      }
    }
    if (hits == 0) continue;
    std::string kept;
    kept.reserve(raw.size());
    for (size_t e = 0; e < c.count; e++) {
      if (!drop[e]) kept.append(raw.substr(offs[e], offs[e + 1] - offs[e]));
    }
    c.buf = std::move(kept);
    c.lzf = 0;
    c.aux = 0;
    c.count -= static_cast<uint32_t>(hits);
    size_ -= hits;
    removed += hits;
    if (c.count == 0) {
      emptied = true;  // dropped below, once
    } else {
      Settle(ci);
    }
  }
  if (emptied) {
    std::erase_if(chunks_, [](const Chunk& c) { return c.count == 0; });
    SettleEnds();
  }
  return removed;
}

void QuickList::ForEach(size_t first, size_t count, bool reverse, Visitor fn) const {
  assert(first + count <= size_);
  if (count == 0) return;
  std::string scratch;
  size_t k;
  if (!reverse) {
    size_t ci = Locate(first, &k);
    std::string_view raw = View(ci, &scratch);
    size_t off = Offset(raw, chunks_[ci].count, k);
    while (count > 0) {
      if (off >= raw.size()) {
        raw = View(++ci, &scratch);
        off = 0;
        continue;
      }
      fn(packed::At(raw, off, &off));
      count--;
    }
    return;
  }
  size_t ci = Locate(first + count - 1, &k);
  std::string_view raw = View(ci, &scratch);
  size_t end = Offset(raw, chunks_[ci].count, k + 1);
  while (count > 0) {
    if (end == 0) {
      raw = View(--ci, &scratch);
      end = raw.size();
      continue;
    }
    fn(packed::Before(raw, end, &end));
    count--;
  }
}

}  // namespace rankd
