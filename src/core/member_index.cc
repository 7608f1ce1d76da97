// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/member_index.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/bytes_hash.h"
#include "base/huge_pages.h"

namespace rankd {
namespace {

constexpr size_t kMinCapacity = 8;
constexpr uint8_t kMaxDist = 255;  // displacement <= 254
// Grow past 90% full by 1.25x (average load ~0.8: ~6.7 bytes per element;
// a rehash reads each member once, amortized ~4 reads per insert); shrink
// below 1/4 full to 1/2 full.
constexpr size_t kLoadNum = 9, kLoadDen = 10;
size_t Grown(size_t cap) { return std::max(kMinCapacity, cap + std::max<size_t>(cap / 4, 8)); }

size_t SlackFor(size_t cap) { return std::min<size_t>(kMaxDist - 1, std::max<size_t>(8, cap / 8)); }

}  // namespace

uint64_t MemberIndex::Hash(std::string_view member) {
  // Seeded per process, so crafted members cannot be precomputed to
  // collide; its top bits pick the home slot, its low bits the tag.
  return HashBytes(member);
}

MemberIndex::~MemberIndex() { FreeHuge(groups_, GroupBytes()); }

void MemberIndex::Allocate(size_t cap) {
  cap_ = cap;
  const size_t groups = (cap + SlackFor(cap) + kGroupSlots - 1) / kGroupSlots;
  total_ = groups * kGroupSlots;
  static_assert(alignof(Group) <= 64);
  groups_ = static_cast<Group*>(AllocHuge(groups * sizeof(Group)));
  std::memset(static_cast<void*>(groups_), 0, groups * sizeof(Group));
}

void MemberIndex::SetSlot(size_t i, Handle h, uint8_t dist, uint32_t tag) {
  Group& g = groups_[i / kGroupSlots];
  const size_t k = i % kGroupSlots;
  g.handles[k] = h;
  g.dist[k] = dist;
  g.tags = (g.tags & ~(3u << (2 * k))) | (tag << (2 * k));
}

void MemberIndex::MoveSlot(size_t from, size_t to, uint8_t dist) {
  const Group& g = groups_[from / kGroupSlots];
  const size_t k = from % kGroupSlots;
  SetSlot(to, g.handles[k], dist, (g.tags >> (2 * k)) & 3u);
}

uint64_t MemberIndex::MinHashOfHome(size_t home) const {
  unsigned __int128 num = (static_cast<unsigned __int128>(home) << 64) + (cap_ - 1);
  return static_cast<uint64_t>(num / cap_);
}

MemberIndex::Handle MemberIndex::Find(std::string_view member, uint64_t hash) const {
  if (size_ == 0) return RecordArena::kNoHandle;
  const size_t home = Home(hash);
  const uint32_t tag = TagOf(hash);
  const Group* g = &groups_[home / kGroupSlots];
  size_t k = home % kGroupSlots;
  for (size_t i = home; i < total_; ++i) {
    const uint8_t d = g->dist[k];
    if (d == 0) break;
    const size_t h = i - (d - 1);
    if (h > home) break;
    if (h == home && ((g->tags >> (2 * k)) & 3u) == tag && arena_->Member(g->handles[k]) == member) {
      return g->handles[k];
    }
    if (++k == kGroupSlots) k = 0, ++g;
  }
  return RecordArena::kNoHandle;
}

void MemberIndex::PrefetchCandidates(uint64_t hash, size_t member_len) const {
  // Find's walk without the byte comparisons: at most two candidates.
  if (size_ == 0) return;
  const size_t home = Home(hash);
  const uint32_t tag = TagOf(hash);
  const Group* g = &groups_[home / kGroupSlots];
  size_t k = home % kGroupSlots;
  int left = 2;
  for (size_t i = home; i < total_ && left > 0; ++i) {
    const uint8_t d = g->dist[k];
    if (d == 0) break;
    const size_t h = i - (d - 1);
    if (h > home) break;
    if (h == home && ((g->tags >> (2 * k)) & 3u) == tag) {
      arena_->PrefetchRecord(g->handles[k], member_len);
      --left;
    }
    if (++k == kGroupSlots) k = 0, ++g;
  }
}

bool MemberIndex::TryPlace(Handle h, uint64_t hash) {
  const size_t home = Home(hash);
  size_t i = home;
  while (i < total_ && Dist(i) != 0 && HomeAt(i) <= home) ++i;
  if (i >= total_ || i - home >= kMaxDist - 1) return false;
  size_t e = i;
  for (; e < total_ && Dist(e) != 0; ++e) {
    if (Dist(e) == kMaxDist) return false;  // cannot shift it further
  }
  if (e >= total_) return false;
  // Invariant: [i, e) are residents with home > `home`; shift them right.
  for (size_t k = e; k > i; --k) MoveSlot(k - 1, k, Dist(k - 1) + 1);
  SetSlot(i, h, static_cast<uint8_t>(i - home + 1), TagOf(hash));
  return true;
}

void MemberIndex::Rehash(size_t new_cap) {
  Group* old = groups_;
  const size_t old_groups = total_ / kGroupSlots;
  const size_t old_bytes = old_groups * sizeof(Group);
  for (;;) {
    Allocate(std::max(new_cap, kMinCapacity));
    bool ok = true;
    for (size_t g = 0; g < old_groups && ok; ++g) {
      // Prefetch the next group's records: each read is a cache miss.
      if (g + 1 < old_groups) {
        for (size_t k = 0; k < kGroupSlots; ++k) {
          if (old[g + 1].dist[k] != 0) arena_->Prefetch(old[g + 1].handles[k]);
        }
      }
      for (size_t k = 0; k < kGroupSlots && ok; ++k) {
        if (old[g].dist[k] == 0) continue;
        const Handle h = old[g].handles[k];
        ok = TryPlace(h, Hash(arena_->Member(h)));
      }
    }
    if (ok) {
      // Filled (memset and placed): huge pages from 2 MiB up, merged in the
      // background (base/huge_pages.h).
      AdviseHuge(groups_, GroupBytes());
      break;
    }
    FreeHuge(groups_, GroupBytes());
    if (new_cap > 64 * (size_ + 16)) {
      std::fprintf(stderr, "rankd: member index cannot place elements (hash flood?)\n");
      std::abort();  // CHECK
    }
    new_cap = new_cap * 2;
  }
  FreeHuge(old, old_bytes);
}

void MemberIndex::Reserve(size_t n) {
  size_t want = n * kLoadDen / kLoadNum + 1;
  if (want > cap_) Rehash(want);
}

void MemberIndex::Clear() {
  FreeHuge(groups_, GroupBytes());
  groups_ = nullptr;
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
    if (i >= total_ || Dist(i) == 0 || HomeAt(i) > home) std::abort();  // CHECK: absent
    if (HandleAt(i) == h) break;
  }
  // Backward-shift deletion keeps clusters contiguous and sorted.
  size_t j = i + 1;
  for (; j < total_ && Dist(j) > 1; ++j) MoveSlot(j, j - 1, Dist(j) - 1);
  SetSlot(j - 1, 0, 0, 0);
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
  while (i < total_ && Dist(i) != 0 && HomeAt(i) < first) ++i;
  size_t visited = 0;
  for (;;) {
    while (i < total_ && Dist(i) == 0) ++i;
    if (i >= total_) return 0;
    const size_t home = HomeAt(i);
    if (visited >= count) return MinHashOfHome(home);  // home > first, so nonzero
    for (; i < total_ && Dist(i) != 0 && HomeAt(i) == home; ++i) {
      if (home == first && filter_first && Hash(arena_->Member(HandleAt(i))) < cursor) continue;
      fn(HandleAt(i));
      ++visited;
    }
  }
}

