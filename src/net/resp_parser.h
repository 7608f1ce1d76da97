// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// RespParser turns the bytes of a connection's read buffer into commands:
// RESP multibulk ("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n") and inline commands
// ("GET k\r\n", split as Redis's sdssplitargs, see net/split_args.h). It
// follows Redis 7.0's processMultibulkBuffer / processInlineBuffer to the
// byte, quirks included:
//   - a line is found by searching for '\r' ('\n' for inline) the way strchr
//     does, so a NUL byte before it hides it; the byte after a '\r' and the
//     two bytes after a bulk are skipped unchecked;
//   - "*0", "*-1" (any count <= 0) and blank inline lines are skipped;
//   - a multibulk count above INT_MAX is invalid (7.0 has no 1M-element cap;
//     argument memory is bounded by the query buffer limit instead);
//   - the "too big ..." errors fire when more than max_inline_len bytes are
//     buffered and the line end is not among them. As in Redis this depends
//     on how the bytes arrived: a line longer than max_inline_len that
//     arrives whole is accepted.
// It is incremental: a command that arrived in part is resumed where it
// stopped, so a 500 MB bulk string is neither rescanned nor copied.
//
// Errors are Redis's, without the "ERR " prefix the caller adds, e.g.
//   "Protocol error: invalid multibulk length"
//   "Protocol error: expected '$', got 'x'"
//   "Protocol error: invalid bulk length"
//   "Protocol error: unbalanced quotes in request"
//   "Protocol error: too big inline request"
//   "Protocol error: too big mbulk count string"
//   "Protocol error: too big bulk count string"
//   "Protocol error: unauthenticated multibulk length"  (Limits::unauthenticated)
//   "Protocol error: unauthenticated bulk length"
// After an error the parser keeps returning kError (the connection closes).

#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "net/resp_peek.h"
#include "net/split_args.h"

namespace rankd {

class RespParser {
 public:
  enum class Result { kCommand, kNeedMore, kError };

  struct Limits {
    int64_t max_bulk_len = 512LL * 1024 * 1024;  // proto-max-bulk-len
    int64_t max_multibulk_len = 2147483647;      // Redis 7.0: INT_MAX
    size_t max_inline_len = 64 * 1024;           // PROTO_INLINE_MAX_SIZE
    // Redis applies tighter limits before AUTH when requirepass is set:
    // more than 10 arguments or a bulk over 2048 bytes is a protocol error.
    bool unauthenticated = false;
  };

  RespParser() = default;
  RespParser(const RespParser&) = delete;
  RespParser& operator=(const RespParser&) = delete;

  // Parses from buf[*pos].
  // kCommand: `args` (cleared first) holds the command's arguments, never
  //   empty, and *pos is advanced past the command.
  // kNeedMore: *pos may advance past bytes that are fully consumed (skipped
  //   blank lines, "*0"); an incomplete command stays at buf[*pos..]. The
  //   parser remembers its progress relative to *pos, so on the next call
  //   the caller must pass the same bytes from *pos on with new bytes
  //   appended; it may move the buffer (compact it so *pos becomes 0).
  // kError: error() says why.
  // The views in `args` point into `buf` or into the parser's own storage
  // and are valid until the next call or until `buf` changes.
  // Cost: O(new bytes) per call, amortised; a bulk body is never scanned.
  Result Parse(std::string_view buf, size_t* pos, std::vector<std::string_view>* args,
               const Limits& limits);

  // Takes the command that PeekCommand (net/resp_peek.h) read at buf[*pos]
  // as Parse would return it, without reading it again (the pipeline
  // look-ahead has already read it): its arguments are p.args[0, p.argc),
  // and *pos moves past it. The peeked shape is a subset of what Parse's
  // one-pass path accepts, with the same result, so this is exact whenever
  // the parser is between commands and `limits` admit the command's
  // argument count and lengths. Returns false, changing nothing, otherwise
  // (and when `p` kept fewer arguments than the command has): then call
  // Parse. REQUIRES: `p` was peeked at buf[*pos] of the bytes Parse would
  // be given.
  bool TakePeeked(const PeekedCommand& p, const Limits& limits, size_t* pos);

  const std::string& error() const { return error_; }

  // For read sizing: when a bulk of at least 32 KB (Redis's
  // PROTO_MBULK_BIG_ARG) is being received, how many more bytes it needs
  // given `buffered` bytes at buf[*pos..]; 0 otherwise.
  size_t BigBulkBytesWanted(size_t buffered) const;

  // Bytes of line headers examined so far (a test hook showing that input is
  // not rescanned). Bulk bodies are not counted: they are never examined.
  uint64_t scanned_bytes() const { return scanned_bytes_; }

  // Memory held for the pending command's argument offsets, for limits.
  size_t pending_arg_bytes() const { return spans_.capacity() * sizeof(ArgSpan); }

  // Between commands, frees argument storage above `keep_args` slots that
  // an earlier command with many arguments left behind. No effect while a
  // command is half read.
  void TrimStorage(size_t keep_args) {
    if (multibulk_left_ != 0 || spans_.capacity() <= keep_args) return;
    std::vector<ArgSpan>().swap(spans_);
    std::string().swap(inline_);
  }

 private:
  Result ParseInline(std::string_view in, size_t* pos, std::vector<std::string_view>* args,
                     const Limits& limits);
  Result ParseMultibulk(std::string_view in, size_t* pos, std::vector<std::string_view>* args,
                        const Limits& limits);
  // The common case in one pass: a complete multibulk command with every
  // count written canonically and within the limits. Returns false for
  // anything else, with `args` cleared and the parser's state unchanged.
  bool ParseWholeMultibulk(std::string_view in, size_t* pos, std::vector<std::string_view>* args,
                           const Limits& limits);
  // Finds `delim` in in[line_start..], searching as strchr would (a NUL
  // first means never), resuming where the previous search stopped.
  // Returns the index in `in`, or npos.
  size_t FindLineEnd(std::string_view in, size_t line_start, char delim);
  Result Fail(std::string msg);

  // All offsets are relative to *pos, the start of the pending command.
  int64_t multibulk_left_ = 0;  // arguments still to read; 0: between commands
  int64_t bulk_len_ = -1;       // length of the bulk being read; -1: unknown
  size_t cursor_ = 0;           // next unparsed byte of the pending multibulk
  size_t scanned_ = 0;          // bytes of the current line already searched
  bool line_blocked_ = false;   // a NUL hides the current line's end
  uint64_t scanned_bytes_ = 0;
  std::vector<ArgSpan> spans_;  // multibulk: offsets in buf; inline: in inline_
  std::string inline_;
  std::string error_;
};

}  // namespace rankd
