// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "core/stream_group.h"

namespace rankd {

std::string StreamId::ToString() const {
  return std::to_string(ms) + "-" + std::to_string(seq);
}

bool StreamId::Incr() {
  if (seq != UINT64_MAX) {
    seq++;
  } else if (ms != UINT64_MAX) {
    ms++;
    seq = 0;
  } else {
    return false;
  }
  return true;
}

bool StreamId::Decr() {
  if (seq != 0) {
    seq--;
  } else if (ms != 0) {
    ms--;
    seq = UINT64_MAX;
  } else {
    return false;
  }
  return true;
}

StreamConsumer* StreamGroup::GetOrCreateConsumer(std::string_view name, int64_t now_ms,
                                                 bool* created) {
  auto it = consumers.find(name);
  *created = it == consumers.end();
  if (*created) {
    it = consumers.emplace(std::string(name), StreamConsumer{}).first;
    it->second.name = std::string(name);
    it->second.seen_time_ms = now_ms;
  }
  return &it->second;
}

StreamConsumer* StreamGroup::FindConsumer(std::string_view name) {
  auto it = consumers.find(name);
  return it == consumers.end() ? nullptr : &it->second;
}

size_t StreamGroup::DeleteConsumer(std::string_view name) {
  auto it = consumers.find(name);
  if (it == consumers.end()) return 0;
  const size_t n = it->second.pending.size();
  for (StreamId id : it->second.pending) pel.erase(id);
  consumers.erase(it);
  return n;
}

bool StreamGroup::Ack(StreamId id) {
  auto it = pel.find(id);
  if (it == pel.end()) return false;
  it->second.consumer->pending.erase(id);
  pel.erase(it);
  return true;
}

StreamPending& StreamGroup::Assign(StreamId id, StreamConsumer* c) {
  StreamPending& p = pel[id];
  if (p.consumer && p.consumer != c) p.consumer->pending.erase(id);
  p.consumer = c;
  c->pending.insert(id);
  return p;
}

}  // namespace rankd
