// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The bitmap family: SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP here, BITFIELD
// and BITFIELD_RO in bitfield_cmd.cc, and the family's command table. A
// bitmap is a string (core/bitops.h does the bit work); the handlers follow
// Redis 7.0 bitops.c, including the order in which arguments, key and type
// are checked, so the first error reported is Redis's.

#include <string>
#include <vector>

#include "base/numbers.h"
#include "commands/bit_handlers.h"
#include "commands/families.h"
#include "core/bitops.h"
#include "server/errors.h"
#include "server/notify.h"
#include "server/keys_common.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr std::string_view kBitOffsetError = "ERR bit offset is not an integer or out of range";
constexpr std::string_view kBitValueError = "ERR bit is not an integer or out of range";

// Resolves BITCOUNT / BITPOS start and end (Redis's negative indexes and
// clamping, in bytes or bits) against a string of `len` bytes into an
// inclusive bit range. Returns false when the range is empty.
bool ResolveBitRange(int64_t start, int64_t end, bool in_bits, int64_t len, uint64_t* first,
                     uint64_t* last) {
  const int64_t total = in_bits ? len * 8 : len;
  if (start < 0) start += total;
  if (end < 0) end += total;
  if (start < 0) start = 0;
  if (end < 0) end = 0;
  if (end >= total) end = total - 1;
  if (start > end) return false;
  *first = static_cast<uint64_t>(in_bits ? start : start * 8);
  *last = static_cast<uint64_t>(in_bits ? end : end * 8 + 7);
  return true;
}

// Parses the optional BYTE | BIT unit. Replies a syntax error on anything else.
bool ParseUnitOrReply(CommandContext& ctx, std::string_view arg, bool* in_bits) {
  if (EqualsIgnoreCase(arg, "bit")) {
    *in_bits = true;
  } else if (EqualsIgnoreCase(arg, "byte")) {
    *in_bits = false;
  } else {
    ctx.reply.Error(err::kSyntax);
    return false;
  }
  return true;
}

void SetBitCmd(CommandContext& ctx) {
  uint64_t offset;
  if (!ParseBitOffsetOrReply(ctx, ctx.arg(2), 0, &offset)) return;
  int64_t on;
  if (!ParseInt64(ctx.arg(3), &on) || (on & ~int64_t{1})) return ctx.reply.Error(kBitValueError);
  bool grown;
  Database::Entry* e = StringForBitWrite(ctx, ctx.arg(1), offset, &grown);
  if (!e) return;
  const bool old = GetBit(e->value.str(), offset);
  if (grown || old != (on == 1)) {
    SetBit(&e->value.mutable_str(), offset, on == 1);
    KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyString, "setbit");
  }
  ctx.reply.Integer(old);
}

