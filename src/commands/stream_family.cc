// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The stream family (Redis 7.0 semantics) over core/stream.h: the family's
// one command table, and the commands on entries (XADD, XRANGE, XREVRANGE,
// XLEN, XDEL, XTRIM). Reads are in stream_read.cc, consumer groups in
// stream_group_cmds.cc and stream_claim.cc, XINFO in stream_info.cc.
//
// Effects: XADD with a generated id ("*", "<ms>-*") is logged with the id
// it made, and an approximate trim ("~") as the exact trim that happened
// ("=" with the resulting length or first id), as Redis rewrites them, so a
// replica or a replayed log ends in the same state.

#include <string>
#include <vector>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/families.h"
#include "commands/stream_common.h"
#include "commands/stream_handlers.h"
#include "commands/type_lookup.h"
#include "commands/zset_common.h"
#include "server/errors.h"
#include "server/notify.h"
#include "server/server.h"

namespace rankd {
namespace {

// The id XADD gives a new entry after `last`, or false (kAddTooSmall).
bool NextAddId(const StreamTrimArgs& a, StreamId last, StreamId* id) {
  if (a.id_given && a.seq_given) {
    *id = a.id;
  } else if (a.id_given) {  // <ms>-*
    if (last.ms == a.id.ms) {
      if (last.seq == UINT64_MAX) return false;
      *id = {last.ms, last.seq + 1};
    } else {
      *id = a.id;
    }
  } else {
    const uint64_t now = static_cast<uint64_t>(WallMs());
    *id = last;
    if (now > last.ms) {
      *id = {now, 0};
    } else if (!id->Incr()) {
      return false;
    }
  }
  return *id > last;
}

// XADD key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT count]] *|id field value ...
void XAdd(CommandContext& ctx) {
  StreamTrimArgs a;
  if (std::string e = ParseStreamTrimArgs(ctx, true, &a); !e.empty()) return ctx.reply.Error(e);
  const size_t fields_at = a.id_index + 1;
  if (fields_at >= ctx.argc() || (ctx.argc() - fields_at) % 2 != 0) {
    return ctx.reply.Error(WrongArityError("xadd"));
  }
  if (a.id_given && a.seq_given && a.id.zero()) return ctx.reply.Error(stream_err::kAddZero);
  bool wrong_type;
  Stream* s = FindStreamWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!s) {
    if (a.nomkstream) return ctx.reply.Null();
    s = StreamForWrite(ctx, ctx.arg(1), &wrong_type);
  }
  if (s->last_id() == StreamId::Max()) return ctx.reply.Error(stream_err::kExhausted);
  StreamId id;
  if (!NextAddId(a, s->last_id(), &id)) {
    if (s->size() == 0 && s->groups().empty() && s->entries_added() == 0) {
      ctx.db().Delete(ctx.arg(1));  // Redis would leave it empty; never observable here
    }
    return ctx.reply.Error(stream_err::kAddTooSmall);
  }
  Stream::Fields fields(ctx.args.begin() + fields_at, ctx.args.end());
  s->Append(id, fields, StreamLimits(ctx));
  ReplyStreamId(ctx.reply, id);
  KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyStream, "xadd");
  if (ApplyStreamTrim(*s, a) > 0) KeyEvent(ctx, ctx.db(), kNotifyStream, "xtrim", ctx.arg(1));
  const bool new_id = !a.id_given || !a.seq_given;
  if (new_id || a.approx) PropagateStreamWrite(ctx, a, *s, new_id ? &id : nullptr);
}

// XTRIM key MAXLEN|MINID [=|~] threshold [LIMIT count]
void XTrim(CommandContext& ctx) {
  StreamTrimArgs a;
  if (std::string e = ParseStreamTrimArgs(ctx, false, &a); !e.empty()) return ctx.reply.Error(e);
  bool wrong_type;
  Stream* s = FindStreamWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!s) return ctx.reply.Integer(0);
  const int64_t deleted = ApplyStreamTrim(*s, a);
  if (deleted > 0) {
    KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyStream, "xtrim");
    if (a.approx) PropagateStreamWrite(ctx, a, *s, nullptr);
  }
  ctx.reply.Integer(deleted);
}

// XLEN key
void XLen(CommandContext& ctx) {
  bool wrong_type;
  Stream* s = FindStreamRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ctx.reply.Integer(s ? static_cast<int64_t>(s->size()) : 0);
}

// XDEL key id [id ...]
void XDel(CommandContext& ctx) {
  bool wrong_type;
  Stream* s = FindStreamWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!s) return ctx.reply.Integer(0);
  std::vector<StreamId> ids(ctx.argc() - 2);
  for (size_t j = 2; j < ctx.argc(); j++) {
    if (!ParseStreamId(ctx.arg(j), &ids[j - 2], 0, true)) {
      return ctx.reply.Error(stream_err::kInvalidId);
    }
  }
  int64_t deleted = 0;
  for (StreamId id : ids) deleted += s->Delete(id) ? 1 : 0;
  if (deleted > 0) KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyStream, "xdel");
  ctx.reply.Integer(deleted);
}

