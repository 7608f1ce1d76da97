// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// DEBUG: the subcommands test tools use (Redis's own test suite, client
// libraries' suites): SLEEP, RELOAD, LOADAOF, SET-ACTIVE-EXPIRE, OBJECT,
// DIGEST, DIGEST-VALUE, POPULATE, ERROR, LOG, CHANGE-REPL-ID. Refused by
// dispatch unless enable-debug-command allows it (kProtected).
//
// DIGEST follows Redis's computeDatasetDigest, so equal datasets give equal
// digests on rankd and Redis: per key, SHA1 mixes of the key, the type, the
// value (members xor-ed, so order does not matter) and an expiry marker.

#include <arpa/inet.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <string>

#include "base/clock.h"
#include "base/logging.h"
#include "base/numbers.h"
#include "commands/cluster_handlers.h"
#include "commands/persist_family.h"
#include "commands/server_handlers.h"
#include "db/database.h"
#include "persist/append_log.h"
#include "persist/rdb_writer.h"
#include "scripting/script_sha1.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

using Digest = std::array<unsigned char, 20>;

Digest Sha1(std::string_view data) {
  std::string hex = Sha1Hex(data);
  Digest d{};
  for (size_t i = 0; i < 20; i++) {
    d[i] = static_cast<unsigned char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  }
  return d;
}

// Redis xorDigest / mixDigest.
void XorDigest(Digest& digest, std::string_view data) {
  Digest h = Sha1(data);
  for (size_t i = 0; i < 20; i++) digest[i] ^= h[i];
}
void MixDigest(Digest& digest, std::string_view data) {
  XorDigest(digest, data);
  digest = Sha1(std::string_view(reinterpret_cast<const char*>(digest.data()), 20));
}

std::string Hex(const Digest& d) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (unsigned char c : d) {
    s.push_back(kHex[c >> 4]);
    s.push_back(kHex[c & 15]);
  }
  return s;
}

// Redis xorObjectDigest: the value's type, contents and expiry into `digest`.
void ValueDigest(const Database& db, const Database::Entry& e, Digest& digest) {
  const Value& v = e.value;
  // Redis's type codes: string 0, list 1, set 2, zset 3, hash 4, stream 6.
  uint32_t code = 3;
  switch (v.type()) {
    case ValueType::kString: code = 0; break;
    case ValueType::kList: code = 1; break;
    case ValueType::kSet: code = 2; break;
    case ValueType::kZSet: code = 3; break;
    case ValueType::kHash: code = 4; break;
    case ValueType::kStream: code = 6; break;
  }
  uint32_t type = htonl(code);
  MixDigest(digest, std::string_view(reinterpret_cast<const char*>(&type), sizeof(type)));
  if (v.type() == ValueType::kString) {
    MixDigest(digest, v.str());
  } else if (v.type() == ValueType::kSet) {
    v.set().ForEach([&](std::string_view m) { XorDigest(digest, m); });
  } else if (v.type() == ValueType::kList) {
    v.list().ForEach(0, v.list().size(), false, [&](std::string_view m) { MixDigest(digest, m); });
  } else if (v.type() == ValueType::kHash) {
    // As Redis: each field and value mixed into one digest, XORed in.
    v.hash().ForEach([&](std::string_view field, std::string_view value) {
      Digest element{};
      MixDigest(element, field);
      MixDigest(element, value);
      XorDigest(digest, std::string_view(reinterpret_cast<const char*>(element.data()), 20));
    });
  } else if (v.type() == ValueType::kStream) {
    // As Redis: each entry's "ms.seq" id, then its fields and values, in order.
    v.stream().Range({}, StreamId::Max(), false, 0, [&](StreamId id, const Stream::Fields& f) {
      MixDigest(digest, std::to_string(id.ms) + "." + std::to_string(id.seq));
      for (std::string_view x : f) MixDigest(digest, x);
      return true;
    });
  } else if (!v.zset().empty()) {
    v.zset().ForEachInRankRange(0, v.zset().size() - 1, false, [&](std::string_view m, double s) {
      char buf[128];
      snprintf(buf, sizeof(buf), "%.17g", s);
      Digest element{};
      MixDigest(element, m);
      MixDigest(element, buf);
      XorDigest(digest, std::string_view(reinterpret_cast<const char*>(element.data()), 20));
    });
  }
  if (db.ExpireMs(&e) != -1) XorDigest(digest, "!!expire!!");
}

void DatasetDigest(CommandContext& ctx) {
  Digest final_digest{};
  for (int i = 0; i < ctx.server.db_count(); i++) {
    Database& db = ctx.server.db(i);
    if (db.size() == 0) continue;
    uint32_t id = htonl(static_cast<uint32_t>(i));
    MixDigest(final_digest, std::string_view(reinterpret_cast<const char*>(&id), sizeof(id)));
    db.ForEach([&](Database::Entry* e) {
      Digest d{};
      MixDigest(d, e->key());
      ValueDigest(db, *e, d);
      XorDigest(final_digest, std::string_view(reinterpret_cast<const char*>(d.data()), 20));
    });
  }
  ctx.reply.SimpleString(Hex(final_digest));
}

