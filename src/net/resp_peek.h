// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// PeekCommand reads a complete RESP multibulk command from a read buffer
// without the parser's state, to look ahead in a pipeline (group
// prefetching, issue 16): while one command runs, the next ones' keys and
// members are already known, so what they will touch can start loading.
// It accepts only the plain, well-formed shape ("*N\r\n" then N times
// "$len\r\n<bytes>\r\n", N and each len small) and gives up on anything
// else; RespParser (net/resp_parser.h) stays the one authority on what a
// command is, and a peeked command is only ever a hint.

#pragma once

#include <cstddef>
#include <string_view>

namespace rankd {

struct PeekedCommand {
  static constexpr size_t kMaxArgs = 8;
  std::string_view args[kMaxArgs];  // the first min(argc, kMaxArgs) arguments
  size_t argc = 0;                  // arguments the command has
  size_t end = 0;                   // offset in the buffer just past it
};

// Reads the command starting at data[pos]. False (out unspecified) when the
// bytes there are not a complete plain multibulk command of at most 1,024
// arguments of at most 64 KiB each: an inline command, a partial one, a
// protocol error, "*0". Never reads outside `data`.
bool PeekCommand(std::string_view data, size_t pos, PeekedCommand* out);

}  // namespace rankd
