// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Packed entries: strings stored back to back in one buffer, readable in
// both directions. The compact encodings of hashes and lists (Redis's
// listpack role) are built from them.
//
//   entry  := head | bytes | tail
//   head   := len (1 byte, len < 0x80)  or  0x80 | len (fixed32 LE)
//   tail   := len (1 byte, len < 0x80)  or  len (fixed32 LE) | 0x80
//
// The tail mirrors the head so the entry before an offset can be found
// (RPOP, LINDEX -1). Overhead: 2 bytes per string under 128 bytes.

#pragma once

#include <cassert>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace rankd::packed {

constexpr size_t kShort = 0x80;

// Bytes an entry of `len` bytes takes.
inline size_t EntrySize(size_t len) { return len < kShort ? len + 2 : len + 10; }

// Writes the entry for `s` at `dst`, which has EntrySize(s.size()) bytes;
// returns that size.
inline size_t Write(char* dst, std::string_view s) {
  const uint32_t len = static_cast<uint32_t>(s.size());
  if (len < kShort) {
    dst[0] = static_cast<char>(len);
    if (len != 0) std::memcpy(dst + 1, s.data(), len);
    dst[len + 1] = static_cast<char>(len);
    return len + 2;
  }
  dst[0] = static_cast<char>(kShort);
  std::memcpy(dst + 1, &len, 4);  // little-endian hosts only (x86-64, arm64)
  std::memcpy(dst + 5, s.data(), len);
  std::memcpy(dst + 5 + len, &len, 4);
  dst[len + 9] = static_cast<char>(kShort);
  return len + 10;
}

// The encoded entry for `s`.
inline std::string Encode(std::string_view s) {
  std::string e(EntrySize(s.size()), '\0');
  (void)Write(e.data(), s);
  return e;
}

// Appends / inserts the entry for `s` without a temporary.
inline void Append(std::string* buf, std::string_view s) {
  const size_t at = buf->size();
  buf->resize(at + EntrySize(s.size()));
  (void)Write(buf->data() + at, s);
}
inline void Insert(std::string* buf, size_t off, std::string_view s) {
  const size_t n = EntrySize(s.size());
  buf->insert(off, n, '\0');
  (void)Write(buf->data() + off, s);
}

// The string of the entry at `off`; *next is the offset after it.
// REQUIRES: off starts an entry.
inline std::string_view At(std::string_view buf, size_t off, size_t* next) {
  const uint8_t b = static_cast<uint8_t>(buf[off]);
  uint32_t len = b;
  size_t head = 1, tail = 1;
  if (b == kShort) {
    std::memcpy(&len, buf.data() + off + 1, 4);
    head = tail = 5;
  }
  *next = off + head + len + tail;
  assert(*next <= buf.size());
  return buf.substr(off + head, len);
}

// The string of the entry that ends at `end`; *start is its offset.
// REQUIRES: end > 0 and ends an entry.
inline std::string_view Before(std::string_view buf, size_t end, size_t* start) {
  const uint8_t b = static_cast<uint8_t>(buf[end - 1]);
  uint32_t len = b;
  size_t head = 1, tail = 1;
  if (b == kShort) {
    std::memcpy(&len, buf.data() + end - 5, 4);
    head = tail = 5;
  }
  *start = end - tail - len - head;
  return buf.substr(*start + head, len);
}

}  // namespace rankd::packed
