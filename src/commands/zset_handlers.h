// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The sorted-set command handlers that live outside zset_family.cc, so its
// command table can name them. Each one parses, operates and replies exactly
// once (or blocks), as server/command.h describes.

#pragma once

#include "server/command.h"

namespace rankd {

// zset_family.cc: ZADD (GEOADD calls it with its arguments rewritten).
void ZAdd(CommandContext& ctx);

// zset_range.cc: ZRANGE and its older forms, ZRANGESTORE.
void ZRange(CommandContext& ctx);
void ZRevRange(CommandContext& ctx);
void ZRangeByScore(CommandContext& ctx);
void ZRevRangeByScore(CommandContext& ctx);
void ZRangeByLex(CommandContext& ctx);
void ZRevRangeByLex(CommandContext& ctx);
void ZRangeStore(CommandContext& ctx);

// zset_algebra_cmds.cc: union, intersection, difference.
void ZUnion(CommandContext& ctx);
void ZInter(CommandContext& ctx);
void ZDiff(CommandContext& ctx);
void ZUnionStore(CommandContext& ctx);
void ZInterStore(CommandContext& ctx);
void ZDiffStore(CommandContext& ctx);
void ZInterCard(CommandContext& ctx);

// zset_pop.cc: pops, non-blocking and blocking.
void ZPopMin(CommandContext& ctx);
void ZPopMax(CommandContext& ctx);
void ZMPop(CommandContext& ctx);
void BZPopMin(CommandContext& ctx);
void BZPopMax(CommandContext& ctx);
void BZMPop(CommandContext& ctx);

}  // namespace rankd
