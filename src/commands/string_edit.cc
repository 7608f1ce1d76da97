// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "commands/string_edit.h"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <string>

#include "base/numbers.h"
#include "server/errors.h"
#include "server/keys_common.h"
#include "server/notify.h"
#include "server/server.h"

namespace rankd {
namespace {

// The string entry of `key` for a write, nullptr when missing; replies
// WRONGTYPE and sets *failed when the key holds another type.
Database::Entry* WriteString(CommandContext& ctx, std::string_view key, bool* failed) {
  Database::Entry* e = LookupWrite(ctx, key);
  *failed = e && e->value.type() != ValueType::kString;
  if (*failed) ctx.reply.Error(err::kWrongType);
  return *failed ? nullptr : e;
}

// Stores `v` as the new value of `key`, keeping the deadline of `e` (the
// current entry, or nullptr to create the key).
void StoreKeepTtl(CommandContext& ctx, Database::Entry* e, std::string_view key, Value v,
                  std::string_view event) {
  if (e) {
    e->value = std::move(v);
  } else {
    ctx.db().Insert(key, std::move(v));
  }
  KeyChanged(ctx, ctx.db(), key, kNotifyString, event);
}

// Redis incrDecrCommand.
void IncrDecr(CommandContext& ctx, int64_t incr) {
  std::string_view key = ctx.arg(1);
  bool failed;
  Database::Entry* e = WriteString(ctx, key, &failed);
  if (failed) return;
  int64_t value = 0;
  if (e && !ParseInt64(e->value.str(), &value)) return ctx.reply.Error(err::kNotInteger);
  if ((incr < 0 && value < 0 && incr < LLONG_MIN - value) ||
      (incr > 0 && value > 0 && incr > LLONG_MAX - value)) {
    return ctx.reply.Error(err::kIncrOverflow);
  }
  value += incr;
  StoreKeepTtl(ctx, e, key, Value(FormatInt64(value)), "incrby");
  ctx.reply.Integer(value);
}

// Redis checkStringLength: may a string grow to `size` + `append` bytes?
bool CheckStringLength(CommandContext& ctx, int64_t size, int64_t append) {
  const int64_t max = ctx.server.config().proto_max_bulk_len;
  if (size > max || append > max - size) {
    ctx.reply.Error(err::kStringTooLong);
    return false;
  }
  return true;
}

}  // namespace

void Incr(CommandContext& ctx) { IncrDecr(ctx, 1); }
void Decr(CommandContext& ctx) { IncrDecr(ctx, -1); }

void IncrBy(CommandContext& ctx) {
  int64_t incr;
  if (!ParseInt64(ctx.arg(2), &incr)) return ctx.reply.Error(err::kNotInteger);
  IncrDecr(ctx, incr);
}

void DecrBy(CommandContext& ctx) {
  int64_t decr;
  if (!ParseInt64(ctx.arg(2), &decr)) return ctx.reply.Error(err::kNotInteger);
  if (decr == LLONG_MIN) return ctx.reply.Error("ERR decrement would overflow");
  IncrDecr(ctx, -decr);
}

void IncrByFloat(CommandContext& ctx) {
  std::string_view key = ctx.arg(1);
  bool failed;
  Database::Entry* e = WriteString(ctx, key, &failed);
  if (failed) return;
  long double value = 0, incr;
  if ((e && !ParseLongDouble(e->value.str(), &value)) ||
      !ParseLongDouble(ctx.arg(2), &incr)) {
    return ctx.reply.Error(err::kNotFloat);
  }
  value += incr;
  if (std::isnan(value) || std::isinf(value)) return ctx.reply.Error(err::kIncrFloatNaN);
  std::string s = FormatLongDouble(value);
  ctx.reply.Bulk(s);
  // Logged as the resulting value: float addition may not replay exactly.
  const std::string_view effect[] = {"SET", key, s, "KEEPTTL"};
  ctx.server.Propagate(ctx.client, effect);
  Value v(std::move(s));
  v.set_no_int(true);  // Redis stores the text as is: "embstr" even for "10"
  StoreKeepTtl(ctx, e, key, std::move(v), "incrbyfloat");
}

void Append(CommandContext& ctx) {
  std::string_view key = ctx.arg(1), suffix = ctx.arg(2);
  bool failed;
  Database::Entry* e = WriteString(ctx, key, &failed);
  if (failed) return;
  size_t len;
  if (!e) {
    // A new key gets the argument as SET would store it (int/embstr).
    ctx.db().Insert(key, Value(std::string(suffix)));
    len = suffix.size();
  } else {
    std::string& s = e->value.mutable_str();
    if (!CheckStringLength(ctx, static_cast<int64_t>(s.size()),
                           static_cast<int64_t>(suffix.size()))) {
      return;
    }
    s.append(suffix);
    e->value.set_raw(true);
    len = s.size();
  }
  KeyChanged(ctx, ctx.db(), key, kNotifyString, "append");
  ctx.reply.Integer(static_cast<int64_t>(len));
}

void StrLen(CommandContext& ctx) {
  bool wrong_type;
  Database::Entry* e = LookupString(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ctx.reply.Integer(e ? static_cast<int64_t>(e->value.str().size()) : 0);
}

// Redis getrangeCommand, including its index clamping.
void GetRange(CommandContext& ctx) {
  int64_t start, end;
  if (!ParseInt64(ctx.arg(2), &start) || !ParseInt64(ctx.arg(3), &end)) {
    return ctx.reply.Error(err::kNotInteger);
  }
  bool wrong_type;
  Database::Entry* e = LookupString(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!e) return ctx.reply.Bulk("");
  const std::string_view s = e->value.str();
  const int64_t len = static_cast<int64_t>(s.size());
  if (start < 0 && end < 0 && start > end) return ctx.reply.Bulk("");
  if (start < 0) start = len + start;
  if (end < 0) end = len + end;
  if (start < 0) start = 0;
  if (end < 0) end = 0;
  if (end >= len) end = len - 1;
  if (start > end || len == 0) return ctx.reply.Bulk("");
  ctx.reply.Bulk(std::string_view(s).substr(static_cast<size_t>(start),
                                            static_cast<size_t>(end - start + 1)));
}

// Redis setrangeCommand: zero-pads up to `offset`; an empty value changes
// nothing and replies the current length.
void SetRange(CommandContext& ctx) {
  std::string_view key = ctx.arg(1), value = ctx.arg(3);
  int64_t offset;
  if (!ParseInt64(ctx.arg(2), &offset)) return ctx.reply.Error(err::kNotInteger);
  if (offset < 0) return ctx.reply.Error("ERR offset is out of range");
  bool failed;
  Database::Entry* e = WriteString(ctx, key, &failed);
  if (failed) return;
  if (value.empty()) {
    return ctx.reply.Integer(e ? static_cast<int64_t>(e->value.str().size()) : 0);
  }
  if (!CheckStringLength(ctx, offset, static_cast<int64_t>(value.size()))) return;
  if (!e) e = ctx.db().Insert(key, Value(std::string()));
  std::string& s = e->value.mutable_str();
  const size_t end = static_cast<size_t>(offset) + value.size();
  if (s.size() < end) s.resize(end, '\0');
  memcpy(s.data() + offset, value.data(), value.size());
  e->value.set_raw(true);
  KeyChanged(ctx, ctx.db(), key, kNotifyString, "setrange");
  ctx.reply.Integer(static_cast<int64_t>(s.size()));
}

}  // namespace rankd
