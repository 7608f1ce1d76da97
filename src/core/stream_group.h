// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Stream ids and consumer groups (Redis 7.0's model). A group remembers the
// last id it delivered, how many entries it has read (-1: unknown, which
// XINFO shows as nil), its pending entries list (PEL: delivered, not yet
// acknowledged, each owned by one consumer) and its consumers. Each consumer
// keeps the ids of its own pending entries; the group's PEL is the owner of
// the delivery time and count. Maps are ordered so that replies come in id
// or name order, as Redis's radix trees give them.
//
// Invariant: an id is in a consumer's `pending` iff the group's PEL entry
// for it names that consumer.

#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace rankd {

struct StreamId {
  uint64_t ms = 0;
  uint64_t seq = 0;

  friend bool operator==(StreamId a, StreamId b) { return a.ms == b.ms && a.seq == b.seq; }
  friend bool operator<(StreamId a, StreamId b) {
    return a.ms != b.ms ? a.ms < b.ms : a.seq < b.seq;
  }
  friend bool operator>(StreamId a, StreamId b) { return b < a; }
  friend bool operator<=(StreamId a, StreamId b) { return !(b < a); }
  friend bool operator>=(StreamId a, StreamId b) { return !(a < b); }
  friend bool operator!=(StreamId a, StreamId b) { return !(a == b); }
  bool zero() const { return ms == 0 && seq == 0; }
  // "ms-seq".
  std::string ToString() const;
  static constexpr StreamId Max() { return {UINT64_MAX, UINT64_MAX}; }
  // The next / previous id; false at the ends.
  bool Incr();
  bool Decr();
};

struct StreamConsumer;

struct StreamPending {
  int64_t delivery_time_ms = 0;
  uint64_t delivery_count = 1;
  StreamConsumer* consumer = nullptr;  // owned by the group's consumer map
};

struct StreamConsumer {
  std::string name;
  int64_t seen_time_ms = 0;
  std::set<StreamId> pending;
};

struct StreamGroup {
  StreamId last_id;
  int64_t entries_read = -1;  // -1: unknown
  std::map<StreamId, StreamPending> pel;
  std::map<std::string, StreamConsumer, std::less<>> consumers;

  // The consumer `name`, created (seen now) when missing; *created tells.
  StreamConsumer* GetOrCreateConsumer(std::string_view name, int64_t now_ms, bool* created);
  StreamConsumer* FindConsumer(std::string_view name);
  // Deletes a consumer and its pending entries; returns how many it had.
  size_t DeleteConsumer(std::string_view name);
  // Acknowledges `id`; false when not pending.
  bool Ack(StreamId id);
  // Makes `id` pending for `c` (moving it from its old owner when pending).
  StreamPending& Assign(StreamId id, StreamConsumer* c);
};

using StreamGroups = std::map<std::string, StreamGroup, std::less<>>;

}  // namespace rankd
