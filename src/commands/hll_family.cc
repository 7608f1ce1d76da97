// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The HyperLogLog family: PFADD, PFCOUNT, PFMERGE, PFDEBUG, PFSELFTEST and
// the family's command table. An HLL is a string value in Redis's own
// format (core/hyperloglog.h), so every string command, DUMP / RESTORE and
// replication carry it unchanged. Semantics follow Redis 7.0 hyperloglog.c:
//   - a string that is not an HLL answers "WRONGTYPE Key is not a valid
//     HyperLogLog string value.", one whose sparse body is broken answers
//     "INVALIDOBJ Corrupted HLL object detected";
//   - PFCOUNT of one key caches the estimate in the header: a cache fill
//     changes the value, so it counts as a modification (WATCH) and the
//     PFCOUNT is logged and replicated as received, like Redis (so it is
//     "may-replicate": CLIENT PAUSE WRITE holds it, read-only scripts refuse
//     it);
//   - PFMERGE publishes the "pfadd" keyspace event, as Redis does.

#include <string>

#include "commands/families.h"
#include "core/hyperloglog.h"
#include "server/errors.h"
#include "server/keys_common.h"
#include "server/notify.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr std::string_view kNotHll = "WRONGTYPE Key is not a valid HyperLogLog string value.";
constexpr std::string_view kCorrupt = "INVALIDOBJ Corrupted HLL object detected";

// Replies the error and returns false unless `e` holds an HLL string.
bool CheckHllOrReply(CommandContext& ctx, const Database::Entry& e) {
  if (e.value.type() != ValueType::kString) {
    ctx.reply.Error(err::kWrongType);
    return false;
  }
  if (!HllIsValid(e.value.str())) {
    ctx.reply.Error(kNotHll);
    return false;
  }
  return true;
}

// The HLL string of `e` to change in place (Redis dbUnshareStringValue).
std::string& MutableHll(Database::Entry* e) {
  e->value.set_raw(true);
  return e->value.mutable_str();
}

size_t SparseMaxBytes(CommandContext& ctx) {
  return static_cast<size_t>(ctx.server.config().hll_sparse_max_bytes);
}

// PFADD key [element ...]: 1 when the key was created or a register grew.
void PfAdd(CommandContext& ctx) {
  Database& db = ctx.db();
  const std::string_view key = ctx.arg(1);
  Database::Entry* e = LookupWrite(ctx, key);
  int changed = 0;
  if (!e) {
    e = db.Insert(key, Value(HllNew()));
    changed = 1;
  } else if (!CheckHllOrReply(ctx, *e)) {
    return;
  }
  std::string& hll = MutableHll(e);
  for (size_t i = 2; i < ctx.argc(); i++) {
    const int r = HllAdd(&hll, ctx.arg(i), SparseMaxBytes(ctx));
    if (r < 0) return ctx.reply.Error(kCorrupt);
    changed += r;
  }
  if (changed) {
    HllInvalidateCache(&hll);
    KeyChanged(ctx, db, key, kNotifyString, "pfadd");
  }
  ctx.reply.Integer(changed ? 1 : 0);
}

// PFCOUNT key: the cached estimate, or a fresh one that is then cached.
void PfCountOne(CommandContext& ctx) {
  const std::string_view key = ctx.arg(1);
  Database::Entry* e = LookupRead(ctx, key);
  if (!e) return ctx.reply.Integer(0);
  if (!CheckHllOrReply(ctx, *e)) return;
  e->value.set_raw(true);  // Redis unshares the value first, even for a cached answer
  if (std::optional<uint64_t> cached = HllCachedCount(e->value.str())) {
    return ctx.reply.Integer(static_cast<int64_t>(*cached));
  }
  const std::optional<uint64_t> count = HllEstimate(e->value.str());
  if (!count) return ctx.reply.Error(kCorrupt);
  HllSetCachedCount(&MutableHll(e), *count);
  ctx.db().Touch(key);
  // A read-only command the dispatcher would not log: log it here.
  ctx.server.Propagate(ctx.client, ctx.args);
  ctx.reply.Integer(static_cast<int64_t>(*count));
}

// PFCOUNT key [key ...]: with several keys, the estimate of their union;
// nothing is cached or changed. Missing keys count as empty HLLs.
void PfCount(CommandContext& ctx) {
  if (ctx.argc() == 2) return PfCountOne(ctx);
  HllRegisters max{};
  for (size_t i = 1; i < ctx.argc(); i++) {
    Database::Entry* e = LookupRead(ctx, ctx.arg(i));
    if (!e) continue;
    if (!CheckHllOrReply(ctx, *e)) return;
    if (!HllMaxInto(e->value.str(), &max)) return ctx.reply.Error(kCorrupt);
  }
  ctx.reply.Integer(static_cast<int64_t>(HllEstimate(max)));
}

