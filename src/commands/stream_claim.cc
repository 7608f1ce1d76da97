// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Pending entries: XPENDING (summary and extended forms), XCLAIM and
// XAUTOCLAIM (Redis 7.0: its reply ends with the ids of pending entries
// found deleted, which it drops from the PEL).
//
// Effects: each claim (and each dropped deleted entry) is logged as Redis's
// XCLAIM ... FORCE JUSTID LASTID form; a LASTID that moved the group
// without a claim as XGROUP SETID; never the command as received.

#include <climits>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/stream_common.h"
#include "commands/stream_handlers.h"
#include "commands/type_lookup.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

// The group `name` of the stream at `key`, or nullptr after replying
// WRONGTYPE or Redis's "NOGROUP No such key ... or consumer group ...".
StreamGroup* GroupOrReply(CommandContext& ctx, std::string_view key, std::string_view name,
                          Stream** stream) {
  bool wrong_type;
  Stream* s = FindStreamRead(ctx, key, &wrong_type);
  if (wrong_type) {
    ctx.reply.Error(err::kWrongType);
    return nullptr;
  }
  auto it = s ? s->groups().find(name) : StreamGroups::iterator();
  if (!s || it == s->groups().end()) {
    ctx.reply.Error("NOGROUP No such key '" + std::string(key) + "' or consumer group '" +
                    std::string(name) + "'");
    return nullptr;
  }
  *stream = s;
  return &it->second;
}

// An interval bound of XPENDING / XAUTOCLAIM ("(" excludes); replies the
// error and returns false on failure.
bool ParseBound(CommandContext& ctx, std::string_view arg, bool start, StreamId* id) {
  const bool ex = arg.size() > 1 && arg[0] == '(';
  const bool ok = ex ? ParseStreamId(arg.substr(1), id, start ? 0 : UINT64_MAX, true)
                     : ParseStreamId(arg, id, start ? 0 : UINT64_MAX, false);
  if (!ok) {
    ctx.reply.Error(stream_err::kInvalidId);
    return false;
  }
  if (ex && !(start ? id->Incr() : id->Decr())) {
    ctx.reply.Error(start ? "ERR invalid start ID for the interval"
                          : "ERR invalid end ID for the interval");
    return false;
  }
  return true;
}

// Replies the claimed entry (or its id with JUSTID; a null when gone).
void ReplyClaimed(CommandContext& ctx, const Stream& s, StreamId id, bool justid) {
  if (justid) return ReplyStreamId(ctx.reply, id);
  Stream::Fields f;
  if (s.Find(id, &f)) return ReplyStreamEntry(ctx.reply, id, f);
  ctx.reply.Null();
}

// Drops the pending entry `id` (its stream entry is gone), logging it first.
void DropDeleted(CommandContext& ctx, StreamGroup& g, StreamId id) {
  PropagateXClaim(ctx, ctx.arg(1), ctx.arg(2), g, id, g.pel.at(id));
  g.Ack(id);
}

}  // namespace