void DigestValue(CommandContext& ctx) {
  ctx.reply.ArrayHeader(ctx.argc() - 2);
  for (size_t i = 2; i < ctx.argc(); i++) {
    Digest d{};
    if (const Database::Entry* e = ctx.db().Peek(ctx.arg(i))) ValueDigest(ctx.db(), *e, d);
    ctx.reply.SimpleString(Hex(d));
  }
}

// "Value at:<addr> refcount:1 encoding:<enc> serializedlength:<n> lru:<clock>
// lru_seconds_idle:<s>"; serializedlength is rankd's byte count of the value
// (rankd has no RDB encoding to measure). A list adds Redis 7.0's quicklist
// fields: ql_nodes (chunks), ql_avg_node (elements per chunk),
// ql_listpack_max (list-max-listpack-size), ql_compressed (its compress
// depth is not 0), ql_uncompressed_size (bytes of its chunks when raw).
void DebugObject(CommandContext& ctx) {
  const Database::Entry* e = ctx.db().PeekRaw(ctx.arg(2));
  if (!e) return ctx.reply.Error(err::kNoSuchKey);
  char buf[384];
  int n = snprintf(buf, sizeof(buf),
                   "Value at:%p refcount:1 encoding:%s serializedlength:%zu lru:%lld "
                   "lru_seconds_idle:%lld",
                   static_cast<const void*>(&e->value),
                   std::string(e->value.EncodingName()).c_str(), e->value.MemoryUsage(),
                   static_cast<long long>((WallMs() / 1000) & ((1 << 24) - 1)),
                   static_cast<long long>(Database::IdleMs(e) / 1000));
  if (e->value.type() == ValueType::kList && n > 0 && static_cast<size_t>(n) < sizeof(buf)) {
    const QuickList& l = e->value.list();
    snprintf(buf + n, sizeof(buf) - n,
             " ql_nodes:%zu ql_avg_node:%.2f ql_listpack_max:%lld ql_compressed:%d "
             "ql_uncompressed_size:%zu",
             l.chunk_count(), static_cast<double>(l.size()) / std::max<size_t>(1, l.chunk_count()),
             static_cast<long long>(ctx.server.list_limits().fill), l.compress_depth() != 0 ? 1 : 0,
             l.UncompressedBytes());
  }
  ctx.reply.SimpleString(buf);
}

// DEBUG POPULATE count [prefix] [size]: string keys "<prefix>:<n>" holding
// "value:<n>" (cut or zero-padded to `size`); existing keys are kept.
void Populate(CommandContext& ctx) {
  int64_t count, size = 0;
  if (!ParseInt64(ctx.arg(2), &count) || count < 0) return ctx.reply.Error(err::kCountNegative);
  std::string prefix = ctx.argc() >= 4 ? std::string(ctx.arg(3)) : "key";
  if (ctx.argc() == 5 && (!ParseInt64(ctx.arg(4), &size) || size < 0)) {
    return ctx.reply.Error(err::kCountNegative);
  }
  Database& db = ctx.db();
  for (int64_t i = 0; i < count; i++) {
    std::string key = prefix + ":" + std::to_string(i);
    if (db.Find(key, false)) continue;
    std::string value = "value:" + std::to_string(i);
    if (size > 0) value.resize(static_cast<size_t>(size), '\0');
    db.Insert(key, Value(std::move(value)));
  }
  ctx.reply.Ok();
}

// DEBUG SEGFAULT: crashes the server on purpose (the crash report's test).
void Segfault(CommandContext&) { raise(SIGSEGV); }

// DEBUG AOF-FLUSH-SLEEP <microseconds>: each log write sleeps first.
void AofFlushSleep(CommandContext& ctx) {
  int64_t us;
  if (!ParseInt64(ctx.arg(2), &us)) return ctx.reply.Error(err::kNotInteger);
  AppendLog::set_debug_flush_sleep_us(us);
  ctx.reply.Ok();
}

// DEBUG SET-SKIP-CHECKSUM-VALIDATION <0|1>: RESTORE skips the CRC64 check.
void SkipChecksum(CommandContext& ctx) {
  SetSkipDumpChecksum(ctx.arg(2) != "0");
  ctx.reply.Ok();
}

}  // namespace

