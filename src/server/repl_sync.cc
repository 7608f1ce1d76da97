// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Replication, primary side: PSYNC's choice between a partial and a full
// resynchronisation (the full one: repl_fullsync.cc), SYNC and what a
// replica announces before it (REPLCONF capa / rdb-only), and the life of the
// backlog, as Redis 7.0's masterTryPartialResynchronization /
// replicationCron.

#include <algorithm>

#include "base/clock.h"
#include "base/logging.h"
#include "server/replication.h"
#include "server/server.h"

namespace rankd {

std::string Replication::PSync(Client& c, std::string_view replid, int64_t psync_offset) {
  if (!c.conn) return "ERR PSYNC is not allowed here";
  if (TryPartial(c, replid, psync_offset)) {
    sync_partial_ok_++;
    return "";
  }
  if (replid != "?") sync_partial_err_++;
  return StartFullSync(c, /*pre_psync=*/false);
}

void Replication::SetCapa(Client& c, std::string_view capa) {
  if (EqualsIgnoreCase(capa, "eof")) announced_[c.id].eof = true;
  if (EqualsIgnoreCase(capa, "rankd")) announced_[c.id].rankd = true;
}

void Replication::SetRdbOnly(Client& c, bool on) { announced_[c.id].rdb_only = on; }

std::string Replication::Sync(Client& c) {
  if (!c.conn) return "ERR SYNC is not allowed here";
  return StartFullSync(c, /*pre_psync=*/true);
}

void Replication::SendFullResync(ReplicaInfo& r, Connection& conn) {
  if (r.pre_psync) return;  // SYNC's client expects the payload at once
  conn.AppendExempt("+FULLRESYNC " + replid_ + " " + std::to_string(job_offset_) + "\r\n");
}

bool Replication::TryPartial(Client& c, std::string_view replid, int64_t psync_offset) {
  // The replica's history must be ours, or the one we continued from up to
  // where we left it (PSYNC2), and the backlog must still hold what it lacks.
  const bool ours = replid == replid_;
  const bool previous = replid == replid2_ && psync_offset <= second_offset_;
  if (!backlog_ || (!ours && !previous)) {
    if (replid != "?") {
      LOG_NOTICE("Partial resynchronization not accepted: Replication ID mismatch (Replica asked "
                 "for '%s', my replication IDs are '%s' and '%s')",
                 std::string(replid).c_str(), replid_.c_str(), replid2_.c_str());
    }
    return false;
  }
  if (psync_offset < 0 || !backlog_->Covers(static_cast<uint64_t>(psync_offset))) {
    LOG_NOTICE("Unable to partial resync with replica for lack of backlog (Replica request was: "
               "%lld).", static_cast<long long>(psync_offset));
    return false;
  }
  ReplyBuilder& r = *c.reply;
  r.Raw("+CONTINUE " + replid_ + "\r\n");
  r.Raw(backlog_->CopyFrom(static_cast<uint64_t>(psync_offset)));
  AddReplica(c);
  LOG_NOTICE("Partial resynchronization request accepted. Sending %lld bytes of backlog starting "
             "from offset %lld.",
             static_cast<long long>(offset_ + 1 - psync_offset),
             static_cast<long long>(psync_offset));
  return true;
}

void Replication::AddReplica(Client& c) {
  ReplicaInfo info;
  for (const ReplicaInfo& existing : replicas_) {
    if (existing.client_id == c.id) info = existing;  // a second PSYNC on one link
  }
  std::erase_if(replicas_, [&](const ReplicaInfo& x) { return x.client_id == c.id; });
  info.client_id = c.id;
  c.repl_role = Client::ReplRole::kReplica;
  info.port = ListeningPort(c.id);
  const std::string& peer = c.conn->peer();
  info.ip = peer.substr(0, peer.rfind(':'));
  if (info.ip.size() > 2 && info.ip.front() == '[') info.ip = info.ip.substr(1, info.ip.size() - 2);
  if (auto it = pending_ips_.find(c.id); it != pending_ips_.end()) info.ip = it->second;
  info.ack_offset = 0;
  info.last_ack_ms = MonoMs();
  replicas_.push_back(info);
  c.conn->set_replica_class();  // client-output-buffer-limit replica
}

void Replication::CreateBacklog() {
  backlog_ = std::make_unique<ReplBacklog>(server_->config().repl_backlog_size, offset_ + 1);
  no_replicas_since_ms_ = MonoMs();
}

void Replication::BacklogCron(int64_t now_ms) {
  if (!backlog_) return;
  const Config& cfg = server_->config();
  // As Redis: a primary alone for repl-backlog-ttl seconds frees it and
  // starts a new history; a replica keeps it (it may be promoted).
  if (is_replica() || !replicas_.empty() || cfg.repl_backlog_ttl == 0) return;
  if (now_ms - no_replicas_since_ms_ < cfg.repl_backlog_ttl * 1000) return;
  LOG_NOTICE("Replication backlog freed after %lld seconds without connected replicas.",
             static_cast<long long>(cfg.repl_backlog_ttl));
  backlog_.reset();
  replid_ = RandomReplid();
  replid2_ = std::string(40, '0');
  second_offset_ = -1;
}

void Replication::DisconnectReplicas() {
  std::vector<uint64_t> ids;
  for (const ReplicaInfo& r : replicas_) ids.push_back(r.client_id);
  for (uint64_t id : ids) {
    if (Connection* conn = server_->net().Find(id)) conn->Kill();
  }
}

}  // namespace rankd
