// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The schedule of stable views (issue 17, LB.CREATE ... SNAPSHOT EVERY):
// the keyspace takes a board's view when it is due, on lookup (Find) and
// from the server's cron (ActiveViews), as it rolls periodic boards. Taking
// the view on the first lookup after it is due gives the same view as
// taking it on time: every write to the board looks it up first.

#include <string>
#include <vector>

#include "base/clock.h"
#include "core/board_snapshot.h"
#include "db/database.h"

namespace rankd {

void Database::MaybeTakeView(Entry* e) {
  if (may_roll_periods && !may_roll_periods()) return;
  SortedSet& z = e->value.zset();
  // A loaded board is known from its first lookup on.
  if (!scheduled_boards_.contains(e->key())) scheduled_boards_.emplace(e->key());
  const int64_t now = WallMs();
  const BoardSnapshot* view = z.board_snapshot();
  if (view && now - view->taken_ms() < z.snapshot_every_ms()) return;
  z.BoardTakeView(now);
  if (on_view_taken) on_view_taken(index_, e->key());
}

void Database::NoteIfScheduledBoard(const Entry* e) {
  if (e->value.type() == ValueType::kZSet && e->value.zset().snapshot_every_ms() > 0) {
    NoteScheduledBoard(e->key());
  }
}

void Database::ActiveViews() {
  std::vector<std::string> stale;
  for (const std::string& k : scheduled_boards_) {
    const Entry* e = table_.Find(k);
    if (!e || e->value.type() != ValueType::kZSet || e->value.zset().snapshot_every_ms() == 0) {
      stale.push_back(k);
    }
  }
  for (const std::string& k : stale) scheduled_boards_.erase(k);
  std::vector<std::string> keys(scheduled_boards_.begin(), scheduled_boards_.end());
  for (const std::string& k : keys) Find(k, /*touch_access=*/false);
}

}  // namespace rankd
