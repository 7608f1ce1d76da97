// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// ScanTable: a chained hash table keyed by strings, with Redis's SCAN cursor.
//
// Why not absl::flat_hash_map: SCAN must return every key present for the
// whole iteration, even if the table grows or shrinks between calls. A
// power-of-two chained table visited in reverse-binary bucket order (Redis's
// dictScan) has that property: a bucket's elements after a resize land in
// buckets whose reversed-bit indices are adjacent, so no cursor skips them.
//
// Nodes are intrusive and heap-allocated once; the table owns them. Node
// must provide:
//   Node* next;               // chain link, managed here
//   uint64_t hash;            // optional: set by Insert; without it the
//                             // key is rehashed on resize (saves 8 bytes)
//   std::string_view key() const;
// Node addresses are stable for their lifetime (other indexes may point at
// them). Not thread-safe.

#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/hash/hash.h"
#include "base/prefetch.h"

namespace rankd {

// The shape of a chained table (DEBUG HTSTATS): its buckets, its elements,
// and chain_lengths[k] = the number of buckets holding k nodes.
struct ChainStats {
  size_t buckets = 0;
  size_t elements = 0;
  std::vector<size_t> chain_lengths;
};

template <class Node>
class ScanTable {
 public:
  ScanTable() : buckets_(kMinBuckets, nullptr) {}
  ~ScanTable() { Clear(); }
  ScanTable(const ScanTable&) = delete;
  ScanTable& operator=(const ScanTable&) = delete;
  ScanTable(ScanTable&& o) noexcept { *this = std::move(o); }
  ScanTable& operator=(ScanTable&& o) noexcept {
    Clear();
    buckets_.swap(o.buckets_);
    std::swap(size_, o.size_);
    return *this;
  }

  static uint64_t Hash(std::string_view key) { return absl::Hash<std::string_view>{}(key); }
  static constexpr bool kStoresHash = requires(Node* n) { n->hash; };

  size_t size() const { return size_; }
  size_t bucket_count() const { return buckets_.size(); }

  // The node with `key`, or nullptr. O(1) expected.
  Node* Find(std::string_view key) const {
    uint64_t h = Hash(key);
    for (Node* n = buckets_[h & mask()]; n; n = n->next) {
      if (Matches(n, h, key)) return n;
    }
    return nullptr;
  }

  // Group prefetching hints (issue 16), no effect on contents: start
  // loading `key`'s bucket slot; or, once that slot is cached, the first
  // node of its chain.
  void PrefetchBucket(std::string_view key) const {
    Prefetch(&buckets_[Hash(key) & mask()]);
  }
  void PrefetchChainHead(std::string_view key) const {
    if (const Node* head = buckets_[Hash(key) & mask()]) Prefetch(head);
  }

  // Takes ownership of `node`. REQUIRES: no node with the same key.
  void Insert(Node* node) {
    const uint64_t h = Hash(node->key());
    if constexpr (kStoresHash) node->hash = h;
    if (size_ + 1 > buckets_.size()) Resize(buckets_.size() * 2);
    Node*& head = buckets_[h & mask()];
    node->next = head;
    head = node;
    size_++;
  }

  // Unlinks and returns the node with `key` (the caller now owns it), or
  // nullptr if absent.
  Node* Remove(std::string_view key) {
    uint64_t h = Hash(key);
    for (Node** p = &buckets_[h & mask()]; *p; p = &(*p)->next) {
      Node* n = *p;
      if (Matches(n, h, key)) {
        *p = n->next;
        size_--;
        MaybeShrink();
        return n;
      }
    }
    return nullptr;
  }

  // Unlinks `node` (the caller now owns it): its bucket is found from its
  // stored hash (or its key), then the chain is walked by address, with no
  // key comparisons. REQUIRES: `node` is in this table.
  void RemoveNode(Node* node) {
    uint64_t h;
    if constexpr (kStoresHash) {
      h = node->hash;
    } else {
      h = Hash(node->key());
    }
    for (Node** p = &buckets_[h & mask()]; *p; p = &(*p)->next) {
      if (*p == node) {
        *p = node->next;
        size_--;
        MaybeShrink();
        return;
      }
    }
  }