void DebugCmd(CommandContext& ctx) {
  if (DebugPersist(ctx)) return;  // RELOAD, LOADAOF
  if (DebugData(ctx)) return;     // PROTOCOL, QUICKLIST-PACKED-THRESHOLD, ...
  if (DebugControl(ctx)) return;  // PAUSE-CRON, REPLICATE, ...
  std::string_view sub = ctx.arg(1);
  const size_t argc = ctx.argc();
  if (EqualsIgnoreCase(sub, "SLEEP") && argc == 3) {
    // strtod, as Redis: "x" sleeps 0 s.
    double secs = strtod(std::string(ctx.arg(2)).c_str(), nullptr);
    if (secs > 0) usleep(static_cast<useconds_t>(secs * 1e6));
    return ctx.reply.Ok();
  }
  if (EqualsIgnoreCase(sub, "SET-ACTIVE-EXPIRE") && argc == 3) {
    ctx.server.set_active_expire(ctx.arg(2) != "0");
    return ctx.reply.Ok();
  }
  if (EqualsIgnoreCase(sub, "SET-PERIOD-CLOCK") && argc == 3) {
    // rankd only: pins the clock periodic leaderboards roll by (0: wall).
    int64_t ms;
    if (!ParseInt64(ctx.arg(2), &ms) || ms < 0) return ctx.reply.Error(err::kNotInteger);
    SetPeriodClock(ms);
    return ctx.reply.Ok();
  }
  if (EqualsIgnoreCase(sub, "OBJECT") && argc == 3) return DebugObject(ctx);
  if (EqualsIgnoreCase(sub, "DIGEST") && argc == 2) return DatasetDigest(ctx);
  if (EqualsIgnoreCase(sub, "DIGEST-VALUE") && argc >= 2) return DigestValue(ctx);
  if (EqualsIgnoreCase(sub, "POPULATE") && argc >= 3 && argc <= 5) return Populate(ctx);
  if (EqualsIgnoreCase(sub, "ERROR") && argc == 3) return ctx.reply.Error(ctx.arg(2));
  if (EqualsIgnoreCase(sub, "LOG") && argc == 3) {
    Log(LogLevel::kWarning, "DEBUG LOG: %.*s", static_cast<int>(ctx.arg(2).size()),
        ctx.arg(2).data());
    return ctx.reply.Ok();
  }
  if (EqualsIgnoreCase(sub, "CHANGE-REPL-ID") && argc == 2) return ctx.reply.Ok();
  if (EqualsIgnoreCase(sub, "SEGFAULT") && argc == 2) return Segfault(ctx);
  if (EqualsIgnoreCase(sub, "AOF-FLUSH-SLEEP") && argc == 3) return AofFlushSleep(ctx);
  if (EqualsIgnoreCase(sub, "SET-SKIP-CHECKSUM-VALIDATION") && argc == 3) return SkipChecksum(ctx);
  if (EqualsIgnoreCase(sub, "CLUSTERLINK") && argc == 5 && EqualsIgnoreCase(ctx.arg(2), "KILL")) {
    return DebugClusterLink(ctx);
  }
  if (EqualsIgnoreCase(sub, "DROP-CLUSTER-PACKET-FILTER") && argc == 3) {
    return DebugDropClusterPackets(ctx);
  }
  if (EqualsIgnoreCase(sub, "HELP")) {
    return ReplyHelp(
        ctx.reply, "debug",
        {"AOF-FLUSH-SLEEP <microsec>",
         "    Server will sleep before flushing the AOF, this is used for testing.",
         "CHANGE-REPL-ID", "    Change the replication IDs of the instance.",
         "DIGEST", "    Output a hex signature representing the current DB content.",
         "DIGEST-VALUE <key> [<key> ...]",
         "    Output a hex signature of the values of all the specified keys.",
         "ERROR <string>", "    Return a Redis protocol error with <string> as message.",
         "LOG <message>", "    Write <message> to the server log.",
         "LOADAOF", "    Flush the AOF buffers on disk and reload the AOF in memory.",
         "OBJECT <key>", "    Show low level info about `key` and associated value.",
         "POPULATE <count> [<prefix>] [<size>]",
         "    Create <count> string keys named key:<num>. If <prefix> is specified then",
         "    it is used instead of the 'key' prefix.",
         "RELOAD [NOSAVE]", "    Save the RDB on disk and reload it back to memory.",
         "SEGFAULT", "    Crash the server with sigsegv.",
         "SET-SKIP-CHECKSUM-VALIDATION <0|1>",
         "    Enables or disables checksum checks for RDB files and RESTORE's payload.",
         "SET-ACTIVE-EXPIRE <0|1>",
         "    Setting it to 0 disables expiring keys in background when they are not",
         "    accessed. Setting it to 1 reenables back the default.",
         "SLEEP <seconds>", "    Stop the server for <seconds>. Decimals allowed."});
  }
  ctx.reply.Error("ERR unknown subcommand or wrong number of arguments for '" +
                  std::string(sub.substr(0, 128)) + "'. Try DEBUG HELP.");
}

}  // namespace rankd
