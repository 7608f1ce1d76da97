// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/stream.h"

#include <cassert>

#include "core/stream_node.h"

namespace rankd {
using stream_node::Decode;
using stream_node::kDeleted;
using stream_node::PutVarint;

void Stream::Append(StreamId id, const Fields& fields, StreamNodeLimits limits) {
  assert(id > last_id_ && !fields.empty() && fields.size() % 2 == 0);
  size_t field_bytes = 0;
  for (std::string_view f : fields) field_bytes += f.size();
  const size_t max_bytes = limits.max_bytes == 0 || limits.max_bytes > (size_t{1} << 30)
                               ? size_t{1} << 30
                               : limits.max_bytes;
  Node* node = nullptr;
  StreamId master;
  if (!nodes_.empty()) {
    auto last = std::prev(nodes_.end());
    const Node& n = last->second;
    const size_t lp_bytes = n.lp_fixed + stream_node::LpInt(n.live) +
                            stream_node::LpInt(n.total - n.live);
    const bool full_bytes = lp_bytes + field_bytes >= max_bytes;
    const bool full_entries = limits.max_entries != 0 && n.total >= limits.max_entries;
    if (!full_bytes && !full_entries) {
      node = &last->second;
      master = last->first;
    }
  }
  const size_t pairs = fields.size() / 2;
  bool same = true;  // the master entry's field names (Redis's SAMEFIELDS)
  if (!node) {
    // The last node is closed for good: give back its growth slack.
    if (!nodes_.empty()) std::prev(nodes_.end())->second.bytes.shrink_to_fit();
    master = id;
    node = &nodes_[id];
    node->lp_fixed = 6 + 1 + stream_node::LpInt(static_cast<int64_t>(pairs)) + stream_node::LpInt(0);
    for (size_t i = 0; i < fields.size(); i += 2) node->lp_fixed += stream_node::LpStr(fields[i]);
  } else {
    Decode(master, node->bytes, [&](size_t, StreamId, bool, const Fields& m) {
      same = m.size() == fields.size();
      for (size_t i = 0; same && i < m.size(); i += 2) same = m[i] == fields[i];
      return false;
    });
  }
  // Redis's entry: flags, ms diff, seq diff, [count, fields and] values, lp-count.
  size_t lp = stream_node::LpInt(0) + stream_node::LpInt(static_cast<int64_t>(id.ms - master.ms)) +
              stream_node::LpInt(static_cast<int64_t>(id.seq - master.seq)) +
              stream_node::LpInt(static_cast<int64_t>(same ? pairs + 3 : 2 * pairs + 4));
  if (!same) lp += stream_node::LpInt(static_cast<int64_t>(pairs));
  for (size_t i = same ? 1 : 0; i < fields.size(); i += same ? 2 : 1) {
    lp += stream_node::LpStr(fields[i]);
  }
  node->lp_fixed += lp;
  std::string& b = node->bytes;
  const bool first = b.empty();
  b.push_back(static_cast<char>(same && !first ? stream_node::kSameFields : 0));
  const uint64_t dms = id.ms - master.ms;
  PutVarint(&b, dms);
  PutVarint(&b, dms == 0 ? id.seq - master.seq : id.seq);
  PutVarint(&b, same && !first ? pairs : fields.size());
  for (size_t i = same && !first ? 1 : 0; i < fields.size(); i += same && !first ? 2 : 1) {
    PutVarint(&b, fields[i].size());
    b.append(fields[i]);
  }
  node->live++;
  node->total++;
  length_++;
  entries_added_++;
  last_id_ = id;
  if (length_ == 1) first_id_ = id;
}

bool Stream::Delete(StreamId id) {
  auto it = nodes_.upper_bound(id);
  if (it == nodes_.begin()) return false;
  --it;
  size_t at = SIZE_MAX;
  Decode(it->first, it->second.bytes, [&](size_t off, StreamId eid, bool deleted, const Fields&) {
    if (eid < id) return true;
    if (eid == id && !deleted) at = off;
    return false;
  });
  if (at == SIZE_MAX) return false;
  Node& node = it->second;
  node.bytes[at] = static_cast<char>(node.bytes[at] | kDeleted);
  node.live--;
  length_--;
  if (node.live == 0) nodes_.erase(it);
  if (id > max_deleted_id_) max_deleted_id_ = id;
  if (length_ == 0) {
    first_id_ = {};
  } else if (id == first_id_) {
    RefreshFirstId();
  }
  return true;
}

size_t Stream::Range(StreamId lo, StreamId hi, bool rev, size_t count, const Visitor& f) const {
  if (lo > hi || nodes_.empty()) return 0;
  size_t seen = 0;
  bool stop = false;
  auto visit = [&](StreamId id, const Fields& fields) {
    if (id < lo || id > hi) return true;
    seen++;
    if (!f(id, fields) || (count != 0 && seen >= count)) stop = true;
    return !stop;
  };
  auto first = nodes_.upper_bound(lo);
  if (first != nodes_.begin()) --first;
  if (!rev) {
    for (auto it = first; it != nodes_.end() && !stop && it->first <= hi; ++it) {
      Decode(it->first, it->second.bytes, [&](size_t, StreamId id, bool del, const Fields& fl) {
        if (id > hi) {
          stop = true;
          return false;
        }
        return del ? true : visit(id, fl);
      });
    }
    return seen;
  }
  auto it = nodes_.upper_bound(hi);
  while (!stop && it != first) {
    --it;
    // Collect the node's live entries in range, then visit them backwards.
    std::vector<size_t> offs;
    Decode(it->first, it->second.bytes, [&](size_t off, StreamId id, bool del, const Fields&) {
      if (id > hi) return false;
      if (!del && id >= lo) offs.push_back(off);
      return true;
    });
    const std::string_view bytes = it->second.bytes;
    const std::vector<std::string_view> names = stream_node::FirstNames(bytes);
    for (size_t k = offs.size(); k-- > 0 && !stop;) {
      // Decode from the offset onwards, first entry only.
      auto one = [&](size_t, StreamId id, bool, const Fields& fl) {
        visit(id, fl);
        return false;
      };
      Decode(it->first, bytes.substr(offs[k]), one, &names);
    }
  }
  return seen;
}

bool Stream::Find(StreamId id, Fields* out) const {
  bool found = false;
  Range(id, id, false, 1, [&](StreamId, const Fields& fl) {
    found = true;
    if (out) *out = fl;
    return false;
  });
  return found;
}

bool Stream::FirstId(StreamId* id) const {
  bool found = false;
  Range({}, StreamId::Max(), false, 1, [&](StreamId e, const Fields&) {
    *id = e;
    found = true;
    return false;
  });
  return found;
}

bool Stream::LastEntryId(StreamId* id) const {
  bool found = false;
  Range({}, StreamId::Max(), true, 1, [&](StreamId e, const Fields&) {
    *id = e;
    found = true;
    return false;
  });
  return found;
}

void Stream::RefreshFirstId() {
  if (!FirstId(&first_id_)) first_id_ = {};
}

}  // namespace rankd
