// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Option grammar of SET and GETEX (Redis parseExtendedStringArgumentsOrReply
// and getExpireMillisecondsOrReply), kept apart from the handlers so the
// rules that decide which combinations are a syntax error read in one place:
//
//   SET   key value [NX | XX] [GET] [EX s | PX ms | EXAT s | PXAT ms | KEEPTTL]
//   GETEX key       [EX s | PX ms | EXAT s | PXAT ms | PERSIST]
//
// As in Redis 7.0, repeating the same expire option is allowed (the last one
// wins), NX and GET may be combined, and any other conflict is
// "ERR syntax error".

#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace rankd {

struct StringOptions {
  enum Flag : uint32_t {
    kNx = 1 << 0,
    kXx = 1 << 1,
    kGet = 1 << 2,
    kKeepTtl = 1 << 3,
    kPersist = 1 << 4,
    kEx = 1 << 5,
    kPx = 1 << 6,
    kExAt = 1 << 7,
    kPxAt = 1 << 8,
  };
  static constexpr uint32_t kAnyExpire = kEx | kPx | kExAt | kPxAt;

  uint32_t flags = 0;
  std::string_view expire;  // the argument of the expire option, if any

  bool has(Flag f) const { return (flags & f) != 0; }
  bool has_expire() const { return (flags & kAnyExpire) != 0; }
};

enum class StringCommand { kSet, kGetEx };

// Parses `args[first..]` as options of `command`. Returns false on a syntax
// error (reply err::kSyntax). `out->expire` views into `args`.
[[nodiscard]] bool ParseStringOptions(std::span<const std::string_view> args, size_t first,
                                      StringCommand command, StringOptions* out);

enum class ExpireParse { kOk, kNotInteger, kInvalid };

// Converts the expire argument of `opts` into a unix-ms deadline, `now_ms`
// being the current time: kNotInteger when it is not an integer, kInvalid
// ("ERR invalid expire time in '<cmd>' command") when <= 0 or when the
// result overflows. REQUIRES: opts.has_expire().
[[nodiscard]] ExpireParse ExpireDeadline(const StringOptions& opts, int64_t now_ms,
                                         int64_t* deadline_ms);

// The same conversion for SETEX/PSETEX style arguments: `arg` in seconds
// (`seconds` true) or milliseconds, relative to now_ms.
[[nodiscard]] ExpireParse RelativeDeadline(std::string_view arg, bool seconds, int64_t now_ms,
                                           int64_t* deadline_ms);

}  // namespace rankd
