// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/member_index.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/hash/hash.h"

namespace rankd {
namespace {

constexpr size_t kMinCapacity = 8;
constexpr uint8_t kMaxDist = 255;  // displacement <= 254
// Grow past 90% full by 1.25x (average load ~0.8: ~6.2 bytes per element;
// a rehash reads each member once, amortized ~4 reads per insert); shrink
// below 1/4 full to 1/2 full.
constexpr size_t kLoadNum = 9, kLoadDen = 10;
size_t Grown(size_t cap) { return std::max(kMinCapacity, cap + std::max<size_t>(cap / 4, 8)); }

size_t SlackFor(size_t cap) { return std::min<size_t>(kMaxDist - 1, std::max<size_t>(8, cap / 8)); }

}  // namespace

uint64_t MemberIndex::Hash(std::string_view member) {
  // absl's hash is seeded per process, so crafted members cannot be
  // precomputed to collide. Extra mixing spreads entropy into the top bits,
  // which pick the home slot.
  uint64_t h = absl::Hash<std::string_view>{}(member);
  h ^= h >> 31;
  h *= 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

MemberIndex::~MemberIndex() { std::free(slots_); }

void MemberIndex::Allocate(size_t cap) {
  cap_ = cap;
  total_ = cap + SlackFor(cap);
  // One block: handles first (4-byte aligned), then the dist bytes.
  char* mem = static_cast<char*>(std::calloc(total_, sizeof(Handle) + 1));
  if (mem == nullptr) std::abort();
  slots_ = reinterpret_cast<Handle*>(mem);
  dist_ = reinterpret_cast<uint8_t*>(mem + total_ * sizeof(Handle));
}

uint64_t MemberIndex::MinHashOfHome(size_t home) const {
  unsigned __int128 num = (static_cast<unsigned __int128>(home) << 64) + (cap_ - 1);
  return static_cast<uint64_t>(num / cap_);
}

MemberIndex::Handle MemberIndex::Find(std::string_view member, uint64_t hash) const {
  if (size_ == 0) return RecordArena::kNoHandle;
  const size_t home = Home(hash);
  for (size_t i = home; i < total_ && dist_[i] != 0; ++i) {
    size_t h = HomeAt(i);
    if (h < home) continue;
    if (h > home) break;
    if (arena_->Member(slots_[i]) == member) return slots_[i];
  }
  return RecordArena::kNoHandle;
}

bool MemberIndex::TryPlace(Handle h, uint64_t hash) {
  const size_t home = Home(hash);
  size_t i = home;
  while (i < total_ && dist_[i] != 0 && HomeAt(i) <= home) ++i;
  if (i >= total_ || i - home >= kMaxDist - 1) return false;
  size_t e = i;
  for (; e < total_ && dist_[e] != 0; ++e) {
    if (dist_[e] == kMaxDist) return false;  // cannot shift it further
  }
  if (e >= total_) return false;
  // Invariant: [i, e) are residents with home > `home`; shift them right.
  std::memmove(&slots_[i + 1], &slots_[i], (e - i) * sizeof(Handle));
  for (size_t k = e; k > i; --k) dist_[k] = dist_[k - 1] + 1;
  slots_[i] = h;
  dist_[i] = static_cast<uint8_t>(i - home + 1);
  return true;
}

void MemberIndex::Rehash(size_t new_cap) {
  Handle* old_slots = slots_;
  uint8_t* old_dist = dist_;
  const size_t old_total = total_;
  for (;;) {
    Allocate(std::max(new_cap, kMinCapacity));
    bool ok = true;
    constexpr size_t kAhead = 8;  // prefetch records: each read is a cache miss
    for (size_t i = 0; i < old_total && ok; ++i) {
      if (i + kAhead < old_total && old_dist[i + kAhead] != 0) arena_->Prefetch(old_slots[i + kAhead]);
      if (old_dist[i] == 0) continue;
      ok = TryPlace(old_slots[i], Hash(arena_->Member(old_slots[i])));
    }
    if (ok) break;
    std::free(slots_);
    if (new_cap > 64 * (size_ + 16)) {
      std::fprintf(stderr, "rankd: member index cannot place elements (hash flood?)\n");
      std::abort();  // CHECK
    }
    new_cap = new_cap * 2;
  }
  std::free(old_slots);
}

void MemberIndex::Reserve(size_t n) {
  size_t want = n * kLoadDen / kLoadNum + 1;
  if (want > cap_) Rehash(want);
}

void MemberIndex::Clear() {
  std::free(slots_);
  slots_ = nullptr;
  dist_ = nullptr;
  cap_ = total_ = size_ = 0;
}

void MemberIndex::Insert(Handle h, uint64_t hash) {
  if ((size_ + 1) * kLoadDen > cap_ * kLoadNum) Rehash(Grown(cap_));
  while (!TryPlace(h, hash)) Rehash(Grown(cap_));
  ++size_;
}

void MemberIndex::Erase(Handle h, uint64_t hash) {
  const size_t home = Home(hash);
  size_t i = home;
  for (;; ++i) {
    if (i >= total_ || dist_[i] == 0 || HomeAt(i) > home) std::abort();  // CHECK: absent
    if (slots_[i] == h) break;
  }
  // Backward-shift deletion keeps clusters contiguous and sorted.
  size_t j = i + 1;
  for (; j < total_ && dist_[j] > 1; ++j) {
    slots_[j - 1] = slots_[j];
    dist_[j - 1] = dist_[j] - 1;
  }
  dist_[j - 1] = 0;
  --size_;
  if (cap_ > kMinCapacity && size_ * 4 < cap_) Rehash(size_ * 2);
}

uint64_t MemberIndex::Scan(uint64_t cursor, size_t count, absl::FunctionRef<void(Handle)> fn) const {
  if (size_ == 0) return 0;
  count = std::max<size_t>(count, 1);
  const size_t first = Home(cursor);
  // After a resize the cursor may fall inside a home: filter that one home.
  const bool filter_first = cursor != MinHashOfHome(first);
  size_t i = first;
  while (i < total_ && dist_[i] != 0 && HomeAt(i) < first) ++i;
  size_t visited = 0;
  for (;;) {
    while (i < total_ && dist_[i] == 0) ++i;
    if (i >= total_) return 0;
    const size_t home = HomeAt(i);
    if (visited >= count) return MinHashOfHome(home);  // home > first, so nonzero
    for (; i < total_ && dist_[i] != 0 && HomeAt(i) == home; ++i) {
      if (home == first && filter_first && Hash(arena_->Member(slots_[i])) < cursor) continue;
      fn(slots_[i]);
      ++visited;
    }
  }
}

void MemberIndex::MapHandles(absl::FunctionRef<Handle(Handle)> fn) {
  for (size_t i = 0; i < total_; ++i) {
    if (dist_[i] != 0) slots_[i] = fn(slots_[i]);
  }
}

std::string MemberIndex::CheckInvariants() const {
  size_t n = 0, last_home = 0;
  for (size_t i = 0; i < total_; ++i) {
    if (dist_[i] == 0) continue;
    ++n;
    std::string_view m = arena_->Member(slots_[i]);
    uint64_t hash = Hash(m);
    if (HomeAt(i) != Home(hash)) return "index: element not at its home's probe position";
    if (HomeAt(i) < last_home) return "index: homes not ascending";
    if (i > 0 && dist_[i] > 1 && dist_[i - 1] == 0) return "index: cluster has a hole";
    last_home = HomeAt(i);
    if (Find(m, hash) != slots_[i]) return "index: element not found by its bytes";
  }
  if (n != size_) return "index: size mismatch";
  if (cap_ > 0 && size_ * kLoadDen > cap_ * kLoadNum) return "index: over max load";
  return "";
}

}  // namespace rankd
