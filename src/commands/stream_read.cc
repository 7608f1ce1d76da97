// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// XREAD and XREADGROUP (Redis 7.0 semantics). A read that finds nothing
// blocks through Server::Block: XREAD's "$" is resolved to the stream's
// last id first (the blocked command keeps that id, as Redis does), and a
// retry serves only the key that became ready, at most COUNT (1000 without
// one) entries. A blocked XREADGROUP is also retried when its key goes
// away and answers Redis's UNBLOCKED / NOGROUP errors.
//
// Effects: XREADGROUP is logged as one XCLAIM per entry it delivered (or
// re-delivered from history), with NOACK as one XGROUP SETID with
// ENTRIESREAD, never as itself (what redis-server 7.0.15 writes to its AOF).

#include <string>
#include <vector>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/stream_common.h"
#include "commands/stream_handlers.h"
#include "commands/type_lookup.h"
#include "commands/zset_args.h"
#include "server/errors.h"
#include "server/notify.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr size_t kBlockedDefaultCount = 1000;

// BLOCK's milliseconds (Redis getTimeoutFromObjectOrReply, milliseconds).
std::string_view ParseTimeoutMs(std::string_view arg, int64_t* ms) {
  if (!ParseInt64(arg, ms)) return "ERR timeout is not an integer or out of range";
  if (*ms < 0) return err::kTimeoutNegative;
  return {};
}

struct ReadArgs {
  bool group_mode = false;
  int64_t timeout_ms = -1;  // -1: no BLOCK
  int64_t count = 0;        // 0: all
  size_t streams_at = 0;
  size_t n = 0;
  std::string_view group, consumer;
  bool noack = false;
};

std::string ParseReadArgs(CommandContext& ctx, ReadArgs* a) {
  const std::string_view cmd = a->group_mode ? "xreadgroup" : "xread";
  for (size_t i = 1; i < ctx.argc(); i++) {
    const size_t more = ctx.argc() - i - 1;
    std::string_view o = ctx.arg(i);
    if (EqualsIgnoreCase(o, "block") && more) {
      // A script's client (no connection, not replication's): Redis refuses
      // BLOCK there outright, where EXEC treats it as a non-blocking read.
      if (!ctx.client.conn && !ctx.client.obeyed) {
        return "ERR " + std::string(ctx.arg(0)) +
               " command is not allowed with BLOCK option from scripts";
      }
      if (std::string_view e = ParseTimeoutMs(ctx.arg(++i), &a->timeout_ms); !e.empty()) {
        return std::string(e);
      }
    } else if (EqualsIgnoreCase(o, "count") && more) {
      if (!ParseInt64(ctx.arg(++i), &a->count)) return std::string(err::kNotInteger);
      if (a->count < 0) a->count = 0;
    } else if (EqualsIgnoreCase(o, "streams") && more) {
      a->streams_at = i + 1;
      const size_t rest = ctx.argc() - a->streams_at;
      if (rest % 2 != 0) {
        return "ERR Unbalanced '" + std::string(cmd) +
               "' list of streams: for each stream key an ID or '" +
               (a->group_mode ? ">" : "$") + "' must be specified.";
      }
      a->n = rest / 2;
      break;
    } else if (EqualsIgnoreCase(o, "group") && more >= 2) {
      if (!a->group_mode) {
        return "ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.";
      }
      a->group = ctx.arg(i + 1);
      a->consumer = ctx.arg(i + 2);
      i += 2;
    } else if (EqualsIgnoreCase(o, "noack")) {
      if (!a->group_mode) {
        return "ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.";
      }
      a->noack = true;
    } else {
      return std::string(err::kSyntax);
    }
  }
  if (a->streams_at == 0) return std::string(err::kSyntax);
  if (a->group_mode && a->group.data() == nullptr) return "ERR Missing GROUP option for XREADGROUP";
  return "";
}

// Delivers entries after the group's last id to `c` (XREADGROUP ">").
size_t ServeNew(CommandContext& ctx, std::string_view key, Stream& s, const ReadArgs& a,
                StreamGroup& g, StreamConsumer* c, size_t count) {
  StreamId start = g.last_id;
  start.Incr();
  const int64_t now = WallMs();
  const size_t token = ctx.reply.DeferArray();
  bool moved = false;
  const size_t n = s.Range(start, StreamId::Max(), false, count,
                           [&](StreamId id, const Stream::Fields& f) {
    if (id > g.last_id) {
      if (g.entries_read != -1 && !s.RangeHasTombstones(id)) {
        g.entries_read++;
      } else if (s.entries_added() != 0) {
        g.entries_read = s.EstimateEntriesRead(id);
      }
      g.last_id = id;
      moved = true;
    }
    ReplyStreamEntry(ctx.reply, id, f);
    if (!a.noack) {
      StreamPending& p = g.Assign(id, c);
      p.delivery_time_ms = now;
      p.delivery_count = 1;
      PropagateXClaim(ctx, key, a.group, g, id, p);
    }
    return true;
  });
  ctx.reply.FinishArray(token, n);
  // With NOACK nothing else carries the group's new last id (Redis 7.0.15
  // logs no XGROUP SETID otherwise: a replica's entries-read may lag).
  if (a.noack && moved) PropagateGroupSetId(ctx, key, a.group, g);
  return n;
}

