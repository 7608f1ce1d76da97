// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// INFO leaderboards (issue 33): what rankd's own features hold, summed over
// the databases. Boards are counted by the names each database registered
// when they were stored (db/board_views.cc), so the cost is O(boards) plus
// O(keys with member deadlines), never a walk of the keyspace.

#include "commands/info_writer.h"
#include "server/board_watch.h"
#include "server/server.h"

namespace rankd {

void LeaderboardsInfoSection(Server& s, InfoWriter& w) {
  Database::BoardCounts boards;
  int64_t deadline_keys = 0, deadlines = 0, next_deadline = -1;
  for (int i = 0; i < s.db_count(); i++) {
    Database& db = s.db(i);
    const Database::BoardCounts n = db.CountBoards();
    boards.boards += n.boards;
    boards.periodic += n.periodic;
    boards.scheduled += n.scheduled;
    boards.views += n.views;
    deadline_keys += static_cast<int64_t>(db.member_deadline_keys());
    deadlines += static_cast<int64_t>(db.PendingMemberDeadlines());
    const int64_t next = db.next_member_expire();
    if (next >= 0 && (next_deadline < 0 || next < next_deadline)) next_deadline = next;
  }
  w.Section("Leaderboards");
  w.Field("boards", static_cast<int64_t>(boards.boards));
  w.Field("periodic_boards", static_cast<int64_t>(boards.periodic));
  w.Field("scheduled_snapshot_boards", static_cast<int64_t>(boards.scheduled));
  w.Field("snapshots", static_cast<int64_t>(boards.views));
  w.Field("watched_boards", static_cast<int64_t>(s.board_watch().watched_boards()));
  w.Field("watchers", static_cast<int64_t>(s.board_watch().watches()));
  w.Field("member_deadline_keys", deadline_keys);
  w.Field("member_deadlines", deadlines);
  w.Field("next_member_deadline_ms", next_deadline);
}

}  // namespace rankd
