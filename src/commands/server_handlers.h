// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Handlers of the server family that live in their own files because each is
// a small language of subcommands: CLIENT, COMMAND, INFO, CONFIG. The table
// that names them is in server_family.cc.

#pragma once

#include <string>

#include "server/client.h"
#include "server/command.h"

namespace rankd {

void ClientCmd(CommandContext& ctx);   // client_command.cc
void CommandCmd(CommandContext& ctx);  // command_command.cc
void InfoCmd(CommandContext& ctx);     // info_command.cc
void ConfigCmd(CommandContext& ctx);   // config_command.cc

// CLIENT LIST's line for one client (client_command.cc); also ACL LOG's
// client-info.
std::string DescribeClient(Server& server, Client& c);

}  // namespace rankd
