// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// RespParser turns the bytes of a connection's read buffer into commands:
// RESP multibulk ("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n") and inline commands
// ("GET k\r\n", split as Redis's sdssplitargs, quotes and escapes included).
// It is incremental: a command that arrived in part is resumed where it
// stopped, so a 500 MB bulk string is not rescanned on every read.
//
// Errors are Redis's, without the "ERR " prefix the caller adds, e.g.
//   "Protocol error: invalid multibulk length"
//   "Protocol error: expected '$', got 'x'"
//   "Protocol error: invalid bulk length"
//   "Protocol error: unbalanced quotes in request"
//   "Protocol error: too big inline request"
//   "Protocol error: too big mbulk count string"
//   "Protocol error: too big bulk count string"
// After an error the parser must not be used again (the connection closes).

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankd {

class RespParser {
 public:
  enum class Result { kCommand, kNeedMore, kError };

  struct Limits {
    int64_t max_bulk_len = 512LL * 1024 * 1024;
    int64_t max_multibulk_len = 1024 * 1024;   // Redis: 1024*1024 elements
    size_t max_inline_len = 64 * 1024;          // PROTO_INLINE_MAX_SIZE
  };

  RespParser() = default;

  // Parses from buf[*pos]. On kCommand, `args` holds the command's arguments
  // (possibly empty for a blank inline line; the caller skips those) and
  // *pos is advanced past it. On kNeedMore, *pos may advance past consumed
  // bytes; the caller must keep buf[*pos..] and append new bytes after it
  // (it may move/compact the buffer between calls). On kError, error() says why.
  // The views in `args` point into `buf` or into the parser's own storage
  // and are valid until the next call or until `buf` changes.
  Result Parse(std::string_view buf, size_t* pos, std::vector<std::string_view>* args,
               const Limits& limits);

  const std::string& error() const { return error_; }

 private:
  // Implementation state, owned by resp_parser.cc. Keep it small: one
  // parser per connection.
  int64_t multibulk_left_ = 0;
  int64_t bulk_len_ = -1;
  std::vector<std::pair<size_t, size_t>> spans_;  // offsets of parsed args
  std::vector<std::string> inline_args_;
  std::string error_;
};

}  // namespace rankd
