// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Boards the keyspace changes on its own as time passes (issue 17, issue
// 33): periodic boards roll at a period boundary and boards with SNAPSHOT
// EVERY take a new stable view when the old one is due. Both happen on
// lookup (Find) and from the server's cron (ActiveBoards), so a boundary
// reaches watchers, tracking caches, keyspace events, the log and the
// replicas when it passes, not at the next read. Taking the view on the
// first lookup after it is due gives the same view as taking it on time:
// every write to the board looks it up first.
//
// The same registry of names counts boards for INFO leaderboards.

#include <string>
#include <vector>

#include "base/clock.h"
#include "core/board_snapshot.h"
#include "core/periodic_board.h"
#include "db/database.h"

namespace rankd {
namespace {

bool IsTimed(const SortedSet& z) { return z.periodic() || z.snapshot_every_ms() > 0; }

}  // namespace

void Database::MaybeTakeView(Entry* e) {
  if (may_roll_periods && !may_roll_periods()) return;
  SortedSet& z = e->value.zset();
  // A loaded board is known from its first lookup on.
  if (!timed_boards_.contains(e->key())) timed_boards_.emplace(e->key());
  const int64_t now = WallMs();
  const BoardSnapshot* view = z.board_snapshot();
  if (view && now - view->taken_ms() < z.snapshot_every_ms()) return;
  z.BoardTakeView(now);
  if (on_view_taken) on_view_taken(index_, e->key());
}

void Database::NoteIfBoard(const Entry* e) {
  if (e->value.type() != ValueType::kZSet || !e->value.zset().board()) return;
  board_keys_.emplace(e->key());
  if (IsTimed(e->value.zset())) NoteTimedBoard(e->key());
}

void Database::ActiveBoards() {
  std::vector<std::string> keys;
  keys.reserve(timed_boards_.size());
  for (auto it = timed_boards_.begin(); it != timed_boards_.end();) {
    const Entry* e = Lookup(*it);
    if (!e || e->value.type() != ValueType::kZSet || !IsTimed(e->value.zset())) {
      timed_boards_.erase(it++);
    } else {
      keys.push_back(*it++);
    }
  }
  // Find rolls, takes the view, and reports both (it may also expire the key).
  for (const std::string& k : keys) Find(k, /*touch_access=*/false);
}

Database::BoardCounts Database::CountBoards() {
  BoardCounts n;
  for (auto it = board_keys_.begin(); it != board_keys_.end();) {
    const Entry* e = Lookup(*it);
    if (!e || e->value.type() != ValueType::kZSet || !e->value.zset().board()) {
      board_keys_.erase(it++);
      continue;
    }
    ++it;
    if (IsExpired(e)) continue;  // reads as missing: not counted
    const SortedSet& z = e->value.zset();
    n.boards++;
    if (z.periodic()) n.periodic++;
    if (z.snapshot_every_ms() > 0) n.scheduled++;
    if (z.board_snapshot()) n.views++;
  }
  return n;
}

size_t Database::PendingMemberDeadlines() const {
  size_t n = 0;
  for (const auto& [e, ms] : member_deadline_) {
    if (e->value.type() == ValueType::kZSet) n += e->value.zset().MembersWithExpire();
  }
  return n;
}

}  // namespace rankd
