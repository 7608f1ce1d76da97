// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// XINFO STREAM [FULL [COUNT n]] / GROUPS / CONSUMERS / HELP, with Redis
// 7.0's fields in Redis's order (maps in RESP3, flat arrays in RESP2).
// "radix-tree-keys" is the number of packed nodes; "radix-tree-nodes"
// counts them again plus one (rankd has no radix tree: an honest stand-in,
// see docs/compatibility.md).

#include <algorithm>
#include <string>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/stream_common.h"
#include "commands/stream_handlers.h"
#include "commands/type_lookup.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

// Redis streamReplyWithCGLag: the group's lag, or null when unknown.
void ReplyLag(ReplyBuilder& reply, const Stream& s, const StreamGroup& g) {
  if (s.entries_added() == 0) return reply.Integer(0);
  if (g.entries_read != -1 && !s.RangeHasTombstones(g.last_id)) {
    return reply.Integer(static_cast<int64_t>(s.entries_added()) - g.entries_read);
  }
  const int64_t read = s.EstimateEntriesRead(g.last_id);
  if (read == -1) return reply.Null();
  reply.Integer(static_cast<int64_t>(s.entries_added()) - read);
}

void ReplyEntriesRead(ReplyBuilder& reply, const StreamGroup& g) {
  if (g.entries_read == -1) return reply.Null();
  reply.Integer(g.entries_read);
}

// The first / last entry, or a null.
void ReplyEdge(ReplyBuilder& reply, const Stream& s, bool last) {
  const size_t n = s.Range({}, StreamId::Max(), last, 1, [&](StreamId id, const Stream::Fields& f) {
    ReplyStreamEntry(reply, id, f);
    return false;
  });
  if (n == 0) reply.Null();
}

void ReplyFullGroups(ReplyBuilder& reply, const Stream& s, size_t count) {
  reply.ArrayHeader(s.groups().size());
  for (const auto& [name, g] : s.groups()) {
    reply.MapHeader(7);
    reply.Bulk("name");
    reply.Bulk(name);
    reply.Bulk("last-delivered-id");
    ReplyStreamId(reply, g.last_id);
    reply.Bulk("entries-read");
    ReplyEntriesRead(reply, g);
    reply.Bulk("lag");
    ReplyLag(reply, s, g);
    reply.Bulk("pel-count");
    reply.Integer(static_cast<int64_t>(g.pel.size()));
    reply.Bulk("pending");
    const size_t pel_n = count == 0 ? g.pel.size() : std::min(count, g.pel.size());
    reply.ArrayHeader(pel_n);
    size_t i = 0;
    for (auto it = g.pel.begin(); i < pel_n; ++it, ++i) {
      reply.ArrayHeader(4);
      ReplyStreamId(reply, it->first);
      reply.Bulk(it->second.consumer->name);
      reply.Integer(it->second.delivery_time_ms);
      reply.Integer(static_cast<int64_t>(it->second.delivery_count));
    }
    reply.Bulk("consumers");
    reply.ArrayHeader(g.consumers.size());
    for (const auto& [cname, c] : g.consumers) {
      reply.MapHeader(4);
      reply.Bulk("name");
      reply.Bulk(cname);
      reply.Bulk("seen-time");
      reply.Integer(c.seen_time_ms);
      reply.Bulk("pel-count");
      reply.Integer(static_cast<int64_t>(c.pending.size()));
      reply.Bulk("pending");
      const size_t cn = count == 0 ? c.pending.size() : std::min(count, c.pending.size());
      reply.ArrayHeader(cn);
      size_t k = 0;
      for (auto it = c.pending.begin(); k < cn; ++it, ++k) {
        const StreamPending& p = g.pel.at(*it);
        reply.ArrayHeader(3);
        ReplyStreamId(reply, *it);
        reply.Integer(p.delivery_time_ms);
        reply.Integer(static_cast<int64_t>(p.delivery_count));
      }
    }
  }
}

