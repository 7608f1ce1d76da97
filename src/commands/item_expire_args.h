// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The arguments Redis 7.4's per-item expiry shares between hash fields
// (HEXPIRE family, hash_expire.cc) and rankd's sorted-set members (ZEXPIRE
// family, zset_expire_family.cc): the time argument and NX | XX | GT | LT.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/numbers.h"
#include "server/keys_common.h"
#include "server/command.h"
#include "server/errors.h"

namespace rankd {

// Redis 7.4's bound on item deadlines (EB_EXPIRE_TIME_MAX): 2^48 - 1 ms.
inline constexpr int64_t kMaxItemDeadlineMs = (int64_t{1} << 48) - 1;

enum class ItemExpireCond { kNone, kNx, kXx, kGt, kLt };

// NX / XX / GT / LT (any case), else kNone (the argument is not a condition).
inline ItemExpireCond ParseItemExpireCond(std::string_view arg) {
  if (EqualsIgnoreCase(arg, "nx")) return ItemExpireCond::kNx;
  if (EqualsIgnoreCase(arg, "xx")) return ItemExpireCond::kXx;
  if (EqualsIgnoreCase(arg, "gt")) return ItemExpireCond::kGt;
  if (EqualsIgnoreCase(arg, "lt")) return ItemExpireCond::kLt;
  return ItemExpireCond::kNone;
}

// Whether an item whose deadline is `cur` (-1: none) may get `next`.
inline bool ItemExpireCondMet(ItemExpireCond c, int64_t cur, int64_t next) {
  switch (c) {
    case ItemExpireCond::kNone: return true;
    case ItemExpireCond::kNx: return cur < 0;
    case ItemExpireCond::kXx: return cur >= 0;
    case ItemExpireCond::kGt: return cur >= 0 && next > cur;
    case ItemExpireCond::kLt: return cur < 0 || next < cur;
  }
  return false;
}

// The absolute deadline (ms) of the time argument args[2], in seconds or
// milliseconds (`ms`), relative to `now_ms` or absolute; "" or the error.
inline std::string ParseItemDeadline(CommandContext& ctx, bool ms, bool absolute, int64_t now_ms,
                                     int64_t* out) {
  int64_t t;
  if (!ParseInt64(ctx.arg(2), &t)) return std::string(err::kNotInteger);
  if (t < 0) return "ERR invalid expire time, must be >= 0";
  if (!ms) {
    if (t > kMaxItemDeadlineMs / 1000) return InvalidExpireError(ctx);
    t *= 1000;
  }
  if (t > kMaxItemDeadlineMs) return InvalidExpireError(ctx);
  if (!absolute) t += now_ms;
  if (t > kMaxItemDeadlineMs) return InvalidExpireError(ctx);
  *out = t;
  return {};
}

}  // namespace rankd