// PFMERGE destkey [sourcekey ...]: destkey becomes the union of itself and
// the sources; dense when any input is dense, else sparse while it fits.
void PfMerge(CommandContext& ctx) {
  HllRegisters max{};
  bool any_dense = false;
  for (size_t i = 1; i < ctx.argc(); i++) {
    Database::Entry* e = LookupRead(ctx, ctx.arg(i));
    if (!e) continue;
    if (!CheckHllOrReply(ctx, *e)) return;
    any_dense |= !HllIsSparse(e->value.str());
    if (!HllMaxInto(e->value.str(), &max)) return ctx.reply.Error(kCorrupt);
  }
  Database& db = ctx.db();
  const std::string_view dest = ctx.arg(1);
  Database::Entry* e = LookupWrite(ctx, dest);
  if (!e) e = db.Insert(dest, Value(HllNew()));
  std::string& hll = MutableHll(e);
  if (any_dense && !HllToDense(&hll)) return ctx.reply.Error(kCorrupt);
  HllRaiseAll(&hll, max, SparseMaxBytes(ctx));
  HllInvalidateCache(&hll);
  KeyChanged(ctx, db, dest, kNotifyString, "pfadd");
  ctx.reply.Ok();
}

// PFDEBUG GETREG | DECODE | ENCODING | TODENSE key. GETREG and TODENSE make
// a sparse HLL dense; that change is logged (not a keyspace event).
void PfDebug(CommandContext& ctx) {
  const std::string_view sub = ctx.arg(1);
  Database::Entry* e = LookupWrite(ctx, ctx.arg(2));
  if (!e) return ctx.reply.Error("ERR The specified key does not exist");
  if (!CheckHllOrReply(ctx, *e)) return;
  std::string& hll = MutableHll(e);
  const bool sparse = HllIsSparse(hll);
  auto to_dense = [&]() {
    if (!sparse) return true;
    if (!HllToDense(&hll)) {
      ctx.reply.Error(kCorrupt);
      return false;
    }
    ctx.server.Propagate(ctx.client, ctx.args);
    return true;
  };
  if (EqualsIgnoreCase(sub, "getreg")) {
    if (!to_dense()) return;
    ctx.reply.ArrayHeader(hll::kRegisters);
    for (uint32_t i = 0; i < hll::kRegisters; i++) ctx.reply.Integer(HllDenseRegister(hll, i));
  } else if (EqualsIgnoreCase(sub, "decode")) {
    if (!sparse) return ctx.reply.Error("ERR HLL encoding is not sparse");
    ctx.reply.Bulk(HllDecodeSparse(hll));
  } else if (EqualsIgnoreCase(sub, "encoding")) {
    ctx.reply.SimpleString(sparse ? "sparse" : "dense");
  } else if (EqualsIgnoreCase(sub, "todense")) {
    if (!to_dense()) return;
    ctx.reply.Integer(sparse ? 1 : 0);
  } else {
    ctx.reply.Error("ERR Unknown PFDEBUG subcommand '" + std::string(sub) + "'");
  }
}

void PfSelfTest(CommandContext& ctx) {
  const std::string failure = HllSelfTest();
  if (!failure.empty()) return ctx.reply.Error(failure);
  ctx.reply.Ok();
}

// Arity follows Redis: N = exactly N args (incl. name), -N = at least N.
constexpr CommandSpec kHllCommands[] = {
    // name         arity  flags                       first last step handler
    {"pfadd",       -2,    kWrite | kDenyOom | kFast,  1,    1,   1,   &PfAdd},
    {"pfcount",     -2,    kReadOnly | kMayReplicate,  1,    -1,  1,   &PfCount},
    {"pfmerge",     -2,    kWrite | kDenyOom,          1,    -1,  1,   &PfMerge},
    {"pfdebug",     3,     kWrite | kDenyOom | kAdmin, 2,    2,   1,   &PfDebug},
    {"pfselftest",  1,     kAdmin,                     0,    0,   0,   &PfSelfTest},
};

}  // namespace

std::span<const CommandSpec> HyperLogLogCommands() { return kHllCommands; }

}  // namespace rankd