void MemberIndex::MapHandles(absl::FunctionRef<Handle(Handle)> fn) {
  for (size_t g = 0; g < total_ / kGroupSlots; ++g) {
    for (size_t k = 0; k < kGroupSlots; ++k) {
      if (groups_[g].dist[k] != 0) groups_[g].handles[k] = fn(groups_[g].handles[k]);
    }
  }
}

std::string MemberIndex::CheckInvariants() const {
  size_t n = 0, last_home = 0;
  for (size_t i = 0; i < total_; ++i) {
    if (Dist(i) == 0) continue;
    ++n;
    std::string_view m = arena_->Member(HandleAt(i));
    uint64_t hash = Hash(m);
    if (HomeAt(i) != Home(hash)) return "index: element not at its home's probe position";
    if (((groups_[i / kGroupSlots].tags >> (2 * (i % kGroupSlots))) & 3u) != TagOf(hash)) {
      return "index: wrong hash tag";
    }
    if (HomeAt(i) < last_home) return "index: homes not ascending";
    if (i > 0 && Dist(i) > 1 && Dist(i - 1) == 0) return "index: cluster has a hole";
    last_home = HomeAt(i);
    if (Find(m, hash) != HandleAt(i)) return "index: element not found by its bytes";
  }
  if (n != size_) return "index: size mismatch";
  if (cap_ > 0 && size_ * kLoadDen > cap_ * kLoadNum) return "index: over max load";
  return "";
}

}  // namespace rankd
