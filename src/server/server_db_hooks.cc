// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// What the server does when a database reports a change it made on its own
// or that others must hear of: expiry (keys, hash fields, members), period
// rolls, touches (WATCH, client tracking, LB.WATCH), flushes, swaps and new
// keys. Each becomes keyspace events and, for deletions the database decided
// itself, an effect for the log and the replicas.

#include <string>
#include <vector>

#include "server/effect_targets.h"
#include "server/notify.h"
#include "server/replication.h"
#include "server/server.h"

namespace rankd {

void Server::ConnectDatabase(Database& d) {
  d.set_modification_counter(&modifications_);
  d.set_lfu(&lfu_);
  d.set_lazy_free(&lazy_policy_);
  d.set_replica_expiry(&replica_expiry_);
  d.on_expired = [this](int db, std::string_view key) {
    NotifyKeyspaceEvent(kNotifyExpired, "expired", key, db);
    std::string_view args[] = {"DEL", key};
    EffectTargetsScope all;  // the server's own effect, whatever a script chose
    EmitServerEffect(db, args);  // replicas get it at once (Redis 7.0)
  };
  d.on_touch = [this](int db, std::string_view key) {
    tracking_.KeyChanged(key, dbs_[db]->expiring_key() ? nullptr : current_client_,
                         current_client_);
    board_watch_.KeyChanged(db, key);
  };
  // The common write: no tracking client, no LB.WATCH: Touch skips on_touch.
  d.touch_listened = [](const void* arg) {
    const Server* s = static_cast<const Server*>(arg);
    return !s->tracking_.idle() || s->board_watch_.watched_boards() > 0;
  };
  d.touch_listened_arg = this;
  d.on_flush = [this](int db) {
    tracking_.Flushed(current_client_);
    board_watch_.DbChanged(db);
  };
  d.on_swap = [this](int db) { board_watch_.DbChanged(db); };
  d.on_new_key = [this](int db, std::string_view key) {
    NotifyKeyspaceEvent(kNotifyNew, "new", key, db);
  };
  d.on_fields_expired = [this](int db, std::string_view key,
                               const std::vector<std::string>& fields, bool emptied) {
    // Redis 7.4's events (no 7.0 oracle): "hexpired", then "del".
    NotifyKeyspaceEvent(kNotifyHash, "hexpired", key, db);
    if (emptied) NotifyKeyspaceEvent(kNotifyGeneric, "del", key, db);
    std::vector<std::string_view> args = {"HDEL", key};
    args.insert(args.end(), fields.begin(), fields.end());
    EffectTargetsScope all;
    EmitEffect(db, args);  // the log and the replicas
  };
  d.may_roll_periods = [this] { return !hold_period_rolls_ && !repl_->is_replica(); };
  d.on_period_rolled = [this](int db, std::string_view key, const std::string& id) {
    NotifyKeyspaceEvent(kNotifyZset, "lb.roll", key, db);
    const std::string_view args[] = {"LB.ROLL", key, id};
    EffectTargetsScope all;
    EmitEffect(db, args);  // the log and the replicas
  };
  d.on_view_taken = [this](int db, std::string_view key) {
    ViewTaken(db, key);
    const std::string_view args[] = {"LB.SNAPSHOT", key};
    EffectTargetsScope all;
    EmitEffect(db, args);  // the log and the replicas take the same view
  };
  d.on_members_expired = [this](int db, std::string_view key,
                                const std::vector<std::string>& members, bool emptied) {
    // As 7.4's hexpired: "zexpired", then "del" when the set is gone.
    NotifyKeyspaceEvent(kNotifyZset, "zexpired", key, db);
    if (emptied) NotifyKeyspaceEvent(kNotifyGeneric, "del", key, db);
    std::vector<std::string_view> args = {"ZREM", key};
    args.insert(args.end(), members.begin(), members.end());
    EffectTargetsScope all;
    EmitEffect(db, args);  // the log and the replicas
  };
}

void Server::ViewTaken(int db, std::string_view key) {
  // Not a modification (WATCH and LB.WATCH follow the live board), but
  // what SNAPSHOT reads answer changed: cached reads are stale.
  NotifyKeyspaceEvent(kNotifyZset, "lb.snapshot", key, db);
  tracking_.KeyChanged(key, current_client_);
}

}  // namespace rankd
