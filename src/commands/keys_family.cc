// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Generic keyspace commands: DEL, UNLINK, EXISTS, TYPE, KEYS, SCAN, RANDOMKEY,
// RENAME, RENAMENX, COPY, MOVE, TOUCH, DBSIZE, FLUSHDB, FLUSHALL, SWAPDB.
// OBJECT and MEMORY live in keys_object.cc. Replies and errors follow Redis
// 7.0 (db.c) word for word.

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "base/glob.h"
#include "base/numbers.h"
#include "commands/families.h"
#include "commands/keys_object.h"
#include "server/errors.h"
#include "server/keys_common.h"
#include "server/notify.h"
#include "server/server.h"

namespace rankd {
namespace {

// DEL and UNLINK; lazily: large values are freed off the event loop.
void DeleteKeys(CommandContext& ctx, bool lazy) {
  Database& db = ctx.db();
  int64_t deleted = 0;
  for (size_t i = 1; i < ctx.argc(); i++) {
    if (lazy ? db.DeleteLazily(ctx.arg(i), ctx.server.lazy_free()) : db.DeleteSync(ctx.arg(i))) {
      KeyChanged(ctx, db, ctx.arg(i), kNotifyGeneric, "del");
      deleted++;
    }
  }
  ctx.reply.Integer(deleted);
}

void Del(CommandContext& ctx) { DeleteKeys(ctx, ctx.server.config().lazyfree_lazy_user_del); }
void Unlink(CommandContext& ctx) { DeleteKeys(ctx, true); }

// Counts a key once per mention, as Redis does.
void Exists(CommandContext& ctx) {
  int64_t n = 0;
  for (size_t i = 1; i < ctx.argc(); i++) {
    if (LookupRead(ctx, ctx.arg(i), /*touch=*/false)) n++;
  }
  ctx.reply.Integer(n);
}

void Touch(CommandContext& ctx) {
  int64_t n = 0;
  for (size_t i = 1; i < ctx.argc(); i++) {
    if (LookupRead(ctx, ctx.arg(i))) n++;
  }
  ctx.reply.Integer(n);
}

void Type(CommandContext& ctx) {
  Database::Entry* e = LookupRead(ctx, ctx.arg(1), /*touch=*/false);
  ctx.reply.SimpleString(e ? e->value.TypeName() : "none");
}

void Keys(CommandContext& ctx) {
  std::string_view pattern = ctx.arg(1);
  const bool all = pattern == "*";
  size_t token = ctx.reply.DeferArray();
  size_t n = 0;
  ctx.db().ForEach([&](Database::Entry* e) {
    if (all || GlobMatch(pattern, e->key())) {
      ctx.reply.Bulk(e->key());
      n++;
    }
  });
  ctx.reply.FinishArray(token, n);
}

// Redis parseScanCursorOrReply: strtoul in base 10, so "", "+1" and "-1"
// (wrapping) are accepted; leading space, trailing bytes and overflow are not.
bool ParseCursor(std::string_view arg, uint64_t* cursor) {
  std::string s(arg);
  if (!s.empty() && isspace(static_cast<unsigned char>(s[0]))) return false;
  if (s.find('\0') != std::string::npos) return false;
  char* end;
  errno = 0;
  *cursor = strtoul(s.c_str(), &end, 10);
  return *end == '\0' && errno != ERANGE;
}

void Scan(CommandContext& ctx) {
  uint64_t cursor;
  if (!ParseCursor(ctx.arg(1), &cursor)) return ctx.reply.Error("ERR invalid cursor");
  int64_t count = 10;
  std::string_view pattern;
  bool use_pattern = false;
  std::string_view type;
  bool use_type = false;
  for (size_t i = 2; i < ctx.argc(); i += 2) {
    const bool has_value = i + 1 < ctx.argc();
    if (EqualsIgnoreCase(ctx.arg(i), "count") && has_value) {
      if (!ParseInt64(ctx.arg(i + 1), &count)) return ctx.reply.Error(err::kNotInteger);
      if (count < 1) return ctx.reply.Error(err::kSyntax);
    } else if (EqualsIgnoreCase(ctx.arg(i), "match") && has_value) {
      pattern = ctx.arg(i + 1);
      use_pattern = pattern != "*";
    } else if (EqualsIgnoreCase(ctx.arg(i), "type") && has_value) {
      type = ctx.arg(i + 1);
      use_type = true;
    } else {
      return ctx.reply.Error(err::kSyntax);
    }
  }
  // Keys stay valid until the reply is written: Scan only deletes expired
  // keys, which it never hands to the callback.
  std::vector<std::string_view> keys;
  cursor = ctx.db().Scan(cursor, static_cast<size_t>(count), [&](Database::Entry* e) {
    if (use_pattern && !GlobMatch(pattern, e->key())) return;
    if (use_type && !EqualsIgnoreCase(type, e->value.TypeName())) return;
    keys.push_back(e->key());
  });
  ctx.reply.ArrayHeader(2);
  ctx.reply.Bulk(std::to_string(cursor));
  ctx.reply.ArrayHeader(keys.size());
  for (std::string_view k : keys) ctx.reply.Bulk(k);
}

void RandomKey(CommandContext& ctx) {
  Database::Entry* e = ctx.db().Random();
  if (!e) return ctx.reply.Null();
  ctx.reply.Bulk(e->key());
}

// Moves the entry of `key` in `from` to `new_key` in `to`, keeping its
// deadline. REQUIRES: `key` live in `from`, `new_key` absent in `to`.
void Relocate(Database& from, std::string_view key, Database& to, std::string_view new_key) {
  Database::Entry* e = from.Find(key, false);
  const int64_t expire_ms = from.ExpireMs(e);  // Detach forgets the deadline
  e = from.Detach(key);
  if (new_key != e->key()) e = Database::Entry::Rekey(e, new_key);
  to.Attach(e);
  if (expire_ms >= 0) to.SetExpire(e, expire_ms);
}

void RenameGeneric(CommandContext& ctx, bool nx) {
  std::string_view from = ctx.arg(1), to = ctx.arg(2);
  Database& db = ctx.db();
  if (!LookupWrite(ctx, from)) return ctx.reply.Error(err::kNoSuchKey);
  if (from == to) return nx ? ctx.reply.Integer(0) : ctx.reply.Ok();
  if (LookupWrite(ctx, to)) {
    if (nx) return ctx.reply.Integer(0);
    db.Delete(to);
  }
  Relocate(db, from, db, to);
  KeyChanged(ctx, db, from, kNotifyGeneric, "rename_from");
  KeyChanged(ctx, db, to, kNotifyGeneric, "rename_to");
  nx ? ctx.reply.Integer(1) : ctx.reply.Ok();
}

void Rename(CommandContext& ctx) { RenameGeneric(ctx, false); }
void RenameNx(CommandContext& ctx) { RenameGeneric(ctx, true); }

constexpr std::string_view kSameObject = "ERR source and destination objects are the same";

void Copy(CommandContext& ctx) {
  std::string_view key = ctx.arg(1), new_key = ctx.arg(2);
  Database& src = ctx.db();
  Database* dst = &src;
  std::optional<int> dst_index;  // DB option
  bool replace = false;
  for (size_t i = 3; i < ctx.argc(); i++) {
    if (EqualsIgnoreCase(ctx.arg(i), "replace")) {
      replace = true;
    } else if (EqualsIgnoreCase(ctx.arg(i), "db") && i + 1 < ctx.argc()) {
      int index;
      if (!ParseIntOrReply(ctx, ctx.arg(i + 1), &index)) return;
      // As Redis: an index out of range is refused as soon as it is read,
      // before a later bad option's syntax error.
      dst = DbByIndex(ctx, index);
      if (!dst) return ctx.reply.Error(err::kDbIndexOutOfRange);
      dst_index = index;
      i++;
    } else {
      return ctx.reply.Error(err::kSyntax);
    }
  }
  if (ctx.server.cluster() && dst_index.value_or(0) != 0) {
    return ctx.reply.Error("ERR Copying to another database is not allowed in cluster mode");
  }
  if (dst == &src && key == new_key) return ctx.reply.Error(kSameObject);
  Database::Entry* e = LookupRead(ctx, key);
  if (!e) return ctx.reply.Integer(0);
  Value copy = e->value.Clone();
  const int64_t expire_ms = src.ExpireMs(e);
  if (dst->Find(new_key)) {
    if (!replace) return ctx.reply.Integer(0);
    dst->Delete(new_key);
  }
  Database::Entry* ne = dst->Insert(new_key, std::move(copy));
  if (expire_ms >= 0) dst->SetExpire(ne, expire_ms);
  KeyChanged(ctx, *dst, new_key, kNotifyGeneric, "copy_to");
  ctx.reply.Integer(1);
}

void Move(CommandContext& ctx) {
  if (ctx.server.cluster()) return ctx.reply.Error("ERR MOVE is not allowed in cluster mode");
  std::string_view key = ctx.arg(1);
  int index;
  if (!ParseIntOrReply(ctx, ctx.arg(2), &index)) return;
  Database* dst = DbByIndex(ctx, index);
  if (!dst) return ctx.reply.Error(err::kDbIndexOutOfRange);
  Database& src = ctx.db();
  if (dst == &src) return ctx.reply.Error(kSameObject);
  if (!LookupWrite(ctx, key)) return ctx.reply.Integer(0);
  if (dst->Find(key)) return ctx.reply.Integer(0);
  Relocate(src, key, *dst, key);
  KeyChanged(ctx, src, key, kNotifyGeneric, "move_from");
  KeyChanged(ctx, *dst, key, kNotifyGeneric, "move_to");
  ctx.reply.Integer(1);
}

void DbSize(CommandContext& ctx) { ctx.reply.Integer(static_cast<int64_t>(ctx.db().size())); }

// Redis getFlushCommandFlags: SYNC, ASYNC, or neither (lazyfree-lazy-
// user-flush decides). Sets *freer to the lazy freer for an asynchronous
// flush (the keys are destroyed on its thread), else nullptr.
bool ParseFlushArgs(CommandContext& ctx, LazyFreer** freer) {
  bool async = ctx.server.config().lazyfree_lazy_user_flush;
  if (ctx.argc() == 2 && EqualsIgnoreCase(ctx.arg(1), "sync")) {
    async = false;
  } else if (ctx.argc() == 2 && EqualsIgnoreCase(ctx.arg(1), "async")) {
    async = true;
  } else if (ctx.argc() != 1) {
    ctx.reply.Error(err::kSyntax);
    return false;
  }
  *freer = async ? &ctx.server.lazy_free() : nullptr;
  return true;
}

void FlushDb(CommandContext& ctx) {
  LazyFreer* freer;
  if (!ParseFlushArgs(ctx, &freer)) return;
  ctx.db().Clear(freer);
  ctx.reply.Ok();
}

void FlushAll(CommandContext& ctx) {
  LazyFreer* freer;
  if (!ParseFlushArgs(ctx, &freer)) return;
  for (int i = 0; i < ctx.server.db_count(); i++) {
    ctx.server.db(i).Clear(freer);
  }
  ctx.reply.Ok();
}

void SwapDb(CommandContext& ctx) {
  if (ctx.server.cluster()) return ctx.reply.Error("ERR SWAPDB is not allowed in cluster mode");
  int a, b;
  if (!ParseIntOrReply(ctx, ctx.arg(1), &a, "invalid first DB index")) return;
  if (!ParseIntOrReply(ctx, ctx.arg(2), &b, "invalid second DB index")) return;
  Database* da = DbByIndex(ctx, a);
  Database* db = DbByIndex(ctx, b);
  if (!da || !db) return ctx.reply.Error(err::kDbIndexOutOfRange);
  if (da != db) da->SwapContents(*db);
  ctx.reply.Ok();
}

// Arity follows Redis: N = exactly N args (incl. name), -N = at least N.
// OBJECT and MEMORY subcommands with Redis 7.0's arities (the dispatcher
// checks them, so MULTI rejects a bad one at queue time).
constexpr CommandSpec kObjectSubcommands[] = {
    {"encoding", 3, kReadOnly, 2, 2, 1, &Object},
    {"refcount", 3, kReadOnly, 2, 2, 1, &Object},
    {"idletime", 3, kReadOnly, 2, 2, 1, &Object},
    {"freq", 3, kReadOnly, 2, 2, 1, &Object},
    {"help", 2, kLoading | kStale, 0, 0, 0, &Object},
};
constexpr CommandSpec kMemorySubcommands[] = {
    {"usage", -3, kReadOnly, 2, 2, 1, &Memory},
    {"doctor", 2, 0, 0, 0, 0, &Memory},
    {"stats", 2, 0, 0, 0, 0, &Memory},
    {"purge", 2, 0, 0, 0, 0, &Memory},
    {"malloc-stats", 2, 0, 0, 0, 0, &Memory},
    {"help", 2, kLoading | kStale, 0, 0, 0, &Memory},
};

constexpr CommandSpec kKeyCommands[] = {
    // name       arity  flags                        first last step handler
    {"del",       -2,    kWrite,                      1,    -1,  1,   &Del},
    {"unlink",    -2,    kWrite | kFast,              1,    -1,  1,   &Unlink},
    {"exists",    -2,    kReadOnly | kFast,           1,    -1,  1,   &Exists},
    {"touch",     -2,    kReadOnly | kFast,           1,    -1,  1,   &Touch},
    {"type",      2,     kReadOnly | kFast,           1,    1,   1,   &Type},
    {"keys",      2,     kReadOnly,                   0,    0,   0,   &Keys},
    {"scan",      -2,    kReadOnly,                   0,    0,   0,   &Scan},
    {"randomkey", 1,     kReadOnly,                   0,    0,   0,   &RandomKey},
    {"rename",    3,     kWrite,                      1,    2,   1,   &Rename},
    {"renamenx",  3,     kWrite | kFast,              1,    2,   1,   &RenameNx},
    {"copy",      -3,    kWrite | kDenyOom,           1,    2,   1,   &Copy},
    {"move",      3,     kWrite | kFast,              1,    1,   1,   &Move},
    {"object",    -2,    kReadOnly,                   2,    2,   1,   &Object, kObjectSubcommands},
    {"memory",    -2,    kReadOnly,                   2,    2,   1,   &Memory, kMemorySubcommands},
    {"dbsize",    1,     kReadOnly | kFast,           0,    0,   0,   &DbSize},
    {"flushdb",   -1,    kWrite,                      0,    0,   0,   &FlushDb},
    {"flushall",  -1,    kWrite,                      0,    0,   0,   &FlushAll},
    {"swapdb",    3,     kWrite | kFast,              0,    0,   0,   &SwapDb},
};

}  // namespace

std::span<const CommandSpec> KeyCommands() { return kKeyCommands; }

}  // namespace rankd
