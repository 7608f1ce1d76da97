// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Replication, primary side: full sync, the command stream, ACKs and WAIT.

#include <unistd.h>

#include <algorithm>
#include <random>

#include "base/clock.h"
#include "base/logging.h"
#include "base/numbers.h"
#include "server/errors.h"
#include "server/replication.h"
#include "server/server.h"

namespace rankd {
namespace {

std::string NewReplid() {
  static const char kHex[] = "0123456789abcdef";
  std::random_device rd;
  std::mt19937_64 gen((static_cast<uint64_t>(rd()) << 32) ^ rd() ^ static_cast<uint64_t>(WallMs()));
  std::string id(40, '0');
  for (char& ch : id) ch = kHex[gen() & 15];
  return id;
}

void EncodeArray(std::span<const std::string_view> args, std::string* out) {
  out->append("*").append(std::to_string(args.size())).append("\r\n");
  for (std::string_view a : args) {
    out->append("$").append(std::to_string(a.size())).append("\r\n");
    out->append(a).append("\r\n");
  }
}

}  // namespace

Replication::Replication(Server* server)
    : server_(server), replid_(NewReplid()), parser_(std::make_unique<RespParser>()) {
  // As Redis: PINGs every repl-ping-replica-period seconds counted from the
  // start, not one as soon as a first replica comes (the offset stays 0).
  last_ping_ms_ = MonoMs();
  cron_timer_ = server_->loop().AddTimer(1000, [this] { Cron(); });
}

Replication::~Replication() {
  DropLink(/*retry=*/false);
  server_->loop().CancelTimer(cron_timer_);
  if (start_timer_) server_->loop().CancelTimer(start_timer_);
  if (pump_timer_) server_->loop().CancelTimer(pump_timer_);
  if (job_fd_ >= 0) {
    if (job_fd_polled_) server_->loop().RemoveFd(job_fd_);
    close(job_fd_);
  }
  for (const Waiter& w : waiters_) {
    if (w.timer) server_->loop().CancelTimer(w.timer);
  }
}

std::string Replication::RandomReplid() { return NewReplid(); }

void Replication::EncodeCommand(std::span<const std::string_view> args, std::string* out) {
  EncodeArray(args, out);
}

void Replication::Feed(int db, std::span<const std::string_view> args) {
  // A replica proxies its primary's stream instead (ApplyStream); its own
  // writes (a writable replica, its expiry) stay local, as Redis.
  if (is_replica() || (replicas_.empty() && !backlog_)) return;
  encode_buf_.clear();
  if (db != last_db_) {
    std::string index = std::to_string(db);
    std::string_view select[] = {"SELECT", index};
    EncodeArray(select, &encode_buf_);
    last_db_ = db;
  }
  EncodeArray(args, &encode_buf_);
  AppendStream(encode_buf_);
}

void Replication::AppendStream(std::string_view bytes) {
  offset_ += bytes.size();
  if (backlog_) {
    // CONFIG SET repl-backlog-size applies from the next byte.
    const int64_t size = std::max(server_->config().repl_backlog_size, ReplBacklog::kMinSize);
    if (backlog_->size() != size) backlog_->Resize(size);
    backlog_->Append(bytes);
  }
  for (ReplicaInfo& r : replicas_) {
    if (r.sync == ReplicaInfo::Sync::kWaitStart) continue;  // nothing before the fork
    Connection* conn = server_->net().Find(r.client_id);
    if (!conn) continue;  // closing
    // A replica in a full sync gets the stream from the fork on after the
    // snapshot (repl_fullsync.cc). What is held counts toward its output
    // limit (client-output-buffer-limit replica), as in Redis 7.0 where it
    // is the replica's share of the replication buffer.
    if (r.sync == ReplicaInfo::Sync::kWaitEnd) {
      r.pending.append(bytes);
      conn->set_held_output(r.pending.size());
    } else {
      conn->reply()->Raw(bytes);
    }
    if (conn->EnforceOutputLimit()) {
      DropHeld(r);  // closed (OnClose follows this iteration): free it now
      continue;
    }
    conn->ScheduleFlush();
  }
}

void Replication::Cron() {
  cron_timer_ = server_->loop().AddTimer(1000, [this] { Cron(); });
  const int64_t now = MonoMs();
  const Config& cfg = server_->config();
  BacklogCron(now);
  if (!is_replica() && !replicas_.empty() && failover_state_ == FailoverState::kNone &&
      now - last_ping_ms_ >= cfg.repl_ping_replica_period * 1000) {
    last_ping_ms_ = now;
    std::string_view ping[] = {"PING"};
    encode_buf_.clear();
    EncodeArray(ping, &encode_buf_);
    AppendStream(encode_buf_);
  }
  SendKeepAlives();
  for (const ReplicaInfo& r : replicas_) {
    // As Redis: only online replicas time out (a full sync may take long).
    if (r.sync != ReplicaInfo::Sync::kOnline || r.pre_psync) continue;
    // A replica loading a long snapshot sends newlines instead of ACKs: any
    // bytes from it are a sign of life (Redis counts the newlines).
    Connection* conn = server_->net().Find(r.client_id);
    const int64_t heard = std::max(r.last_ack_ms, conn ? conn->last_read_ms() : 0);
    if (now - heard <= cfg.repl_timeout * 1000) continue;
    LOG_WARNING("Disconnecting timedout replica (streaming sync): %s:%lld", r.ip.c_str(),
                static_cast<long long>(r.port));
    if (conn) conn->Kill();
  }
  if (state_ != State::kNone && state_ != State::kConnect && fd_ >= 0 &&
      now - last_io_ms_ > cfg.repl_timeout * 1000) {
    // Redis's words for each step: the handshake, the snapshot, the stream.
    if (state_ == State::kTransfer) {
      LOG_WARNING("Timeout receiving bulk data from MASTER... If the problem persists try to "
                  "set the 'repl-timeout' parameter in redis.conf to a larger value.");
    } else if (state_ != State::kConnected) {
      LOG_WARNING("Timeout connecting to the MASTER...");
    } else {
      LOG_WARNING("MASTER timeout: no data nor PING received...");
    }
    DropLink(/*retry=*/true);
  }
}

void Replication::SetListeningPort(Client& c, int64_t port) {
  pending_ports_[c.id] = port;
  for (ReplicaInfo& r : replicas_) {
    if (r.client_id == c.id) r.port = port;
  }
}

void Replication::SetAnnouncedIp(Client& c, std::string_view ip) {
  pending_ips_[c.id] = std::string(ip);
  for (ReplicaInfo& r : replicas_) {
    if (r.client_id == c.id) r.ip = std::string(ip);
  }
}

int64_t Replication::ListeningPort(uint64_t client_id) const {
  auto it = pending_ports_.find(client_id);
  return it == pending_ports_.end() ? 0 : it->second;
}

void Replication::Ack(Client& c, uint64_t offset) {
  for (ReplicaInfo& r : replicas_) {
    if (r.client_id != c.id) continue;
    r.ack_offset = std::max(r.ack_offset, offset);
    r.last_ack_ms = MonoMs();
  }
  std::vector<uint64_t> done;
  for (const Waiter& w : waiters_) {
    if (CountAcked(w.target) >= w.needed) done.push_back(w.client_id);
  }
  for (uint64_t id : done) FinishWait(id);
  if (failover_state_ == FailoverState::kWaitForSync) UpdateFailover();
}

std::string_view Replication::Refusal(const Client& c, bool write, bool deny_stale) const {
  if (c.obeyed) return "";
  const Config& cfg = server_->config();
  if (write && !is_replica() && cfg.min_replicas_to_write > 0 && cfg.min_replicas_max_lag > 0 &&
      GoodReplicas() < cfg.min_replicas_to_write) {
    return err::kNoReplicas;
  }
  if (write && is_replica() && cfg.replica_read_only) return err::kReadOnlyReplica;
  if (deny_stale && is_replica() && !link_up() && !cfg.replica_serve_stale_data) {
    return err::kMasterDown;
  }
  return "";
}

int64_t Replication::GoodReplicas() const {
  const int64_t now = MonoMs();
  int64_t n = 0;
  for (const ReplicaInfo& r : replicas_) {
    if (r.sync != ReplicaInfo::Sync::kOnline) continue;
    if ((now - r.last_ack_ms) / 1000 <= server_->config().min_replicas_max_lag) n++;
  }
  return n;
}

bool Replication::IsReplicaClient(const Client& c) const {
  // Set by AddReplica; its entry in replicas_ lasts until the client closes.
  return c.repl_role == Client::ReplRole::kReplica;
}

void Replication::ClientClosed(Client& c) {
  if (const ReplicaInfo* r = FindReplica(c.id)) {
    // Redis's replicationGetSlaveName: ip:listening-port.
    const std::string port = r->port ? std::to_string(r->port) : "<unknown-replica-port>";
    LOG_WARNING("Connection with replica %s:%s lost.", r->ip.c_str(), port.c_str());
  }
  pending_ports_.erase(c.id);
  pending_ips_.erase(c.id);
  announced_.erase(c.id);
  const size_t before = replicas_.size();
  std::erase_if(replicas_, [&](const ReplicaInfo& r) { return r.client_id == c.id; });
  if (before && replicas_.empty()) no_replicas_since_ms_ = MonoMs();
  for (const Waiter& w : waiters_) {
    if (w.client_id == c.id && w.timer) server_->loop().CancelTimer(w.timer);
  }
  std::erase_if(waiters_, [&](const Waiter& w) { return w.client_id == c.id; });
}

int64_t Replication::CountAcked(uint64_t offset) const {
  int64_t n = 0;
  for (const ReplicaInfo& r : replicas_) {
    if (r.ack_offset >= offset) n++;
  }
  return n;
}

void Replication::Wait(Client& c, int64_t numreplicas, int64_t timeout_ms, bool no_block) {
  const uint64_t target = offset_;
  const int64_t acked = CountAcked(target);
  // As Redis: inside MULTI / a script it answers at once.
  if (acked >= numreplicas || !c.conn || no_block) return c.reply->Integer(acked);
  Waiter w{c.id, target, numreplicas, 0};
  if (timeout_ms > 0) {
    const uint64_t id = c.id;
    w.timer = server_->loop().AddTimer(timeout_ms, [this, id] {
      for (Waiter& x : waiters_) {
        if (x.client_id == id) x.timer = 0;
      }
      FinishWait(id);
    });
  }
  waiters_.push_back(w);
  c.conn->Pause();
  RequestAcks();
}

void Replication::RequestAcks() {
  if (replicas_.empty()) return;
  std::string_view getack[] = {"REPLCONF", "GETACK", "*"};
  encode_buf_.clear();
  EncodeArray(getack, &encode_buf_);
  AppendStream(encode_buf_);
}

void Replication::FinishWait(uint64_t client_id) {
  auto it = std::find_if(waiters_.begin(), waiters_.end(),
                         [&](const Waiter& w) { return w.client_id == client_id; });
  if (it == waiters_.end()) return;
  const Waiter w = *it;
  waiters_.erase(it);
  if (w.timer) server_->loop().CancelTimer(w.timer);
  Client* c = server_->FindClient(client_id);
  if (!c || !c->conn) return;
  c->reply->Integer(CountAcked(w.target));
  c->conn->Resume();
}

}  // namespace rankd
