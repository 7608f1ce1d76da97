// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Consumer group administration (XGROUP CREATE / SETID / DESTROY /
// CREATECONSUMER / DELCONSUMER), XACK and XSETID, with Redis 7.0's
// argument order and errors, and the group effects shared with the reads
// and claims.
//
// Group changes do not count as key modifications (WATCH and tracking do
// not see them, as in Redis); they are logged explicitly as received.

#include <string>
#include <vector>

#include "base/clock.h"
#include "base/numbers.h"
#include "commands/stream_common.h"
#include "commands/stream_handlers.h"
#include "commands/type_lookup.h"
#include "server/errors.h"
#include "server/notify.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr std::string_view kEntriesReadRange = "ERR value for ENTRIESREAD must be positive or -1";

void PropagateAsIs(CommandContext& ctx) { ctx.server.Propagate(ctx.client, ctx.args); }

void XGroupHelp(CommandContext& ctx) {
  ReplyHelp(ctx.reply, "XGROUP",
            {"CREATE <key> <groupname> <id|$> [option]",
             "    Create a new consumer group. Options are:",
             "    * MKSTREAM",
             "      Create the empty stream if it does not exist.",
             "    * ENTRIESREAD entries_read",
             "      Set the group's entries_read counter (internal use).",
             "CREATECONSUMER <key> <groupname> <consumer>",
             "    Create a new consumer in the specified group.",
             "DELCONSUMER <key> <groupname> <consumer>",
             "    Remove the specified consumer.",
             "DESTROY <key> <groupname>",
             "    Remove the specified group.",
             "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
             "    Set the current group ID and entries_read counter."});
}

}  // namespace

void PropagateXClaim(CommandContext& ctx, std::string_view key, std::string_view group_name,
                     const StreamGroup& g, StreamId id, const StreamPending& p) {
  const std::string id_s = id.ToString(), time_s = FormatInt64(p.delivery_time_ms),
                    count_s = std::to_string(p.delivery_count), last_s = g.last_id.ToString();
  const std::string_view args[] = {"XCLAIM", key,     group_name, p.consumer->name, "0",
                                   id_s,     "TIME",  time_s,     "RETRYCOUNT",     count_s,
                                   "FORCE",  "JUSTID", "LASTID",  last_s};
  ctx.server.Propagate(ctx.client, args);
}

void PropagateGroupSetId(CommandContext& ctx, std::string_view key, std::string_view group_name,
                         const StreamGroup& g) {
  const std::string last_s = g.last_id.ToString(), read_s = FormatInt64(g.entries_read);
  const std::string_view args[] = {"XGROUP", "SETID", key, group_name, last_s, "ENTRIESREAD",
                                   read_s};
  ctx.server.Propagate(ctx.client, args);
}

StreamConsumer* ConsumerForRead(CommandContext& ctx, std::string_view key,
                                std::string_view group_name, StreamGroup& g,
                                std::string_view name, bool log) {
  bool created;
  StreamConsumer* c = g.GetOrCreateConsumer(name, WallMs(), &created);
  if (!created) return c;
  KeyEvent(ctx, ctx.db(), kNotifyStream, "xgroup-createconsumer", key);
  if (log) {
    const std::string_view args[] = {"XGROUP", "CREATECONSUMER", key, group_name, name};
    ctx.server.Propagate(ctx.client, args);
  }
  return c;
}

