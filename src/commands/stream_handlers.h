// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The stream commands' handlers, shared between the family table
// (stream_family.cc) and the files that implement them, plus the consumer
// group effects several of them emit.

#pragma once

#include <string_view>

#include "core/stream.h"
#include "server/command.h"

namespace rankd {

void XRead(CommandContext& ctx);       // stream_read.cc
void XReadGroup(CommandContext& ctx);  // stream_read.cc
void XGroup(CommandContext& ctx);      // stream_group_cmds.cc
void XAck(CommandContext& ctx);        // stream_group_cmds.cc
void XSetId(CommandContext& ctx);      // stream_group_cmds.cc
void XPending(CommandContext& ctx);    // stream_claim.cc
void XClaim(CommandContext& ctx);      // stream_claim.cc
void XAutoClaim(CommandContext& ctx);  // stream_claim.cc
void XInfo(CommandContext& ctx);       // stream_info.cc

// Logs "XCLAIM key group consumer 0 id TIME t RETRYCOUNT n FORCE JUSTID
// LASTID last": how Redis replicates a delivery or a claim of `id`.
void PropagateXClaim(CommandContext& ctx, std::string_view key, std::string_view group_name,
                     const StreamGroup& g, StreamId id, const StreamPending& p);
// Logs "XGROUP SETID key group last ENTRIESREAD n".
void PropagateGroupSetId(CommandContext& ctx, std::string_view key, std::string_view group_name,
                         const StreamGroup& g);
// The consumer `name` of `g`, created when missing with Redis's
// "xgroup-createconsumer" event, and logged as XGROUP CREATECONSUMER when
// `log` (XREADGROUP NOACK, whose reads log no XCLAIM that would create it:
// what redis-server 7.0.15's AOF holds). Its seen time is left as is.
StreamConsumer* ConsumerForRead(CommandContext& ctx, std::string_view key,
                                std::string_view group_name, StreamGroup& g,
                                std::string_view name, bool log);

}  // namespace rankd
