// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The replication backlog: the last `size` bytes of the replication stream
// in a circular buffer, addressed by stream offset as Redis does (the first
// byte of the stream has offset 1). A replica that reconnects with
// PSYNC <replid> <offset> continues from here when `offset` is still held.
// Not thread-safe.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rankd {

class ReplBacklog {
 public:
  // Redis's CONFIG_REPL_BACKLOG_MIN_SIZE: smaller settings get this much.
  static constexpr int64_t kMinSize = 16 * 1024;

  // An empty backlog whose next byte will have offset `next_offset`.
  ReplBacklog(int64_t size, uint64_t next_offset);

  // Appends stream bytes; the oldest fall out past the size.
  void Append(std::string_view bytes);
  // Changes the size, keeping the newest bytes that fit.
  void Resize(int64_t size);
  // Forgets the history; the next byte will have offset `next_offset`.
  void Reset(uint64_t next_offset);

  int64_t size() const { return static_cast<int64_t>(buf_.size()); }
  // Bytes held, and the offset of the oldest (Redis's histlen and
  // repl_backlog_first_byte_offset).
  int64_t histlen() const { return static_cast<int64_t>(histlen_); }
  uint64_t first_offset() const { return next_offset_ - histlen_; }
  uint64_t next_offset() const { return next_offset_; }
  // Whether a replica whose next byte is `offset` can continue from here.
  bool Covers(uint64_t offset) const {
    return offset >= first_offset() && offset <= next_offset_;
  }
  // The bytes from `offset` (Covers(offset) must hold) to the end.
  std::string CopyFrom(uint64_t offset) const;

 private:
  std::string buf_;
  size_t head_ = 0;      // where the next byte goes
  size_t histlen_ = 0;   // bytes held, <= buf_.size()
  uint64_t next_offset_; // offset of the next byte appended
};

}  // namespace rankd