// XGROUP CREATE|SETID|DESTROY|CREATECONSUMER|DELCONSUMER|HELP ...
void XGroup(CommandContext& ctx) {
  std::string_view sub = ctx.arg(1);
  if (EqualsIgnoreCase(sub, "help")) return XGroupHelp(ctx);
  const bool create = EqualsIgnoreCase(sub, "create");
  bool mkstream = false;
  int64_t entries_read = -1;
  if (create || EqualsIgnoreCase(sub, "setid")) {
    for (size_t i = 5; i < ctx.argc();) {
      if (create && EqualsIgnoreCase(ctx.arg(i), "mkstream")) {
        mkstream = true;
        i++;
      } else if (EqualsIgnoreCase(ctx.arg(i), "entriesread") && i + 1 < ctx.argc()) {
        if (!ParseInt64(ctx.arg(i + 1), &entries_read)) return ctx.reply.Error(err::kNotInteger);
        if (entries_read < -1) return ctx.reply.Error(kEntriesReadRange);
        i += 2;
      } else {
        return ctx.reply.Error(SubcommandSyntaxError(ctx.arg(1), "XGROUP"));
      }
    }
  }
  const std::string_view key = ctx.arg(2), name = ctx.arg(3);
  bool wrong_type;
  Stream* s = FindStreamWrite(ctx, key, &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!s && !mkstream) {
    return ctx.reply.Error(
        "ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want "
        "to use the MKSTREAM option to create an empty stream automatically.");
  }
  auto git = s ? s->groups().find(name) : StreamGroups::iterator();
  const bool have_group = s && git != s->groups().end();
  if (!have_group && !create && !EqualsIgnoreCase(sub, "destroy")) {
    return ctx.reply.Error("NOGROUP No such consumer group '" + std::string(name) +
                           "' for key name '" + std::string(key) + "'");
  }
  if (create) {
    if (ctx.argc() > 8) return ctx.reply.Error(SubcommandSyntaxError(ctx.arg(1), "XGROUP"));
    StreamId id;
    if (ctx.arg(4) == "$") {
      id = s ? s->last_id() : StreamId{};
    } else if (!ParseStreamId(ctx.arg(4), &id, 0, true)) {
      return ctx.reply.Error(stream_err::kInvalidId);
    }
    if (have_group) return ctx.reply.Error(stream_err::kBusyGroup);
    if (!s) {
      s = StreamForWrite(ctx, key, &wrong_type);
      ctx.db().Touch(key);
    }
    StreamGroup& g = s->groups()[std::string(name)];
    g.last_id = id;
    g.entries_read = entries_read;
    ctx.reply.Ok();
    KeyEvent(ctx, ctx.db(), kNotifyStream, "xgroup-create", key);
    return PropagateAsIs(ctx);
  }
  if (EqualsIgnoreCase(sub, "setid")) {
    StreamId id;
    if (ctx.arg(4) == "$") {
      id = s->last_id();
    } else if (!ParseStreamId(ctx.arg(4), &id, 0, false)) {
      return ctx.reply.Error(stream_err::kInvalidId);
    }
    git->second.last_id = id;
    git->second.entries_read = entries_read;
    ctx.reply.Ok();
    KeyEvent(ctx, ctx.db(), kNotifyStream, "xgroup-setid", key);
    return PropagateAsIs(ctx);
  }
  if (EqualsIgnoreCase(sub, "destroy")) {
    if (!have_group) return ctx.reply.Integer(0);
    s->groups().erase(git);
    ctx.reply.Integer(1);
    KeyEvent(ctx, ctx.db(), kNotifyStream, "xgroup-destroy", key);
    ctx.db().SignalReady(key);  // blocked XREADGROUPs answer NOGROUP
    return PropagateAsIs(ctx);
  }
  StreamGroup& g = git->second;
  if (EqualsIgnoreCase(sub, "createconsumer")) {
    bool created;
    g.GetOrCreateConsumer(ctx.arg(4), WallMs(), &created);
    ctx.reply.Integer(created ? 1 : 0);
    if (created) {
      KeyEvent(ctx, ctx.db(), kNotifyStream, "xgroup-createconsumer", key);
      PropagateAsIs(ctx);
    }
    return;
  }
  // DELCONSUMER
  const bool existed = g.FindConsumer(ctx.arg(4)) != nullptr;
  ctx.reply.Integer(static_cast<int64_t>(g.DeleteConsumer(ctx.arg(4))));
  if (existed) {
    KeyEvent(ctx, ctx.db(), kNotifyStream, "xgroup-delconsumer", key);
    PropagateAsIs(ctx);
  }
}

// XACK key group id [id ...]
void XAck(CommandContext& ctx) {
  bool wrong_type;
  Stream* s = FindStreamRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  auto git = s ? s->groups().find(ctx.arg(2)) : StreamGroups::iterator();
  if (!s || git == s->groups().end()) return ctx.reply.Integer(0);
  std::vector<StreamId> ids(ctx.argc() - 3);
  for (size_t j = 3; j < ctx.argc(); j++) {
    if (!ParseStreamId(ctx.arg(j), &ids[j - 3], 0, true)) {
      return ctx.reply.Error(stream_err::kInvalidId);
    }
  }
  int64_t acked = 0;
  for (StreamId id : ids) acked += git->second.Ack(id) ? 1 : 0;
  ctx.reply.Integer(acked);
  if (acked > 0) PropagateAsIs(ctx);
}

// XSETID key last-id [ENTRIESADDED entries-added] [MAXDELETEDID max-deleted-id]
void XSetId(CommandContext& ctx) {
  StreamId id, max_deleted;
  int64_t entries_added = -1;
  if (!ParseStreamId(ctx.arg(2), &id, 0, true)) return ctx.reply.Error(stream_err::kInvalidId);
  for (size_t i = 3; i < ctx.argc(); i += 2) {
    const bool more = i + 1 < ctx.argc();
    if (EqualsIgnoreCase(ctx.arg(i), "entriesadded") && more) {
      if (!ParseInt64(ctx.arg(i + 1), &entries_added)) return ctx.reply.Error(err::kNotInteger);
      if (entries_added < 0) return ctx.reply.Error("ERR entries_added must be positive");
    } else if (EqualsIgnoreCase(ctx.arg(i), "maxdeletedid") && more) {
      if (!ParseStreamId(ctx.arg(i + 1), &max_deleted, 0, true)) {
        return ctx.reply.Error(stream_err::kInvalidId);
      }
      if (id < max_deleted) {
        return ctx.reply.Error(
            "ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id");
      }
    } else {
      return ctx.reply.Error(err::kSyntax);
    }
  }
  bool wrong_type;
  Stream* s = FindStreamWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!s) return ctx.reply.Error(err::kNoSuchKey);
  StreamId top;
  if (s->size() > 0 && s->LastEntryId(&top)) {
    if (id < top) {
      return ctx.reply.Error(
          "ERR The ID specified in XSETID is smaller than the target stream top item");
    }
    if (entries_added != -1 && s->size() > static_cast<uint64_t>(entries_added)) {
      return ctx.reply.Error(
          "ERR The entries_added specified in XSETID is smaller than the target stream length");
    }
  }
  if (id < s->max_deleted_id()) {
    return ctx.reply.Error(
        "ERR The ID specified in XSETID is smaller than current max_deleted_entry_id");
  }
  s->set_last_id(id);
  if (entries_added != -1) s->set_entries_added(static_cast<uint64_t>(entries_added));
  if (!max_deleted.zero()) s->set_max_deleted_id(max_deleted);
  ctx.reply.Ok();
  KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyStream, "xsetid");
}

}  // namespace rankd