// XPENDING key group [[IDLE min-idle-time] start end count [consumer]]
void XPending(CommandContext& ctx) {
  const size_t argc = ctx.argc();
  if (argc != 3 && (argc < 6 || argc > 9)) return ctx.reply.Error(err::kSyntax);
  StreamId lo, hi;
  int64_t count = 0, min_idle = 0;
  std::string_view consumer_name;
  bool by_consumer = false;
  if (argc >= 6) {
    size_t at = 3;
    if (EqualsIgnoreCase(ctx.arg(3), "idle")) {
      if (!ParseInt64(ctx.arg(4), &min_idle)) return ctx.reply.Error(err::kNotInteger);
      if (argc < 8) return ctx.reply.Error(err::kSyntax);
      at += 2;
    }
    if (!ParseInt64(ctx.arg(at + 2), &count)) return ctx.reply.Error(err::kNotInteger);
    if (count < 0) count = 0;
    if (!ParseBound(ctx, ctx.arg(at), true, &lo) || !ParseBound(ctx, ctx.arg(at + 1), false, &hi)) {
      return;
    }
    if (at + 3 < argc) {
      by_consumer = true;
      consumer_name = ctx.arg(at + 3);
    }
  }
  Stream* s;
  StreamGroup* g = GroupOrReply(ctx, ctx.arg(1), ctx.arg(2), &s);
  if (!g) return;
  if (argc == 3) {
    ctx.reply.ArrayHeader(4);
    ctx.reply.Integer(static_cast<int64_t>(g->pel.size()));
    if (g->pel.empty()) {
      ctx.reply.Null();
      ctx.reply.Null();
      return ctx.reply.NullArray();
    }
    ReplyStreamId(ctx.reply, g->pel.begin()->first);
    ReplyStreamId(ctx.reply, g->pel.rbegin()->first);
    const size_t token = ctx.reply.DeferArray();
    size_t n = 0;
    for (const auto& [name, c] : g->consumers) {
      if (c.pending.empty()) continue;
      ctx.reply.ArrayHeader(2);
      ctx.reply.Bulk(name);
      ctx.reply.Bulk(std::to_string(c.pending.size()));
      n++;
    }
    return ctx.reply.FinishArray(token, n);
  }
  const StreamConsumer* only = nullptr;
  if (by_consumer && !(only = g->FindConsumer(consumer_name))) return ctx.reply.EmptyArray();
  const int64_t now = WallMs();
  const size_t token = ctx.reply.DeferArray();
  size_t n = 0;
  for (auto it = g->pel.lower_bound(lo); count > 0 && it != g->pel.end() && it->first <= hi;
       ++it) {
    const StreamPending& p = it->second;
    if (only && p.consumer != only) continue;
    if (min_idle != 0 && now - p.delivery_time_ms < min_idle) continue;
    count--;
    n++;
    ctx.reply.ArrayHeader(4);
    ReplyStreamId(ctx.reply, it->first);
    ctx.reply.Bulk(p.consumer->name);
    ctx.reply.Integer(std::max<int64_t>(0, now - p.delivery_time_ms));
    ctx.reply.Integer(static_cast<int64_t>(p.delivery_count));
  }
  ctx.reply.FinishArray(token, n);
}

// XCLAIM key group consumer min-idle-time id [id ...] [IDLE ms] [TIME ms]
//   [RETRYCOUNT n] [FORCE] [JUSTID] [LASTID id]
void XClaim(CommandContext& ctx) {
  Stream* s;
  StreamGroup* g = GroupOrReply(ctx, ctx.arg(1), ctx.arg(2), &s);
  if (!g) return;
  int64_t min_idle;
  if (!ParseInt64(ctx.arg(4), &min_idle)) {
    return ctx.reply.Error("ERR Invalid min-idle-time argument for XCLAIM");
  }
  if (min_idle < 0) min_idle = 0;
  std::vector<StreamId> ids;
  size_t j = 5;
  for (StreamId id; j < ctx.argc() && ParseStreamId(ctx.arg(j), &id, 0, true); j++) {
    ids.push_back(id);
  }
  const int64_t now = WallMs();
  int64_t retrycount = -1, delivery = -1;
  bool force = false, justid = false;
  StreamId last_id;
  for (; j < ctx.argc(); j++) {
    const bool more = j + 1 < ctx.argc();
    std::string_view opt = ctx.arg(j);
    auto number = [&](std::string_view what, int64_t* out) {
      if (ParseInt64(ctx.arg(++j), out)) return true;
      ctx.reply.Error("ERR Invalid " + std::string(what) + " option argument for XCLAIM");
      return false;
    };
    if (EqualsIgnoreCase(opt, "force")) {
      force = true;
    } else if (EqualsIgnoreCase(opt, "justid")) {
      justid = true;
    } else if (EqualsIgnoreCase(opt, "idle") && more) {
      if (!number("IDLE", &delivery)) return;
      delivery = now - delivery;
    } else if (EqualsIgnoreCase(opt, "time") && more) {
      if (!number("TIME", &delivery)) return;
    } else if (EqualsIgnoreCase(opt, "retrycount") && more) {
      if (!number("RETRYCOUNT", &retrycount)) return;
    } else if (EqualsIgnoreCase(opt, "lastid") && more) {
      if (!ParseStreamId(ctx.arg(++j), &last_id, 0, true)) {
        return ctx.reply.Error(stream_err::kInvalidId);
      }
    } else {
      return ctx.reply.Error("ERR Unrecognized XCLAIM option '" + std::string(opt) + "'");
    }
  }
  bool propagate_last_id = false;
  if (last_id > g->last_id) {
    g->last_id = last_id;
    propagate_last_id = true;
  }
  if (delivery < 0 || delivery > now) delivery = now;
  StreamConsumer* consumer = nullptr;
  const size_t token = ctx.reply.DeferArray();
  size_t n = 0;
  for (StreamId id : ids) {
    auto it = g->pel.find(id);
    if (!s->Find(id, nullptr)) {
      if (it != g->pel.end()) {
        DropDeleted(ctx, *g, id);
        propagate_last_id = false;
      }
      continue;
    }
    if (it == g->pel.end()) {
      if (!force) continue;
      it = g->pel.emplace(id, StreamPending{}).first;
    }
    StreamPending& p = it->second;
    if (p.consumer && min_idle != 0 && now - p.delivery_time_ms < min_idle) continue;
    if (!consumer) {
      consumer = ConsumerForRead(ctx, ctx.arg(1), ctx.arg(2), *g, ctx.arg(3), false);
      consumer->seen_time_ms = now;
    }
    p.delivery_time_ms = delivery;
    if (retrycount >= 0) {
      p.delivery_count = static_cast<uint64_t>(retrycount);
    } else if (!justid) {
      p.delivery_count++;
    }
    g->Assign(id, consumer);
    ReplyClaimed(ctx, *s, id, justid);
    n++;
    PropagateXClaim(ctx, ctx.arg(1), ctx.arg(2), *g, id, p);
    propagate_last_id = false;
  }
  if (propagate_last_id) PropagateGroupSetId(ctx, ctx.arg(1), ctx.arg(2), *g);
  ctx.reply.FinishArray(token, n);
}