// XRANGE key start end [COUNT n] / XREVRANGE key end start [COUNT n]
void RangeGeneric(CommandContext& ctx, bool rev) {
  std::string_view start_arg = ctx.arg(rev ? 3 : 2), end_arg = ctx.arg(rev ? 2 : 3);
  StreamId lo, hi;
  auto parse = [](std::string_view arg, StreamId* id, uint64_t missing, bool* ex) {
    *ex = arg.size() > 1 && arg[0] == '(';
    return *ex ? ParseStreamId(arg.substr(1), id, missing, true)
               : ParseStreamId(arg, id, missing, false);
  };
  bool ex;
  if (!parse(start_arg, &lo, 0, &ex)) return ctx.reply.Error(stream_err::kInvalidId);
  if (ex && !lo.Incr()) return ctx.reply.Error("ERR invalid start ID for the interval");
  if (!parse(end_arg, &hi, UINT64_MAX, &ex)) return ctx.reply.Error(stream_err::kInvalidId);
  if (ex && !hi.Decr()) return ctx.reply.Error("ERR invalid end ID for the interval");
  int64_t count = -1;
  for (size_t j = 4; j < ctx.argc(); j++) {
    if (EqualsIgnoreCase(ctx.arg(j), "count") && j + 1 < ctx.argc()) {
      if (!ParseInt64(ctx.arg(++j), &count)) return ctx.reply.Error(err::kNotInteger);
      if (count < 0) count = 0;
    } else {
      return ctx.reply.Error(err::kSyntax);
    }
  }
  bool wrong_type;
  Stream* s = FindStreamRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!s) return ctx.reply.EmptyArray();
  if (count == 0) return ctx.reply.NullArray();
  ReplyStreamRange(ctx.reply, *s, lo, hi, rev, count < 0 ? 0 : static_cast<size_t>(count));
}

void XRange(CommandContext& ctx) { RangeGeneric(ctx, false); }
void XRevRange(CommandContext& ctx) { RangeGeneric(ctx, true); }

constexpr CommandSpec kXGroupSubcommands[] = {
    {"create",          -5, kWrite | kDenyOom,   2, 2, 1, &XGroup},
    {"setid",           -5, kWrite,              2, 2, 1, &XGroup},
    {"destroy",         4,  kWrite,              2, 2, 1, &XGroup},
    {"createconsumer",  5,  kWrite | kDenyOom,   2, 2, 1, &XGroup},
    {"delconsumer",     5,  kWrite,              2, 2, 1, &XGroup},
    {"help",            2,  kLoading | kStale,   0, 0, 0, &XGroup},
};

constexpr CommandSpec kXInfoSubcommands[] = {
    {"stream",     -3, kReadOnly,           2, 2, 1, &XInfo},
    {"groups",     3,  kReadOnly,           2, 2, 1, &XInfo},
    {"consumers",  4,  kReadOnly,           2, 2, 1, &XInfo},
    {"help",       2,  kLoading | kStale,   0, 0, 0, &XInfo},
};

constexpr CommandSpec kStreamCommands[] = {
    // name         arity flags                                first last step handler
    {"xadd",        -5,   kWrite | kDenyOom | kFast,           1,    1,   1,   &XAdd},
    {"xrange",      -4,   kReadOnly,                           1,    1,   1,   &XRange},
    {"xrevrange",   -4,   kReadOnly,                           1,    1,   1,   &XRevRange},
    {"xlen",        2,    kReadOnly | kFast,                   1,    1,   1,   &XLen},
    {"xdel",        -3,   kWrite | kFast,                      1,    1,   1,   &XDel},
    {"xtrim",       -4,   kWrite,                              1,    1,   1,   &XTrim},
    {"xread",       -4,   kReadOnly | kBlocking,               0,    0,   0,   &XRead},
    {"xreadgroup",  -7,   kWrite | kBlocking,                  0,    0,   0,   &XReadGroup},
    {"xgroup",      -2,   0,                                   0,    0,   0,   &XGroup,
     kXGroupSubcommands},
    {"xack",        -4,   kWrite | kFast,                      1,    1,   1,   &XAck},
    {"xpending",    -3,   kReadOnly,                           1,    1,   1,   &XPending},
    {"xclaim",      -6,   kWrite | kFast,                      1,    1,   1,   &XClaim},
    {"xautoclaim",  -6,   kWrite | kFast,                      1,    1,   1,   &XAutoClaim},
    {"xsetid",      -3,   kWrite | kDenyOom | kFast,           1,    1,   1,   &XSetId},
    {"xinfo",       -2,   0,                                   0,    0,   0,   &XInfo,
     kXInfoSubcommands},
};

}  // namespace

std::span<const CommandSpec> StreamCommands() { return kStreamCommands; }

}  // namespace rankd