  // Deletes every node.
  void Clear() {
    for (Node*& head : buckets_) {
      while (head) {
        Node* n = head;
        head = n->next;
        delete n;
      }
    }
    buckets_.assign(kMinBuckets, nullptr);
    size_ = 0;
  }

  // Visits every node (any order). `fn(Node*)` must not mutate the table.
  template <class Fn>
  void ForEach(Fn fn) const {
    for (Node* head : buckets_) {
      for (Node* n = head; n; n = n->next) fn(n);
    }
  }

  // The table's chain statistics. O(buckets + size).
  ChainStats Stats() const {
    ChainStats st{buckets_.size(), size_, {}};
    for (Node* head : buckets_) {
      size_t len = 0;
      for (Node* n = head; n; n = n->next) len++;
      if (len >= st.chain_lengths.size()) st.chain_lengths.resize(len + 1);
      st.chain_lengths[len]++;
    }
    return st;
  }

  // One SCAN step from `cursor` (0 starts): visits whole buckets until about
  // `count` nodes were seen, returns the next cursor (0: done). `fn(Node*)`
  // must not mutate the table.
  template <class Fn>
  uint64_t Scan(uint64_t cursor, size_t count, Fn fn) const {
    if (size_ == 0) return 0;
    const uint64_t m = mask();
    size_t seen = 0;
    // Bound empty-bucket probing as Redis does (10 x count).
    size_t probes = count * 10 + 10;
    do {
      for (Node* n = buckets_[cursor & m]; n; n = n->next, seen++) fn(n);
      // Increment the reversed cursor: set unmasked bits, reverse, +1, reverse.
      cursor |= ~m;
      cursor = Reverse(cursor);
      cursor++;
      cursor = Reverse(cursor);
    } while (cursor != 0 && seen < count && --probes > 0);
    return cursor;
  }

  // A node chosen roughly uniformly using the generator `rng` (called as
  // rng() -> uint64_t), or nullptr when empty.
  template <class Rng>
  Node* Random(Rng& rng) const {
    if (size_ == 0) return nullptr;
    Node* head = nullptr;
    while (!head) head = buckets_[rng() & mask()];
    size_t len = 0;
    for (Node* n = head; n; n = n->next) len++;
    size_t pick = rng() % len;
    while (pick--) head = head->next;
    return head;
  }

 private:
  static constexpr size_t kMinBuckets = 4;

  static uint64_t Reverse(uint64_t v) {
    v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
    v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
    v = ((v >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((v & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return __builtin_bswap64(v);
  }

  uint64_t mask() const { return buckets_.size() - 1; }

  static bool Matches(const Node* n, uint64_t h, std::string_view key) {
    if constexpr (kStoresHash) {
      return n->hash == h && n->key() == key;
    } else {
      return n->key() == key;
    }
  }
  static uint64_t HashOf(const Node* n) {
    if constexpr (kStoresHash) {
      return n->hash;
    } else {
      return Hash(n->key());
    }
  }

  void MaybeShrink() {
    if (buckets_.size() > kMinBuckets && size_ * 8 < buckets_.size()) {
      size_t n = kMinBuckets;
      while (n < size_) n *= 2;
      Resize(n);
    }
  }

  // Rehashes everything into `n` buckets. Invariant: n is a power of two.
  void Resize(size_t n) {
    std::vector<Node*> next(n, nullptr);
    for (Node* head : buckets_) {
      while (head) {
        Node* node = head;
        head = node->next;
        Node*& dst = next[HashOf(node) & (n - 1)];
        node->next = dst;
        dst = node;
      }
    }
    buckets_.swap(next);
  }

  std::vector<Node*> buckets_;
  size_t size_ = 0;
};

}  // namespace rankd
