// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for RespParser (and SplitArgs through inline commands).
// The first input bytes choose limits and a fragment-size seed; the rest is
// fed in random fragments to a buffer that is compacted into fresh memory
// now and then, as a connection does, so stale views show up under ASan.
// Checks: no crash, args are never empty and lie inside the buffer or the
// parser, and when no "too big" limit fired (those depend on how bytes
// arrive, as in Redis) the fragmented parse equals the whole-input parse.
//
// Build and run (CMake builds it too when the compiler is clang):
//   clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -Isrc \
//     fuzz/resp_parser_fuzz.cc src/net/resp_parser.cc src/net/split_args.cc \
//     src/base/numbers.cc -o /tmp/resp_parser_fuzz
//   mkdir -p /tmp/resp_corpus && /tmp/resp_parser_fuzz -max_total_time=60 \
//     -max_len=4096 /tmp/resp_corpus

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "net/resp_parser.h"

namespace {

using rankd::RespParser;

struct Outcome {
  std::vector<std::vector<std::string>> commands;
  std::string error;
  size_t leftover = 0;
};

Outcome Feed(std::string_view input, uint32_t seed, bool fragmented,
             const RespParser::Limits& limits) {
  RespParser parser;
  Outcome out;
  std::string buf;
  size_t pos = 0;
  std::vector<std::string_view> args;
  uint32_t rng = seed | 1;
  for (size_t off = 0; off < input.size();) {
    rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
    size_t n = fragmented ? 1 + rng % 64 : input.size();
    if (n > input.size() - off) n = input.size() - off;
    if (pos > 0 && (rng & 3) == 0) {
      buf = std::string(buf.substr(pos));  // move the pending bytes
      pos = 0;
    }
    buf.append(input.substr(off, n));
    off += n;
    for (;;) {
      RespParser::Result r = parser.Parse(buf, &pos, &args, limits);
      if (pos > buf.size()) abort();
      if (r == RespParser::Result::kError) {
        if (parser.error().empty()) abort();
        out.error = parser.error();
        return out;
      }
      if (r == RespParser::Result::kNeedMore) break;
      if (args.empty()) abort();
      auto& cmd = out.commands.emplace_back();
      for (std::string_view a : args) cmd.emplace_back(a);  // ASan checks the view
    }
  }
  out.leftover = buf.size() - pos;
  return out;
}

bool TooBig(const std::string& error) { return error.find("too big") != std::string::npos; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  RespParser::Limits limits;
  limits.max_bulk_len = data[0] % 2 ? 64 : 512LL * 1024 * 1024;
  limits.max_inline_len = data[1] % 2 ? 32 : 64 * 1024;
  limits.unauthenticated = data[1] & 2;
  const uint32_t seed = data[2] | (data[3] << 8);
  std::string_view input(reinterpret_cast<const char*>(data) + 4, size - 4);

  Outcome whole = Feed(input, seed, false, limits);
  Outcome pieces = Feed(input, seed, true, limits);
  if (TooBig(whole.error) || TooBig(pieces.error)) return 0;
  if (whole.commands != pieces.commands || whole.error != pieces.error ||
      whole.leftover != pieces.leftover) {
    abort();
  }
  return 0;
}
