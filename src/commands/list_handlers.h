// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The list handlers defined in list_pop.cc (pops, moves and their blocking
// forms), listed in list_family.cc's table.

#pragma once

#include "server/command.h"

namespace rankd {

void LPop(CommandContext& ctx);
void RPop(CommandContext& ctx);
void LMPop(CommandContext& ctx);
void LMove(CommandContext& ctx);
void RPopLPush(CommandContext& ctx);
void BLPop(CommandContext& ctx);
void BRPop(CommandContext& ctx);
void BLMPop(CommandContext& ctx);
void BLMove(CommandContext& ctx);
void BRPopLPush(CommandContext& ctx);

}  // namespace rankd