// Re-delivers `c`'s pending entries from `start` (XREADGROUP with an id).
void ServeHistory(CommandContext& ctx, std::string_view key, const Stream& s, const ReadArgs& a,
                  StreamGroup& g, StreamConsumer* c, StreamId start, size_t count) {
  const int64_t now = WallMs();
  std::vector<StreamId> ids;
  for (auto it = c->pending.lower_bound(start); it != c->pending.end(); ++it) {
    if (count != 0 && ids.size() >= count) break;
    ids.push_back(*it);
  }
  ctx.reply.ArrayHeader(ids.size());
  for (StreamId id : ids) {
    Stream::Fields f;
    if (s.Find(id, &f)) {
      ReplyStreamEntry(ctx.reply, id, f);
    } else {
      ctx.reply.ArrayHeader(2);
      ReplyStreamId(ctx.reply, id);
      ctx.reply.NullArray();
    }
    StreamPending& p = g.pel[id];
    p.delivery_time_ms = now;
    p.delivery_count++;
    PropagateXClaim(ctx, key, a.group, g, id, p);
  }
}

void ReadGeneric(CommandContext& ctx, bool group_mode) {
  ReadArgs a;
  a.group_mode = group_mode;
  if (std::string e = ParseReadArgs(ctx, &a); !e.empty()) return ctx.reply.Error(e);
  const std::string_view serving = ctx.retrying_blocked ? ctx.server.serving_key() : "";
  if (group_mode && !serving.empty()) {
    bool wrong_type;
    Stream* s = FindStreamRead(ctx, serving, &wrong_type);
    if (!s) return ctx.reply.Error("UNBLOCKED the stream key no longer exists");
    if (!s->groups().contains(a.group)) {
      return ctx.reply.Error("NOGROUP the consumer group this client was blocked on no longer exists");
    }
  }
  std::vector<StreamId> ids(a.n);
  std::vector<bool> newest(a.n, false);  // ">"
  std::vector<std::string> resolved(ctx.args.begin(), ctx.args.end());
  for (size_t i = 0; i < a.n; i++) {
    std::string_view key = ctx.arg(a.streams_at + i), arg = ctx.arg(a.streams_at + a.n + i);
    bool wrong_type;
    Stream* s = FindStreamRead(ctx, key, &wrong_type);
    // A blocked XREAD whose key now holds another type waits on (Redis 7.0).
    if (wrong_type && !ctx.retrying_blocked) return ctx.reply.Error(err::kWrongType);
    if (group_mode && (!s || !s->groups().contains(a.group))) {
      return ctx.reply.Error("NOGROUP No such key '" + std::string(key) +
                             "' or consumer group '" + std::string(a.group) +
                             "' in XREADGROUP with GROUP option");
    }
    if (arg == "$") {
      if (group_mode) {
        return ctx.reply.Error(
            "ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the "
            "history of this consumer by specifying a proper ID, or use the > ID to get new "
            "messages. The $ ID would just return an empty result set.");
      }
      ids[i] = s ? s->last_id() : StreamId{};
      resolved[a.streams_at + a.n + i] = ids[i].ToString();
    } else if (arg == ">") {
      if (!group_mode) {
        return ctx.reply.Error(
            "ERR The > ID can be specified only when calling XREADGROUP using the GROUP "
            "<group> <consumer> option.");
      }
      newest[i] = true;
    } else if (!ParseStreamId(arg, &ids[i], 0, true)) {
      return ctx.reply.Error(stream_err::kInvalidId);
    }
  }
  size_t count = static_cast<size_t>(a.count);
  if (ctx.retrying_blocked && count == 0) count = kBlockedDefaultCount;
  const size_t token = ctx.reply.DeferArray();
  size_t served = 0;
  for (size_t i = 0; i < a.n; i++) {
    std::string_view key = ctx.arg(a.streams_at + i);
    if (!serving.empty() && key != serving) continue;
    bool wrong_type;
    Stream* s = FindStreamRead(ctx, key, &wrong_type);
    if (!s) continue;
    StreamId last_live;
    const bool any = s->size() > 0 && s->LastEntryId(&last_live);
    if (!group_mode) {
      if (!any || last_live <= ids[i]) continue;
      if (!ctx.reply.resp3()) ctx.reply.ArrayHeader(2);
      ctx.reply.Bulk(key);
      StreamId start = ids[i];
      start.Incr();
      ReplyStreamRange(ctx.reply, *s, start, StreamId::Max(), false, count);
      served++;
      continue;
    }
    StreamGroup& g = s->groups().find(a.group)->second;
    const bool history = !newest[i];
    // Nothing new: Redis 7.0 neither creates the consumer nor touches it.
    if (!history && (!any || last_live <= g.last_id)) continue;
    StreamConsumer* c = ConsumerForRead(ctx, key, a.group, g, a.consumer, a.noack);
    c->seen_time_ms = WallMs();
    if (!ctx.reply.resp3()) ctx.reply.ArrayHeader(2);
    ctx.reply.Bulk(key);
    if (history) {
      StreamId after = ids[i];  // entries after the id, as for ">" and XREAD
      if (!after.Incr()) after = StreamId::Max();
      ServeHistory(ctx, key, *s, a, g, c, after, count);
    } else {
      ServeNew(ctx, key, *s, a, g, c, count);
    }
    served++;
  }
  if (served > 0) {
    return ctx.reply.resp3() ? ctx.reply.FinishMap(token, served)
                             : ctx.reply.FinishArray(token, served);
  }
  if (a.timeout_ms < 0 || ctx.no_block) return ctx.reply.NullArray();
  std::vector<std::string_view> args(resolved.begin(), resolved.end());
  CommandContext block_ctx = ctx;
  block_ctx.args = args;
  ctx.server.Block(block_ctx, ctx.args.subspan(a.streams_at, a.n), a.timeout_ms);
  if (group_mode && ctx.client.blocked.active) ctx.client.blocked.wake_on_delete = true;
}

}  // namespace

void XRead(CommandContext& ctx) { ReadGeneric(ctx, false); }
void XReadGroup(CommandContext& ctx) { ReadGeneric(ctx, true); }

}  // namespace rankd
