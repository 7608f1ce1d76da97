// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Member metadata on leaderboards (issue 17, docs/leaderboards.md): a small
// blob per member, written by `LB.ADD ... score member META bytes` or
//
//   LB.SETMETA key member bytes [member bytes ...]
//     Sets each present member's metadata (empty bytes remove it); absent
//     members are skipped. Replies how many were set. Also how LB.ADD's
//     META is written to the log.
//   LB.META key member [member ...]
//     Each member's metadata, nil when it has none or is absent.
//
// and returned beside each row by WITHMETA on LB.TOP / LB.RANGE / LB.AROUND
// (leaderboard_family.cc).

#include <string>

#include "commands/families.h"
#include "commands/lb_args.h"
#include "commands/zset_common.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

void LbSetMeta(CommandContext& ctx) {
  if (ctx.argc() % 2 != 0) return ctx.reply.Error(err::kSyntax);
  bool wrong_type;
  SortedSet* z = FindZSetWrite(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  if (!z) return ctx.reply.Integer(0);
  if (!z->board()) return ctx.reply.Error(err::kLbPlainWrite);
  int64_t set = 0;
  for (size_t i = 2; i + 1 < ctx.argc(); i += 2) {
    if (!z->Score(ctx.arg(i))) continue;
    z->SetMemberMeta(ctx.arg(i), ctx.arg(i + 1));
    set++;
  }
  if (set > 0) KeyChanged(ctx, ctx.db(), ctx.arg(1), kNotifyZset, "lb.setmeta");
  ctx.reply.Integer(set);
}

void LbMeta(CommandContext& ctx) {
  bool wrong_type;
  const SortedSet* z = FindBoardRead(ctx, ctx.arg(1), &wrong_type);
  if (wrong_type) return ctx.reply.Error(err::kWrongType);
  ctx.reply.ArrayHeader(ctx.argc() - 2);
  for (size_t i = 2; i < ctx.argc(); i++) {
    std::optional<std::string_view> meta = z ? z->MemberMeta(ctx.arg(i)) : std::nullopt;
    if (meta) {
      ctx.reply.Bulk(*meta);
    } else {
      ctx.reply.Null();
    }
  }
}

constexpr CommandSpec kLeaderboardMetaCommands[] = {
    //  name          arity  flags              first last step handler
    {"lb.setmeta",    -4,    kWrite | kFast,    1,    1,   1,   &LbSetMeta},
    {"lb.meta",       -3,    kReadOnly | kFast, 1,    1,   1,   &LbMeta},
};

}  // namespace

std::span<const CommandSpec> LeaderboardMetaCommands() { return kLeaderboardMetaCommands; }

}  // namespace rankd
