// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The byte codec of a stream node (layout in core/stream.h): varints and the
// entry walker. Internal to core/stream*.cc.

#pragma once

#include <cstdint>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/numbers.h"
#include "core/stream_group.h"

namespace rankd::stream_node {

constexpr uint8_t kDeleted = 1;     // flags bit of a deleted entry
constexpr uint8_t kSameFields = 2;  // flags bit: values only, names as the first entry's

inline void PutVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

inline uint64_t GetVarint(const char*& p) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t b = static_cast<uint8_t>(*p++);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (b < 0x80) return v;
  }
}

inline size_t VarintLen(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    n++;
  }
  return n;
}

// ---- Redis's listpack sizes (listpack.c), to close nodes where Redis does ----
// Redis closes a stream node when its listpack's bytes plus the new entry's
// field and value lengths reach stream-node-max-bytes; rankd's nodes are
// smaller, so they keep the size Redis's listpack would have, as Redis
// would encode it.

// The bytes of an element's back-length.
inline size_t LpBacklen(size_t entry) {
  return entry <= 127 ? 1 : entry < 16383 ? 2 : entry < 2097151 ? 3 : entry < 268435455 ? 4 : 5;
}
// Bytes of an integer element, back-length included.
inline size_t LpInt(int64_t v) {
  const size_t n = (v >= 0 && v <= 127)                ? 1
                   : (v >= -4096 && v <= 4095)          ? 2
                   : (v >= -32768 && v <= 32767)        ? 3
                   : (v >= -8388608 && v <= 8388607)    ? 4
                   : (v >= INT32_MIN && v <= INT32_MAX) ? 5
                                                        : 9;
  return n + LpBacklen(n);
}
// Bytes of a string element (an integer's canonical text is stored as one).
inline size_t LpStr(std::string_view s) {
  int64_t v;
  if (ParseInt64(s, &v)) return LpInt(v);
  const size_t n = s.size() < 64 ? 1 + s.size() : s.size() < 4096 ? 2 + s.size() : 5 + s.size();
  return n + LpBacklen(n);
}

// The field names of a node's first entry (what kSameFields refers to):
// `bytes` starts at that entry, which never has kSameFields.
inline std::vector<std::string_view> FirstNames(std::string_view bytes) {
  std::vector<std::string_view> names;
  const char* p = bytes.data() + 1;  // past the flags
  GetVarint(p);                      // ms delta
  GetVarint(p);                      // seq
  const uint64_t n = GetVarint(p);
  for (uint64_t i = 0; i < n; i++) {
    const uint64_t len = GetVarint(p);
    if (i % 2 == 0) names.emplace_back(p, len);
    p += len;
  }
  return names;
}

// Decodes the entries in `bytes` (of a node keyed `master`, starting at an
// entry boundary) into f(offset, id, deleted, fields); f returns false to
// stop. `fields` views point into `bytes` and are reused between calls.
// An entry flagged kSameFields stores values only: its field names are the
// node's first entry's, taken from `names` when `bytes` does not start at
// the node's first entry, else decoded from it when first needed (a walk
// that stops at the first entry, as Append's, allocates nothing).
template <class F>
void Decode(StreamId master, std::string_view bytes, F f,
            const std::vector<std::string_view>* names = nullptr) {
  thread_local std::vector<std::string_view> fields;
  std::vector<std::string_view> first_names;
  const char* p = bytes.data();
  const char* end = p + bytes.size();
  while (p < end) {
    const size_t offset = static_cast<size_t>(p - bytes.data());
    const uint8_t flags = static_cast<uint8_t>(*p++);
    if ((flags & kSameFields) && !names) {
      first_names = FirstNames(bytes);
      names = &first_names;
    }
    StreamId id;
    const uint64_t dms = GetVarint(p);
    id.ms = master.ms + dms;
    id.seq = GetVarint(p) + (dms == 0 ? master.seq : 0);
    const uint64_t n = GetVarint(p);
    fields.clear();
    for (uint64_t i = 0; i < n; i++) {
      if (flags & kSameFields) fields.push_back((*names)[i]);
      const uint64_t len = GetVarint(p);
      fields.emplace_back(p, len);
      p += len;
    }
    if (!f(offset, id, (flags & kDeleted) != 0, fields)) return;
  }
}

}  // namespace rankd::stream_node