void GetBitCmd(CommandContext& ctx) {
  uint64_t offset;
  if (!ParseBitOffsetOrReply(ctx, ctx.arg(2), 0, &offset)) return;
  bool wrong_type;
  Database::Entry* e = LookupString(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ctx.reply.Integer(e ? GetBit(e->value.str(), offset) : 0);
}

// BITCOUNT key [start end [BYTE | BIT]]: a missing key counts 0 before any
// argument is looked at.
void BitCount(CommandContext& ctx) {
  bool wrong_type;
  Database::Entry* e = LookupString(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!e) return ctx.reply.Integer(0);
  const std::string_view s = e->value.str();
  const auto len = static_cast<int64_t>(s.size());
  int64_t start = 0, end = len - 1;
  bool in_bits = false;
  if (ctx.argc() == 4 || ctx.argc() == 5) {
    if (!ParseInt64(ctx.arg(2), &start) || !ParseInt64(ctx.arg(3), &end)) {
      return ctx.reply.Error(err::kNotInteger);
    }
    if (start < 0 && end < 0 && start > end) return ctx.reply.Integer(0);
    if (ctx.argc() == 5 && !ParseUnitOrReply(ctx, ctx.arg(4), &in_bits)) return;
  } else if (ctx.argc() != 2) {
    return ctx.reply.Error(err::kSyntax);
  }
  uint64_t first, last;
  if (!ResolveBitRange(start, end, in_bits, len, &first, &last)) return ctx.reply.Integer(0);
  ctx.reply.Integer(static_cast<int64_t>(CountBits(s, first, last)));
}

// BITPOS key bit [start [end [BYTE | BIT]]]. Without an explicit end the
// string reads as followed by zeros, so a search for 0 that finds none
// answers the first bit past the string.
void BitPos(CommandContext& ctx) {
  int64_t bit;
  if (!ParseInt64(ctx.arg(2), &bit)) return ctx.reply.Error(err::kNotInteger);
  if (bit != 0 && bit != 1) return ctx.reply.Error("ERR The bit argument must be 1 or 0.");
  bool wrong_type;
  Database::Entry* e = LookupString(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!e) return ctx.reply.Integer(bit ? -1 : 0);
  const std::string_view s = e->value.str();
  const auto len = static_cast<int64_t>(s.size());
  int64_t start = 0, end = len - 1;
  bool in_bits = false, end_given = false;
  const size_t argc = ctx.argc();
  if (argc >= 4 && argc <= 6) {
    if (!ParseInt64(ctx.arg(3), &start)) return ctx.reply.Error(err::kNotInteger);
    if (argc == 6 && !ParseUnitOrReply(ctx, ctx.arg(5), &in_bits)) return;
    if (argc >= 5) {
      if (!ParseInt64(ctx.arg(4), &end)) return ctx.reply.Error(err::kNotInteger);
      end_given = true;
    }
  } else if (argc != 3) {
    return ctx.reply.Error(err::kSyntax);
  }
  uint64_t first, last;
  if (!ResolveBitRange(start, end, in_bits, len, &first, &last)) return ctx.reply.Integer(-1);
  const int64_t pos = FindBit(s, bit == 1, first, last);
  if (pos >= 0 || bit == 1 || end_given) return ctx.reply.Integer(pos);
  // Redis scans whole bytes: without an end the answer is past the last one.
  ctx.reply.Integer(static_cast<int64_t>(((last >> 3) + 1) * 8));
}

// BITOP AND | OR | XOR | NOT destkey key [key ...]: missing keys read as
// empty strings; an empty result deletes destkey. Replies the length.
void BitOpCmd(CommandContext& ctx) {
  std::string_view op_name = ctx.arg(1);
  BitOpKind op;
  if (EqualsIgnoreCase(op_name, "and")) {
    op = BitOpKind::kAnd;
  } else if (EqualsIgnoreCase(op_name, "or")) {
    op = BitOpKind::kOr;
  } else if (EqualsIgnoreCase(op_name, "xor")) {
    op = BitOpKind::kXor;
  } else if (EqualsIgnoreCase(op_name, "not")) {
    op = BitOpKind::kNot;
  } else {
    return ctx.reply.Error(err::kSyntax);
  }
  if (op == BitOpKind::kNot && ctx.argc() != 4) {
    return ctx.reply.Error("ERR BITOP NOT must be called with a single source key.");
  }
  std::vector<std::string_view> srcs;
  for (size_t i = 3; i < ctx.argc(); i++) {
    bool wrong_type;
    Database::Entry* e = LookupString(ctx, ctx.arg(i), &wrong_type);
    if (wrong_type) return ctx.reply.Error(err::kWrongType);
    srcs.push_back(e ? std::string_view(e->value.str()) : std::string_view());
  }
  std::string result = BitOp(op, srcs);
  const auto len = static_cast<int64_t>(result.size());
  Database& db = ctx.db();
  std::string_view dest = ctx.arg(2);
  if (len > 0) {
    Value v(std::move(result));
    v.set_raw(true);
    db.Set(dest, std::move(v));
    KeyChanged(ctx, db, dest, kNotifyString, "set");
  } else if (db.Delete(dest)) {
    KeyChanged(ctx, db, dest, kNotifyGeneric, "del");
  }
  ctx.reply.Integer(len);
}

// Arity follows Redis: N = exactly N args (incl. name), -N = at least N.
constexpr CommandSpec kBitCommands[] = {
    // name          arity  flags                       first last step handler
    {"setbit",       4,     kWrite | kDenyOom,          1,    1,   1,   &SetBitCmd},
    {"getbit",       3,     kReadOnly | kFast,          1,    1,   1,   &GetBitCmd},
    {"bitcount",     -2,    kReadOnly,                  1,    1,   1,   &BitCount},
    {"bitpos",       -3,    kReadOnly,                  1,    1,   1,   &BitPos},
    {"bitop",        -4,    kWrite | kDenyOom,          2,    -1,  1,   &BitOpCmd},
    {"bitfield",     -2,    kWrite | kDenyOom,          1,    1,   1,   &BitField},
    {"bitfield_ro",  -2,    kReadOnly | kFast,          1,    1,   1,   &BitFieldRo},
};

}  // namespace

bool ParseBitOffsetOrReply(CommandContext& ctx, std::string_view arg, unsigned field_bits,
                           uint64_t* offset) {
  const bool hash_form = field_bits > 0 && arg.size() > 1 && arg[0] == '#';
  int64_t v;
  if (!ParseInt64(hash_form ? arg.substr(1) : arg, &v)) {
    ctx.reply.Error(kBitOffsetError);
    return false;
  }
  // Redis multiplies without an overflow check; keep its wrap-around.
  if (hash_form) v = static_cast<int64_t>(static_cast<uint64_t>(v) * field_bits);
  if (v < 0 || (v >> 3) >= ctx.server.config().proto_max_bulk_len) {
    ctx.reply.Error(kBitOffsetError);
    return false;
  }
  *offset = static_cast<uint64_t>(v);
  return true;
}

Database::Entry* StringForBitWrite(CommandContext& ctx, std::string_view key, uint64_t max_bit,
                                   bool* grown) {
  const size_t bytes = static_cast<size_t>(max_bit >> 3) + 1;
  Database::Entry* e = LookupWrite(ctx, key);
  if (e && e->value.type() != ValueType::kString) {
    ctx.reply.Error(err::kWrongType);
    return nullptr;
  }
  *grown = !e;
  if (!e) e = ctx.db().Insert(key, Value(std::string()));
  std::string& s = e->value.mutable_str();
  if (s.size() < bytes) {
    s.resize(bytes, '\0');
    *grown = true;
  }
  e->value.set_raw(true);
  return e;
}

std::span<const CommandSpec> BitCommands() { return kBitCommands; }

}  // namespace rankd
