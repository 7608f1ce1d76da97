// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// PeekCommand reads a complete RESP multibulk command from a read buffer
// without the parser's state, to look ahead in a pipeline (group
// prefetching, issue 16): while one command runs, the next ones' keys and
// members are already known, so what they will touch can start loading.
// It accepts only the plain, well-formed shape ("*N\r\n" then N times
// "$len\r\n<bytes>\r\n", N and each len small and written canonically: no
// sign, no leading zero) and gives up on anything else. That shape is a
// subset of what RespParser's one-pass path accepts, so a peeked command is
// what the parser would read there; RespParser::TakePeeked (net/resp_parser.h)
// decides when the parser may take it as read instead of parsing it again.

#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace rankd {

struct PeekedCommand {
  static constexpr size_t kMaxArgs = 8;
  std::string_view args[kMaxArgs];  // the first min(argc, kMaxArgs) arguments
  size_t argc = 0;                  // arguments the command has
  size_t end = 0;                   // offset in the buffer just past it
  size_t size = 0;                  // its bytes (end minus where it starts)
  size_t max_len = 0;               // the length of its longest argument
};

// The limits of what PeekCommand accepts.
inline constexpr size_t kMaxPeekArgs = 1024;
inline constexpr size_t kMaxPeekBulk = 64 * 1024;

// Reads a count written canonically ("0", or a non-zero digit then
// digits, at most 18 in all, so it cannot overflow) and the "\r\n" after
// it, at *p (just past the '*' or '$'); the value must be at most `max`.
// On success moves *p past the "\r\n". False, changing nothing, for
// anything else (a sign, a leading zero, a NUL, a long or partial line):
// PeekCommand then gives up, and RespParser leaves the command to its
// stepwise path, which reports Redis's error. Pointers rather than
// string_view indexing: this runs for every pipelined command.
inline bool ReadCanonicalCount(const char** p, const char* end, uint64_t max, uint64_t* out) {
  const char* q = *p;
  const char* const digits_end = end - q > 18 ? q + 18 : end;
  if (q >= digits_end || static_cast<unsigned char>(*q - '0') > 9) return false;
  uint64_t v = static_cast<uint64_t>(*q++ - '0');
  if (v != 0) {
    while (q < digits_end && static_cast<unsigned char>(*q - '0') <= 9) {
      v = v * 10 + static_cast<uint64_t>(*q++ - '0');
    }
  }
  if (end - q < 2 || q[0] != '\r' || q[1] != '\n' || v > max) return false;
  *p = q + 2;
  *out = v;
  return true;
}

// Reads the command starting at data[pos]. False (out unspecified) when the
// bytes there are not a complete plain multibulk command of at most
// kMaxPeekArgs arguments of at most kMaxPeekBulk bytes each: an inline
// command, a partial one, a protocol error, "*0", a count with a leading
// zero. Never reads outside `data`.
bool PeekCommand(std::string_view data, size_t pos, PeekedCommand* out);

}  // namespace rankd
