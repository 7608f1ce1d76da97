// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Handlers of the server family that live in their own files because each is
// a small language of subcommands: CLIENT, COMMAND, INFO, CONFIG, LATENCY. The table
// that names them is in server_family.cc.

#pragma once

#include <span>
#include <string>

#include "server/client.h"
#include "server/command.h"

namespace rankd {

void ClientCmd(CommandContext& ctx);   // client_command.cc
// client_control.cc: CLIENT PAUSE, UNPAUSE, REPLY, UNBLOCK, NO-EVICT.
void ClientPause(CommandContext& ctx);
void ClientUnpause(CommandContext& ctx);
void ClientReply(CommandContext& ctx);
void ClientUnblock(CommandContext& ctx);
void ClientNoEvict(CommandContext& ctx);
// client_tracking.cc: CLIENT TRACKING, CACHING, GETREDIR, TRACKINGINFO.
void ClientTracking(CommandContext& ctx);
void ClientCaching(CommandContext& ctx);
void ClientGetRedir(CommandContext& ctx);
void ClientTrackingInfo(CommandContext& ctx);
void CommandCmd(CommandContext& ctx);  // command_command.cc
void InfoCmd(CommandContext& ctx);     // info_command.cc
void ConfigCmd(CommandContext& ctx);   // config_command.cc
void LatencyCmd(CommandContext& ctx);  // latency_command.cc
void DebugCmd(CommandContext& ctx);    // debug_command.cc
// DEBUG's subcommands about storage and replies (debug_data.cc): true if
// `ctx` is one of them, which it then handles.
bool DebugData(CommandContext& ctx);
void DebugProtocol(CommandContext& ctx);  // debug_protocol.cc
void DebugHtStats(CommandContext& ctx);     // debug_htstats.cc
void DebugHtStatsKey(CommandContext& ctx);  // debug_htstats.cc
void DebugMallctl(CommandContext& ctx);     // debug_mallctl.cc
void DebugMallctlStr(CommandContext& ctx);  // debug_mallctl.cc
// DEBUG's subcommands that steer the server for tests (debug_control.cc):
// true if `ctx` is one of them, which it then handles.
bool DebugControl(CommandContext& ctx);
// CONFIG REWRITE (config_command.cc); `force_all` writes every parameter.
void ConfigRewrite(CommandContext& ctx, bool force_all);

class Server;
class InfoWriter;
// INFO latencystats: p50/p99/p99.9 (latency-tracking-info-percentiles) of
// every command called so far (latency_command.cc).
void LatencyStatsSection(Server& server, InfoWriter& w);

// CLIENT LIST's line for one client (client_command.cc); also ACL LOG's
// client-info.
std::string DescribeClient(Client& c, std::span<const std::string_view> argv = {});

}  // namespace rankd
