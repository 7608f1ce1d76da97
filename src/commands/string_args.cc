// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "commands/string_args.h"

#include <climits>

#include "base/numbers.h"
#include "server/command.h"

namespace rankd {

bool ParseStringOptions(std::span<const std::string_view> args, size_t first,
                        StringCommand command, StringOptions* out) {
  using O = StringOptions;
  const bool set = command == StringCommand::kSet;
  uint32_t& f = out->flags;
  for (size_t i = first; i < args.size(); i++) {
    std::string_view opt = args[i];
    const bool has_next = i + 1 < args.size();
    // Each expire option excludes the others and KEEPTTL/PERSIST, but not
    // itself: "EX 1 EX 2" is accepted (Redis 7.0).
    auto expire_ok = [&](uint32_t self) {
      return has_next && !(f & (O::kKeepTtl | O::kPersist)) && !(f & (O::kAnyExpire & ~self));
    };
    if (EqualsIgnoreCase(opt, "nx") && set && !(f & O::kXx)) {
      f |= O::kNx;
    } else if (EqualsIgnoreCase(opt, "xx") && set && !(f & O::kNx)) {
      f |= O::kXx;
    } else if (EqualsIgnoreCase(opt, "get") && set) {
      f |= O::kGet;
    } else if (EqualsIgnoreCase(opt, "keepttl") && set && !(f & (O::kPersist | O::kAnyExpire))) {
      f |= O::kKeepTtl;
    } else if (EqualsIgnoreCase(opt, "persist") && !set &&
               !(f & (O::kKeepTtl | O::kAnyExpire))) {
      f |= O::kPersist;
    } else if (EqualsIgnoreCase(opt, "ex") && expire_ok(O::kEx)) {
      f |= O::kEx;
      out->expire = args[++i];
    } else if (EqualsIgnoreCase(opt, "px") && expire_ok(O::kPx)) {
      f |= O::kPx;
      out->expire = args[++i];
    } else if (EqualsIgnoreCase(opt, "exat") && expire_ok(O::kExAt)) {
      f |= O::kExAt;
      out->expire = args[++i];
    } else if (EqualsIgnoreCase(opt, "pxat") && expire_ok(O::kPxAt)) {
      f |= O::kPxAt;
      out->expire = args[++i];
    } else {
      return false;
    }
  }
  return true;
}

namespace {

// Redis getExpireMillisecondsOrReply with the unit and "relative" decided.
ExpireParse Deadline(std::string_view arg, bool seconds, bool relative, int64_t now_ms,
                     int64_t* deadline_ms) {
  int64_t v;
  if (!ParseInt64(arg, &v)) return ExpireParse::kNotInteger;
  if (v <= 0 || (seconds && v > LLONG_MAX / 1000)) return ExpireParse::kInvalid;
  if (seconds) v *= 1000;
  if (relative) {
    // Redis adds with wrap-around and then rejects a result <= 0.
    if (v > LLONG_MAX - now_ms) return ExpireParse::kInvalid;
    v += now_ms;
  }
  *deadline_ms = v;
  return ExpireParse::kOk;
}

}  // namespace

ExpireParse ExpireDeadline(const StringOptions& opts, int64_t now_ms, int64_t* deadline_ms) {
  using O = StringOptions;
  const bool seconds = opts.has(O::kEx) || opts.has(O::kExAt);
  const bool relative = opts.has(O::kEx) || opts.has(O::kPx);
  return Deadline(opts.expire, seconds, relative, now_ms, deadline_ms);
}

ExpireParse RelativeDeadline(std::string_view arg, bool seconds, int64_t now_ms,
                             int64_t* deadline_ms) {
  return Deadline(arg, seconds, true, now_ms, deadline_ms);
}

}  // namespace rankd
