// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// BITFIELD and BITFIELD_RO (Redis 7.0 bitfieldGeneric). Every operation is
// parsed before the key is touched; OVERFLOW applies to the operations after
// it. A command with any SET or INCRBY creates the key and grows it to the
// highest bit written, even when every write then fails with OVERFLOW FAIL
// (each of those replies null), as Redis does.

#include <cstring>
#include <string>
#include <vector>

#include "base/numbers.h"
#include "commands/bit_handlers.h"
#include "core/bitops.h"
#include "server/errors.h"
#include "server/notify.h"
#include "server/keys_common.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr std::string_view kTypeError =
    "ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but "
    "i64 is.";

enum class FieldOp { kGet, kSet, kIncrBy };

struct FieldCommand {
  FieldOp op;
  BitFieldType type;
  uint64_t offset;
  int64_t value;  // SET's value or INCRBY's increment
  BitFieldOverflow overflow;
};

// Redis getBitfieldTypeFromArgument: "i1".."i64" or "u1".."u63", lower case.
// Redis reads the argument as a C string, so it ends at a NUL byte.
bool ParseFieldTypeOrReply(CommandContext& ctx, std::string_view arg, BitFieldType* t) {
  arg = arg.substr(0, std::min(arg.size(), strnlen(arg.data(), arg.size())));
  int64_t bits;
  const bool ok = !arg.empty() && (arg[0] == 'i' || arg[0] == 'u') &&
                  ParseInt64(arg.substr(1), &bits) && bits >= 1 &&
                  bits <= (arg[0] == 'i' ? 64 : 63);
  if (!ok) {
    ctx.reply.Error(kTypeError);
    return false;
  }
  *t = BitFieldType{arg[0] == 'i', static_cast<unsigned>(bits)};
  return true;
}

// Parses args[2..] into `ops`. Returns false after replying an error.
bool ParseFieldCommands(CommandContext& ctx, std::vector<FieldCommand>* ops, bool* read_only,
                        uint64_t* highest_bit) {
  BitFieldOverflow overflow = BitFieldOverflow::kWrap;
  for (size_t j = 2; j < ctx.argc(); j++) {
    const size_t more = ctx.argc() - j - 1;
    std::string_view name = ctx.arg(j);
    FieldCommand c{};
    if (EqualsIgnoreCase(name, "get") && more >= 2) {
      c.op = FieldOp::kGet;
    } else if (EqualsIgnoreCase(name, "set") && more >= 3) {
      c.op = FieldOp::kSet;
    } else if (EqualsIgnoreCase(name, "incrby") && more >= 3) {
      c.op = FieldOp::kIncrBy;
    } else if (EqualsIgnoreCase(name, "overflow") && more >= 1) {
      std::string_view kind = ctx.arg(++j);
      if (EqualsIgnoreCase(kind, "wrap")) {
        overflow = BitFieldOverflow::kWrap;
      } else if (EqualsIgnoreCase(kind, "sat")) {
        overflow = BitFieldOverflow::kSat;
      } else if (EqualsIgnoreCase(kind, "fail")) {
        overflow = BitFieldOverflow::kFail;
      } else {
        ctx.reply.Error("ERR Invalid OVERFLOW type specified");
        return false;
      }
      continue;
    } else {
      ctx.reply.Error(err::kSyntax);
      return false;
    }
    if (!ParseFieldTypeOrReply(ctx, ctx.arg(j + 1), &c.type)) return false;
    if (!ParseBitOffsetOrReply(ctx, ctx.arg(j + 2), c.type.bits, &c.offset)) return false;
    if (c.op != FieldOp::kGet) {
      *read_only = false;
      *highest_bit = std::max(*highest_bit, c.offset + c.type.bits - 1);
      if (!ParseInt64(ctx.arg(j + 3), &c.value)) {
        ctx.reply.Error(err::kNotInteger);
        return false;
      }
    }
    c.overflow = overflow;
    ops->push_back(c);
    j += c.op == FieldOp::kGet ? 2 : 3;
  }
  return true;
}

void BitFieldGeneric(CommandContext& ctx, bool ro_command) {
  std::vector<FieldCommand> ops;
  bool read_only = true;
  uint64_t highest_bit = 0;
  if (!ParseFieldCommands(ctx, &ops, &read_only, &highest_bit)) return;
  std::string_view key = ctx.arg(1);
  Database::Entry* e;
  bool grown = false;
  if (read_only) {
    bool wrong_type;
    e = LookupString(ctx, key, &wrong_type);
    if (wrong_type) return ctx.reply.Error(err::kWrongType);
  } else {
    if (ro_command) return ctx.reply.Error("ERR BITFIELD_RO only supports the GET subcommand");
    e = StringForBitWrite(ctx, key, highest_bit, &grown);
    if (!e) return;
  }
  ctx.reply.ArrayHeader(ops.size());
  size_t changes = 0;
  for (const FieldCommand& c : ops) {
    if (c.op == FieldOp::kGet) {
      ctx.reply.Integer(e ? GetBitField(e->value.str(), c.offset, c.type) : 0);
      continue;
    }
    std::string& s = e->value.mutable_str();
    const int64_t old = GetBitField(s, c.offset, c.type);
    const bool incr = c.op == FieldOp::kIncrBy;
    int64_t next;
    if (BitFieldAdd(c.type, incr ? old : c.value, incr ? c.value : 0, c.overflow, &next)) {
      SetBitField(&s, c.offset, c.type, static_cast<uint64_t>(next));
      ctx.reply.Integer(incr ? next : old);
      changes += next != old;  // as Redis 7.0: rewriting a value is no change
    } else {  // OVERFLOW FAIL: nothing written
      ctx.reply.Null();
    }
  }
  if (changes || grown) KeyChanged(ctx, ctx.db(), key, kNotifyString, "setbit");
}

}  // namespace

void BitField(CommandContext& ctx) { BitFieldGeneric(ctx, false); }
void BitFieldRo(CommandContext& ctx) { BitFieldGeneric(ctx, true); }

}  // namespace rankd
