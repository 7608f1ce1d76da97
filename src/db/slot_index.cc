// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "db/slot_index.h"

namespace rankd {

SlotIndex::SlotIndex() : counts_(kClusterSlots, 0), sets_(kClusterSlots) {}

SlotIndex::~SlotIndex() = default;

void SlotIndex::Add(const KeyEntry* e) {
  const int slot = KeySlot(e->key());
  std::unique_ptr<Set>& s = sets_[slot];
  if (!s) s = std::make_unique<Set>();
  if (s->insert(e).second) counts_[slot]++;
}

void SlotIndex::Remove(const KeyEntry* e) {
  const int slot = KeySlot(e->key());
  Set* s = sets_[slot].get();
  if (s == nullptr || s->erase(e) == 0) return;
  // An emptied slot gives its memory back: a slot migrated away stays empty.
  if (--counts_[slot] == 0) sets_[slot].reset();
}

void SlotIndex::Clear() {
  std::fill(counts_.begin(), counts_.end(), 0);
  for (auto& s : sets_) s.reset();
}

void SlotIndex::ForSlot(int slot, size_t max,
                        const std::function<void(const KeyEntry*)>& fn) const {
  const Set* s = sets_[slot].get();
  if (s == nullptr) return;
  for (const KeyEntry* e : *s) {
    if (max-- == 0) return;
    fn(e);
  }
}

size_t SlotIndex::AllocatedBytes() const {
  size_t bytes = counts_.capacity() * sizeof(uint32_t) + sets_.capacity() * sizeof(sets_[0]);
  for (const auto& s : sets_) {
    if (s) bytes += sizeof(Set) + s->capacity() * (sizeof(const KeyEntry*) + 1);
  }
  return bytes;
}

}  // namespace rankd
