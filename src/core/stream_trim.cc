// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Stream trimming, Redis 7.0's lag estimates, and the whole-stream helpers
// (memory, copy, invariants).

#include <cassert>

#include "core/stream.h"
#include "core/stream_node.h"

namespace rankd {

using stream_node::Decode;
using stream_node::kDeleted;

namespace {

// Shared walk of TrimMaxLen / TrimMinId. `done()` says the target is met;
// `node_goes(master, node_last_id, live)` whether a whole node may go;
// `entry_goes(id)` whether an entry inside the first kept node goes.
template <class Nodes, class Done, class NodeGoes, class EntryGoes>
int64_t TrimWalk(Nodes& nodes, uint64_t& length, bool approx, int64_t limit, Done done,
                 NodeGoes node_goes, EntryGoes entry_goes) {
  int64_t deleted = 0;
  while (!nodes.empty() && !done()) {
    auto it = nodes.begin();
    auto& node = it->second;
    if (limit != 0 && deleted + node.live > limit) break;
    StreamId last;
    Decode(it->first, node.bytes, [&](size_t, StreamId id, bool, const auto&) {
      last = id;
      return true;
    });
    if (node_goes(last, node.live)) {
      length -= node.live;
      deleted += node.live;
      nodes.erase(it);
      continue;
    }
    if (approx) break;
    // Flag entries of this node until the target is met.
    std::string& b = node.bytes;
    Decode(it->first, b, [&](size_t off, StreamId id, bool del, const auto&) {
      if (del) return true;
      if (!entry_goes(id)) return false;
      b[off] = static_cast<char>(b[off] | kDeleted);
      node.live--;
      length--;
      deleted++;
      return true;
    });
    assert(node.live > 0);  // else the whole node would have gone
    break;
  }
  return deleted;
}

}  // namespace

int64_t Stream::TrimMaxLen(uint64_t maxlen, bool approx, int64_t limit) {
  int64_t n = TrimWalk(
      nodes_, length_, approx, limit, [&] { return length_ <= maxlen; },
      [&](StreamId, uint32_t live) { return length_ - live >= maxlen; },
      [&](StreamId) { return length_ > maxlen; });
  RefreshFirstId();
  return n;
}

int64_t Stream::TrimMinId(StreamId minid, bool approx, int64_t limit) {
  int64_t n = TrimWalk(
      nodes_, length_, approx, limit, [] { return false; },
      [&](StreamId last, uint32_t) { return last < minid; },
      [&](StreamId id) { return id < minid; });
  RefreshFirstId();
  return n;
}

int64_t Stream::EstimateEntriesRead(StreamId id) const {
  if (entries_added_ == 0) return 0;
  if (length_ == 0 && id <= last_id_) return static_cast<int64_t>(entries_added_);
  if (id == last_id_) return static_cast<int64_t>(entries_added_);
  if (id > last_id_) return -1;
  if (max_deleted_id_.zero() || max_deleted_id_ < first_id_) {
    if (id < first_id_) return static_cast<int64_t>(entries_added_ - length_);
    if (id == first_id_) return static_cast<int64_t>(entries_added_ - length_ + 1);
  }
  return -1;
}

bool Stream::RangeHasTombstones(StreamId start) const {
  if (length_ == 0 || max_deleted_id_.zero()) return false;
  if (first_id_ > max_deleted_id_) return false;
  return start <= max_deleted_id_;
}

void Stream::ForEachRaw(const std::function<void(StreamId, uint32_t, uint32_t)>& node,
                        const std::function<void(StreamId, bool, const Fields&)>& entry) const {
  for (const auto& [master, n] : nodes_) {
    node(master, n.live, n.total - n.live);
    Decode(master, n.bytes, [&](size_t, StreamId id, bool del, const Fields& f) {
      entry(id, del, f);
      return true;
    });
  }
}

size_t Stream::MemoryUsage() const {
  size_t n = sizeof(Stream);
  for (const auto& [id, node] : nodes_) n += 64 + node.bytes.capacity();
  for (const auto& [name, g] : groups_) {
    n += 96 + name.size() + g.pel.size() * 80;
    for (const auto& [cname, c] : g.consumers) n += 96 + cname.size() + c.pending.size() * 48;
  }
  return n;
}

std::unique_ptr<Stream> Stream::Clone() const {
  auto s = std::make_unique<Stream>();
  s->nodes_ = nodes_;
  s->length_ = length_;
  s->last_id_ = last_id_;
  s->first_id_ = first_id_;
  s->max_deleted_id_ = max_deleted_id_;
  s->entries_added_ = entries_added_;
  for (const auto& [name, g] : groups_) {
    StreamGroup& ng = s->groups_[name];
    ng.last_id = g.last_id;
    ng.entries_read = g.entries_read;
    for (const auto& [cname, c] : g.consumers) {
      bool created;
      ng.GetOrCreateConsumer(cname, c.seen_time_ms, &created);
    }
    for (const auto& [id, p] : g.pel) {
      StreamPending& np = ng.Assign(id, ng.FindConsumer(p.consumer->name));
      np.delivery_time_ms = p.delivery_time_ms;
      np.delivery_count = p.delivery_count;
    }
  }
  return s;
}

bool Stream::CheckInvariants() const {
  uint64_t live_total = 0;
  StreamId prev;
  bool any = false;
  for (const auto& [master, node] : nodes_) {
    uint32_t live = 0, total = 0;
    bool ok = true, first = true;
    Decode(master, node.bytes, [&](size_t, StreamId id, bool del, const auto&) {
      if (first && id != master) ok = false;
      if (any && id <= prev) ok = false;
      first = false;
      any = true;
      prev = id;
      total++;
      if (!del) live++;
      return true;
    });
    if (!ok || live != node.live || total != node.total || live == 0) return false;
    live_total += live;
  }
  if (live_total != length_) return false;
  for (const auto& [name, g] : groups_) {
    for (const auto& [id, p] : g.pel) {
      if (!p.consumer || !p.consumer->pending.contains(id)) return false;
    }
  }
  return true;
}

}  // namespace rankd
