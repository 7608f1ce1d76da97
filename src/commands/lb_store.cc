// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "commands/lb_store.h"

#include <algorithm>
#include <cassert>
#include <span>
#include <string>
#include <vector>

#include "base/clock.h"
#include "commands/lb_args.h"
#include "commands/lb_effects.h"
#include "db/database.h"
#include "server/keys_common.h"
#include "server/server.h"

namespace rankd {
namespace {

// Members per LB.LOAD when a whole board is logged: bounds one log command's
// size for large boards (the LB.LOADs share the command's batch).
constexpr size_t kLoadChunk = 1024;

// Logs the replacement of `key` by board `z`: DEL, then LB.LOAD of every
// member (the first one also carries the counter; each raises it to the same
// value, which is idempotent).
void PropagateBoardReplace(CommandContext& ctx, std::string_view key, const SortedSet& z) {
  PropagateDel(ctx, key);
  std::vector<std::string_view> members;
  members.reserve(z.size());
  z.BoardForEach([&](std::string_view m, double, BoardStamp) { members.push_back(m); });
  const std::span<const std::string_view> all(members);
  for (size_t i = 0; i < all.size(); i += kLoadChunk) {
    PropagateBoardMembers(ctx, key, z, all.subspan(i, std::min(kLoadChunk, all.size() - i)));
  }
  if (z.snapshot_every_ms() > 0) {  // the schedule of stable views stays with the key
    const BoardPolicy& p = *z.board();
    const std::string every = std::to_string(z.snapshot_every_ms() / 1000);
    const std::string_view args[] = {"LB.CREATE", key,        "ORDER", OrderName(p.order),
                                     "TIES",      TiesName(p.ties), "SNAPSHOT", "EVERY", every};
    ctx.server.Propagate(ctx.client, args);
  }
}

}  // namespace

std::unique_ptr<SortedSet> RestampedBoard(const SortedSet& old, const ScoredMembers& result,
                                          int64_t now_ms) {
  std::unique_ptr<SortedSet> z = SortedSet::NewBoard(*old.board(), result.size());
  // Unchanged members first, with their stamps; then the counter continues
  // from the old board's, whatever the kept stamps were.
  std::vector<const std::pair<std::string, double>*> changed;
  for (const auto& item : result) {
    std::optional<double> before = old.Score(item.first);
    if (before && *before == item.second) {
      z->BoardPut(item.first, item.second, *old.BoardStampOf(item.first));
    } else {
      changed.push_back(&item);
    }
  }
  z->BoardRaiseNextSeq(old.BoardNextSeq());
  z->set_snapshot_every_ms(old.snapshot_every_ms());  // the view itself is not kept
  std::sort(changed.begin(), changed.end(), [](const auto* a, const auto* b) {
    return a->second < b->second || (a->second == b->second && a->first < b->first);
  });
  const SortedSetLimits limits;  // unused by boards (always a tree)
  for (const auto* item : changed) {
    (void)z->Add(item->first, item->second, AddOptions{}, limits, now_ms);
  }
  return z;
}

void AdoptPlainSet(CommandContext& ctx, std::string_view key, const BoardPolicy& policy,
                   int64_t snapshot_every_s) {
  Database& db = ctx.db();
  Database::Entry* e = db.Find(key, /*touch_access=*/false);
  const SortedSet& plain = e->value.zset();
  const size_t n = plain.size();
  assert(n > 0);  // the database holds no empty sorted set
  std::unique_ptr<SortedSet> board = SortedSet::NewBoard(policy, n);
  const int64_t now = WallMs();
  const bool desc = policy.order == BoardOrder::kDesc;
  const bool first = policy.ties == BoardTies::kFirst;
  std::vector<std::pair<std::string, int64_t>> deadlines;
  size_t i = 0;  // the i-th member in the board's listing direction
  // (one walk: At(rank) per member costs a walk from the start in a compact set)
  plain.ForEachInRankRange(0, n - 1, desc, [&](std::string_view member, double score) {
    // Under FIRST the earlier sequence lists first, under LAST the later one.
    const uint64_t seq = first ? i + 1 : n - i;
    board->BoardPut(member, score, {seq, now});
    if (int64_t t = plain.MemberExpire(member); t >= 0) deadlines.emplace_back(member, t);
    i++;
  });
  board->BoardRaiseNextSeq(n + 1);
  for (const auto& [member, t] : deadlines) board->SetMemberExpire(member, t);
  if (snapshot_every_s > 0) board->set_snapshot_every_ms(snapshot_every_s * 1000);
  const int64_t ttl = db.ExpireMs(e);
  e = db.Set(key, Value(std::move(board)), /*keep_ttl=*/true);
  db.SyncMemberExpire(e);
  if (snapshot_every_s > 0) db.NoteTimedBoard(key);
  KeyChanged(ctx, db, key, kNotifyZset, "lb.create");
  PropagateBoardReplace(ctx, key, e->value.zset());
  for (const auto& [member, t] : deadlines) {
    const std::string at = std::to_string(t);
    const std::string_view args[] = {"ZPEXPIREAT", key, at, "MEMBERS", "1", member};
    ctx.server.Propagate(ctx.client, args);
  }
  if (ttl >= 0) {
    const std::string at = std::to_string(ttl);
    const std::string_view args[] = {"PEXPIREAT", key, at};
    ctx.server.Propagate(ctx.client, args);
  }
  ctx.reply.Ok();
}

void StoreZSetResult(CommandContext& ctx, std::string_view dst, std::string_view event,
                     const ScoredMembers& result, BuildOrder order) {
  Database& db = ctx.db();
  bool wrong_type;
  const SortedSet* old = FindZSetWrite(ctx, dst, &wrong_type);
  if (old && old->periodic()) return ctx.reply.Error(err::kLbPeriodicStore);
  if (result.empty()) {
    if (db.Delete(dst)) KeyChanged(ctx, db, dst, kNotifyGeneric, "del");
    return ctx.reply.Integer(0);
  }
  if (old && old->board()) {
    std::unique_ptr<SortedSet> board = RestampedBoard(*old, result, WallMs());
    const SortedSet& stored = db.Set(dst, Value(std::move(board)))->value.zset();
    KeyChanged(ctx, db, dst, kNotifyZset, event);
    PropagateBoardReplace(ctx, dst, stored);
  } else {
    db.Set(dst, Value(BuildZSet(result, ctx.server.zset_limits(), order)));
    KeyChanged(ctx, db, dst, kNotifyZset, event);
  }
  ctx.reply.Integer(static_cast<int64_t>(result.size()));
}

}  // namespace rankd
