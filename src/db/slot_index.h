// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SlotIndex: a database's keys grouped by cluster hash slot (base/key_slot.h),
// kept only in cluster mode (Database::EnableSlotIndex) so a standalone
// node pays nothing. It answers CLUSTER COUNTKEYSINSLOT in O(1) and
// GETKEYSINSLOT by visiting only that slot's keys, as Redis 7.0's
// slot-to-keys lists do.
//
// Memory: per slot, an open-addressing set of entry pointers, allocated when
// the slot gets its first key (a node serves a share of the slots); about
// 9-18 bytes per key by the set's load factor, no change to the entry.
//
// Entries are addressed by pointer: an entry is added when it enters the
// key table and removed before it leaves (Database keeps both in step), so
// no pointer here outlives its entry. Not thread-safe.

#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "base/key_slot.h"
#include "db/entry.h"

namespace rankd {

class SlotIndex {
 public:
  SlotIndex();
  ~SlotIndex();
  SlotIndex(const SlotIndex&) = delete;
  SlotIndex& operator=(const SlotIndex&) = delete;

  // REQUIRES: `e` is not indexed yet.
  void Add(const KeyEntry* e);
  // No-op when `e` is not indexed.
  void Remove(const KeyEntry* e);
  void Clear();

  // Keys in `slot`. O(1). REQUIRES: 0 <= slot < kClusterSlots.
  size_t Count(int slot) const { return counts_[slot]; }
  // Calls fn with up to `max` entries of `slot`, in no particular order.
  void ForSlot(int slot, size_t max, const std::function<void(const KeyEntry*)>& fn) const;

  // Bytes the index itself holds (MEMORY STATS, measurements).
  size_t AllocatedBytes() const;

 private:
  using Set = absl::flat_hash_set<const KeyEntry*>;
  std::vector<uint32_t> counts_;             // kClusterSlots
  std::vector<std::unique_ptr<Set>> sets_;   // kClusterSlots; null until first key
};

}  // namespace rankd
