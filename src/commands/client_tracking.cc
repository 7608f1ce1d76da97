// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CLIENT TRACKING / CACHING / GETREDIR / TRACKINGINFO: the commands of
// client-side caching. The tracking table and invalidation messages are in
// server/tracking.h.

#include <algorithm>

#include "base/numbers.h"
#include "commands/server_handlers.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {

// CLIENT TRACKING ON|OFF [REDIRECT id] [PREFIX p ...] [BCAST] [OPTIN]
//                        [OPTOUT] [NOLOOP]
void ClientTracking(CommandContext& ctx) {
  TrackingState opts;
  for (size_t i = 3; i < ctx.argc(); i++) {
    std::string_view opt = ctx.arg(i);
    const bool more = i + 1 < ctx.argc();
    if (EqualsIgnoreCase(opt, "REDIRECT") && more) {
      if (opts.redirect != 0) {
        return ctx.reply.Error("ERR A client can only redirect to a single other client");
      }
      int64_t id;
      if (!ParseInt64(ctx.arg(++i), &id)) return ctx.reply.Error(err::kNotInteger);
      if (id <= 0 || !ctx.server.FindClient(static_cast<uint64_t>(id))) {
        return ctx.reply.Error("ERR The client ID you want redirect to does not exist");
      }
      opts.redirect = static_cast<uint64_t>(id);
    } else if (EqualsIgnoreCase(opt, "BCAST")) {
      opts.bcast = true;
    } else if (EqualsIgnoreCase(opt, "OPTIN")) {
      opts.optin = true;
    } else if (EqualsIgnoreCase(opt, "OPTOUT")) {
      opts.optout = true;
    } else if (EqualsIgnoreCase(opt, "NOLOOP")) {
      opts.noloop = true;
    } else if (EqualsIgnoreCase(opt, "PREFIX") && more) {
      opts.prefixes.emplace_back(ctx.arg(++i));
    } else {
      return ctx.reply.Error(err::kSyntax);
    }
  }
  if (EqualsIgnoreCase(ctx.arg(2), "ON")) {
    std::string error = ctx.server.tracking().Enable(ctx.client, opts);
    if (!error.empty()) return ctx.reply.Error(error);
  } else if (EqualsIgnoreCase(ctx.arg(2), "OFF")) {
    ctx.server.tracking().Disable(ctx.client);
  } else {
    return ctx.reply.Error(err::kSyntax);
  }
  ctx.reply.Ok();
}

// CLIENT CACHING YES|NO: whether the next command's keys are tracked
// (OPTIN: only after YES; OPTOUT: unless after NO).
void ClientCaching(CommandContext& ctx) {
  TrackingState& t = ctx.client.tracking;
  if (!t.on) {
    return ctx.reply.Error(
        "ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN "
        "or OPTOUT mode enabled");
  }
  if (EqualsIgnoreCase(ctx.arg(2), "YES")) {
    if (!t.optin) {
      return ctx.reply.Error(
          "ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.");
    }
  } else if (EqualsIgnoreCase(ctx.arg(2), "NO")) {
    if (!t.optout) {
      return ctx.reply.Error(
          "ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.");
    }
  } else {
    return ctx.reply.Error(err::kSyntax);
  }
  t.caching = true;
  ctx.reply.Ok();
}

void ClientGetRedir(CommandContext& ctx) {
  const TrackingState& t = ctx.client.tracking;
  ctx.reply.Integer(t.on ? static_cast<int64_t>(t.redirect) : -1);
}

void ClientTrackingInfo(CommandContext& ctx) {
  const TrackingState& t = ctx.client.tracking;
  std::vector<std::string_view> flags = {t.on ? "on" : "off"};
  if (t.bcast) flags.push_back("bcast");
  if (t.optin) {
    flags.push_back("optin");
    if (t.caching) flags.push_back("caching-yes");
  }
  if (t.optout) {
    flags.push_back("optout");
    if (t.caching) flags.push_back("caching-no");
  }
  if (t.noloop) flags.push_back("noloop");
  if (t.broken_redirect) flags.push_back("broken_redirect");
  ReplyBuilder& r = ctx.reply;
  r.MapHeader(3);
  r.Bulk("flags");
  r.SetHeader(flags.size());
  for (std::string_view f : flags) r.Bulk(f);
  r.Bulk("redirect");
  r.Integer(t.on ? static_cast<int64_t>(t.redirect) : -1);
  r.Bulk("prefixes");
  std::vector<std::string> prefixes = t.prefixes;
  std::sort(prefixes.begin(), prefixes.end());
  r.ArrayHeader(prefixes.size());
  for (const std::string& p : prefixes) r.Bulk(p);
}

}  // namespace rankd