void ReplyStream(CommandContext& ctx, const Stream& s) {
  bool full = false;
  int64_t count = 10;
  const size_t argc = ctx.argc();
  if (argc == 4 || argc == 6) {
    if (!EqualsIgnoreCase(ctx.arg(3), "full")) {
      return ctx.reply.Error(SubcommandSyntaxError(ctx.arg(1), "XINFO"));
    }
    full = true;
    if (argc == 6) {
      if (!EqualsIgnoreCase(ctx.arg(4), "count")) {
        return ctx.reply.Error(SubcommandSyntaxError(ctx.arg(1), "XINFO"));
      }
      if (!ParseInt64(ctx.arg(5), &count)) return ctx.reply.Error(err::kNotInteger);
      if (count < 0) count = 10;
    }
  } else if (argc != 3) {
    return ctx.reply.Error(SubcommandSyntaxError(ctx.arg(1), "XINFO"));
  }
  ReplyBuilder& r = ctx.reply;
  r.MapHeader(full ? 9 : 10);
  r.Bulk("length");
  r.Integer(static_cast<int64_t>(s.size()));
  r.Bulk("radix-tree-keys");
  r.Integer(static_cast<int64_t>(s.node_count()));
  r.Bulk("radix-tree-nodes");
  r.Integer(static_cast<int64_t>(s.node_count() + 1));
  r.Bulk("last-generated-id");
  ReplyStreamId(r, s.last_id());
  r.Bulk("max-deleted-entry-id");
  ReplyStreamId(r, s.max_deleted_id());
  r.Bulk("entries-added");
  r.Integer(static_cast<int64_t>(s.entries_added()));
  r.Bulk("recorded-first-entry-id");
  ReplyStreamId(r, s.first_id());
  if (!full) {
    r.Bulk("groups");
    r.Integer(static_cast<int64_t>(s.groups().size()));
    r.Bulk("first-entry");
    ReplyEdge(r, s, false);
    r.Bulk("last-entry");
    return ReplyEdge(r, s, true);
  }
  r.Bulk("entries");
  ReplyStreamRange(r, s, {}, StreamId::Max(), false, static_cast<size_t>(count));
  r.Bulk("groups");
  ReplyFullGroups(r, s, static_cast<size_t>(count));
}

}  // namespace

// XINFO STREAM|GROUPS|CONSUMERS|HELP ...
void XInfo(CommandContext& ctx) {
  std::string_view sub = ctx.arg(1);
  if (EqualsIgnoreCase(sub, "help")) {
    return ReplyHelp(ctx.reply, "XINFO",
                     {"CONSUMERS <key> <groupname>",
                      "    Show consumers of <groupname>.",
                      "GROUPS <key>",
                      "    Show the stream consumer groups.",
                      "STREAM <key> [FULL [COUNT <count>]",
                      "    Show information about the stream."});
  }
  bool wrong_type;
  Stream* s = FindStreamRead(ctx, ctx.arg(2), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!s) return ctx.reply.Error(err::kNoSuchKey);
  if (EqualsIgnoreCase(sub, "stream")) return ReplyStream(ctx, *s);
  if (EqualsIgnoreCase(sub, "groups")) {
    ctx.reply.ArrayHeader(s->groups().size());
    for (const auto& [name, g] : s->groups()) {
      ctx.reply.MapHeader(6);
      ctx.reply.Bulk("name");
      ctx.reply.Bulk(name);
      ctx.reply.Bulk("consumers");
      ctx.reply.Integer(static_cast<int64_t>(g.consumers.size()));
      ctx.reply.Bulk("pending");
      ctx.reply.Integer(static_cast<int64_t>(g.pel.size()));
      ctx.reply.Bulk("last-delivered-id");
      ReplyStreamId(ctx.reply, g.last_id);
      ctx.reply.Bulk("entries-read");
      ReplyEntriesRead(ctx.reply, g);
      ctx.reply.Bulk("lag");
      ReplyLag(ctx.reply, *s, g);
    }
    return;
  }
  // CONSUMERS key group
  auto it = s->groups().find(ctx.arg(3));
  if (it == s->groups().end()) {
    return ctx.reply.Error("NOGROUP No such consumer group '" + std::string(ctx.arg(3)) +
                           "' for key name '" + std::string(ctx.arg(2)) + "'");
  }
  const int64_t now = WallMs();
  ctx.reply.ArrayHeader(it->second.consumers.size());
  for (const auto& [name, c] : it->second.consumers) {
    ctx.reply.MapHeader(3);
    ctx.reply.Bulk("name");
    ctx.reply.Bulk(name);
    ctx.reply.Bulk("pending");
    ctx.reply.Integer(static_cast<int64_t>(c.pending.size()));
    ctx.reply.Bulk("idle");
    ctx.reply.Integer(std::max<int64_t>(0, now - c.seen_time_ms));
  }
}

}  // namespace rankd
