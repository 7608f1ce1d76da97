// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The command tables of every family, gathered by the Server at start-up.
// Each family file defines exactly one of these functions.

#pragma once

#include <span>

#include "server/command.h"

namespace rankd {

std::span<const CommandSpec> ServerCommands();       // server_family.cc
std::span<const CommandSpec> TransactionCommands();  // tx_family.cc
std::span<const CommandSpec> KeyCommands();          // keys_family.cc
std::span<const CommandSpec> ExpireCommands();       // expire_family.cc
std::span<const CommandSpec> StringCommands();       // string_family.cc
std::span<const CommandSpec> ZSetCommands();         // zset_family.cc
std::span<const CommandSpec> SetCommands();          // set_family.cc

}  // namespace rankd
