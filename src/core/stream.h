// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Stream: an append-only log of entries (an id and field/value pairs) with
// Redis 7.0's bookkeeping (length, last id, first id, max deleted id,
// entries added) and its consumer groups (core/stream_group.h).
//
// Design. Entries live in packed nodes kept in a sorted map keyed by each
// node's first ("master") id: the idea of Redis's radix tree of listpacks.
// A node is one std::string of entries back to back:
//
//   entry := flags (1 byte: bit 0 deleted, bit 1 same fields as the first)
//            varint(ms - master.ms)
//            varint(seq)            ; seq - master.seq when ms equals master.ms
//            varint(2 * pairs)      ; same fields: varint(pairs), and below
//            { varint(len) bytes } * (2 * pairs)  ; values only (stream_node.h)
//
// Ids are delta-encoded against the master id, so a run of entries added in
// the same second costs a couple of bytes of id each. New entries go to the
// last node until it holds `node_max_entries` entries (deleted ones count,
// as in Redis) or until Redis's listpack for it (whose size each node keeps)
// plus the new entry's field and value bytes would reach `node_max_bytes`;
// 0 means no limit. Nodes therefore split exactly where Redis's do, which
// keeps approximate trims (whole nodes) identical. A deleted
// entry is only flagged (XDEL is O(1) past the lookup); a node whose every
// entry is deleted is dropped. Reverse walks decode a node's offsets first
// (a node is small).
//
// Invariants (CheckInvariants): node keys equal their first entry's id; ids
// strictly increase across the stream; size() equals the live entries; each
// node's live count matches its flags and is > 0.
//
// Not thread-safe; no I/O.

#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/stream_group.h"

namespace rankd {

struct StreamNodeLimits {
  size_t max_bytes = 4096;  // 0: unlimited
  size_t max_entries = 100;  // 0: unlimited
};

class Stream {
 public:
  Stream() = default;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // An entry as handed to callbacks: fields and values alternate. Views are
  // valid until the stream changes.
  using Fields = std::vector<std::string_view>;
  // Return false to stop the walk.
  using Visitor = std::function<bool(StreamId, const Fields&)>;

  // Appends an entry. REQUIRES: id > last_id(), fields.size() even and > 0.
  // Updates length, last id, first id (when it was empty) and entries added.
  void Append(StreamId id, const Fields& fields, StreamNodeLimits limits);

  // Marks the entry `id` deleted; false when absent. Updates length, first
  // id and max deleted id as XDEL does.
  bool Delete(StreamId id);

  // Visits live entries with lo <= id <= hi, ascending (or descending when
  // `rev`), at most `count` (0: all). Returns the number visited.
  size_t Range(StreamId lo, StreamId hi, bool rev, size_t count, const Visitor& f) const;

  // Whether a live entry `id` exists; its fields into *out when given.
  bool Find(StreamId id, Fields* out) const;

  // Trimming (XTRIM / XADD's MAXLEN / MINID) with Redis's node-wise rules:
  // whole nodes go first; `approx` stops at the first node that cannot go
  // whole; `limit` (0: none) bounds the entries removed. Returns entries
  // removed. Keeps first id up to date.
  int64_t TrimMaxLen(uint64_t maxlen, bool approx, int64_t limit);
  int64_t TrimMinId(StreamId minid, bool approx, int64_t limit);

  // The first / last live entry's id; false when empty.
  bool FirstId(StreamId* id) const;
  bool LastEntryId(StreamId* id) const;
  // The first entry's id counting deleted entries still held in the first
  // node (Redis streamGetEdgeID without skipping tombstones); Max() when
  // empty.
  StreamId FirstNodeId() const { return nodes_.empty() ? StreamId::Max() : nodes_.begin()->first; }

  uint64_t size() const { return length_; }
  StreamId last_id() const { return last_id_; }
  StreamId first_id() const { return first_id_; }
  StreamId max_deleted_id() const { return max_deleted_id_; }
  uint64_t entries_added() const { return entries_added_; }
  size_t node_count() const { return nodes_.size(); }
  void set_last_id(StreamId id) { last_id_ = id; }
  void set_max_deleted_id(StreamId id) { max_deleted_id_ = id; }
  void set_entries_added(uint64_t n) { entries_added_ = n; }
  void set_first_id(StreamId id) { first_id_ = id; }

  // Consumer groups by name (byte order, as Redis lists them).
  StreamGroups& groups() { return groups_; }
  const StreamGroups& groups() const { return groups_; }

  // Redis's lag helpers (7.0 streamEstimateDistanceFromFirstEverEntry and
  // streamRangeHasTombstones). -1 stands for "invalid".
  int64_t EstimateEntriesRead(StreamId id) const;
  bool RangeHasTombstones(StreamId start) const;

  // Walks every node in id order, tombstones included (Redis's persistence
  // format keeps node boundaries): node(master, live, deleted) once per
  // node, then entry(id, deleted, fields) for each of its entries.
  void ForEachRaw(const std::function<void(StreamId, uint32_t, uint32_t)>& node,
                  const std::function<void(StreamId, bool, const Fields&)>& entry) const;

  // Approximate bytes owned (MEMORY USAGE).
  size_t MemoryUsage() const;
  // Deep copy (COPY).
  std::unique_ptr<Stream> Clone() const;
  // Verifies the invariants above; false on the first violation.
  bool CheckInvariants() const;

 private:
  struct Node {
    std::string bytes;
    uint32_t live = 0;   // entries not deleted
    uint32_t total = 0;  // entries including deleted ones
    // Bytes of Redis's listpack for this node without its two counters
    // (stream_node.h): where Redis would close the node.
    size_t lp_fixed = 0;
  };
  using NodeMap = std::map<StreamId, Node>;

  // Sets first_id_ from the first live entry (0-0 when empty).
  void RefreshFirstId();

  NodeMap nodes_;
  uint64_t length_ = 0;
  StreamId last_id_;
  StreamId first_id_;
  StreamId max_deleted_id_;
  uint64_t entries_added_ = 0;
  StreamGroups groups_;
};

}  // namespace rankd
