// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "commands/lb_effects.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "base/numbers.h"
#include "server/server.h"

namespace rankd {

void PropagateBoardMembers(CommandContext& ctx, std::string_view key, const SortedSet& z,
                           std::span<const std::string_view> members,
                           std::string_view period_id) {
  const BoardPolicy& p = *z.board();
  // Numbers are formatted into `owned`; string_views into it are taken
  // after it is complete (no reallocation afterwards).
  std::vector<std::string> owned;
  std::vector<std::pair<std::string_view, size_t>> rows;  // member, first owned index
  owned.reserve(1 + 3 * members.size());
  owned.push_back(std::to_string(z.BoardNextSeq()));
  absl::flat_hash_set<std::string_view> seen;
  for (std::string_view m : members) {
    if (!seen.insert(m).second) continue;
    std::optional<BoardStamp> st = z.BoardStampOf(m);
    if (!st) continue;
    rows.emplace_back(m, owned.size());
    owned.push_back(FormatDouble(*z.Score(m)));
    owned.push_back(std::to_string(st->seq));
    owned.push_back(FormatInt64(st->ms));
  }
  std::vector<std::string_view> args = {"LB.LOAD", key};
  if (!period_id.empty()) args.insert(args.end(), {"PERIOD", period_id});
  args.insert(args.end(), {"ORDER", OrderName(p.order), "TIES", TiesName(p.ties), "NEXTSEQ",
                           owned[0]});
  for (auto [m, k] : rows) {
    args.insert(args.end(), {owned[k], m, owned[k + 1], owned[k + 2]});
  }
  ctx.server.Propagate(ctx.client, args);
}

void PropagateBoardMeta(CommandContext& ctx, std::string_view key, const SortedSet& z,
                        std::span<const std::string_view> members) {
  if (members.empty()) return;
  std::vector<std::string_view> args = {"LB.SETMETA", key};
  for (std::string_view m : members) {
    args.push_back(m);
    args.push_back(z.MemberMeta(m).value_or(std::string_view()));
  }
  ctx.server.Propagate(ctx.client, args);
}

}  // namespace rankd