// XAUTOCLAIM key group consumer min-idle-time start [COUNT count] [JUSTID]
void XAutoClaim(CommandContext& ctx) {
  int64_t min_idle, count = 100;
  bool justid = false;
  if (!ParseInt64(ctx.arg(4), &min_idle)) {
    return ctx.reply.Error("ERR Invalid min-idle-time argument for XAUTOCLAIM");
  }
  if (min_idle < 0) min_idle = 0;
  StreamId start;
  if (!ParseBound(ctx, ctx.arg(5), true, &start)) return;
  for (size_t j = 6; j < ctx.argc(); j++) {
    if (EqualsIgnoreCase(ctx.arg(j), "count") && j + 1 < ctx.argc()) {
      if (!ParseInt64(ctx.arg(++j), &count) || count < 1 || count > LONG_MAX / 10) {
        return ctx.reply.Error("ERR COUNT must be > 0");
      }
    } else if (EqualsIgnoreCase(ctx.arg(j), "justid")) {
      justid = true;
    } else {
      return ctx.reply.Error(err::kSyntax);
    }
  }
  Stream* s;
  StreamGroup* g = GroupOrReply(ctx, ctx.arg(1), ctx.arg(2), &s);
  if (!g) return;
  int64_t attempts = count * 10;
  const int64_t now = WallMs();
  std::vector<StreamId> deleted;
  std::vector<StreamId> claimed;
  auto it = g->pel.lower_bound(start);
  while (attempts-- > 0 && count > 0 && it != g->pel.end()) {
    const StreamId id = it->first;
    if (!s->Find(id, nullptr)) {
      ++it;
      DropDeleted(ctx, *g, id);
      deleted.push_back(id);
      count--;
      continue;
    }
    StreamPending& p = it->second;
    ++it;
    if (min_idle != 0 && now - p.delivery_time_ms < min_idle) continue;
    StreamConsumer* consumer =
        ConsumerForRead(ctx, ctx.arg(1), ctx.arg(2), *g, ctx.arg(3), false);
    consumer->seen_time_ms = now;
    p.delivery_time_ms = now;
    if (!justid) p.delivery_count++;
    g->Assign(id, consumer);
    claimed.push_back(id);
    count--;
    PropagateXClaim(ctx, ctx.arg(1), ctx.arg(2), *g, id, p);
  }
  ctx.reply.ArrayHeader(3);
  ReplyStreamId(ctx.reply, it == g->pel.end() ? StreamId{} : it->first);
  ctx.reply.ArrayHeader(claimed.size());
  for (StreamId id : claimed) ReplyClaimed(ctx, *s, id, justid);
  ctx.reply.ArrayHeader(deleted.size());
  for (StreamId id : deleted) ReplyStreamId(ctx.reply, id);
}

}  // namespace rankd
