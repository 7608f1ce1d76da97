// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Replication, replica side: the link to the primary. A non-blocking
// connection on the event loop runs the handshake one command at a time
// (PING, AUTH, REPLCONF listening-port, REPLCONF capa, PSYNC), reads the
// snapshot bulk, loads it, then applies the command stream (repl_apply.cc)
// and sends REPLCONF ACK every second.

#include <netdb.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "base/clock.h"
#include "base/logging.h"
#include "base/numbers.h"
#include "server/replication.h"
#include "server/server.h"

namespace rankd {
namespace {

constexpr int64_t kRetryMs = 1000;
constexpr int64_t kAckPeriodMs = 1000;

// bind-source-addr: the link leaves from that address, as Redis binds its
// socket before connecting. False (errno set) if it cannot.
bool BindSource(int fd, const Config& config) {
  auto it = config.compat_strings.find("bind-source-addr");
  if (it == config.compat_strings.end() || it->second.empty()) return true;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* res = nullptr;
  if (getaddrinfo(it->second.c_str(), nullptr, &hints, &res) != 0 || !res) {
    errno = EADDRNOTAVAIL;
    return false;
  }
  const bool ok = bind(fd, res->ai_addr, res->ai_addrlen) == 0;
  freeaddrinfo(res);
  return ok;
}

}  // namespace

bool Replication::ReplicaOf(const std::string& host, int64_t port, bool own_history) {
  if (host == master_host_ && port == master_port_) return false;
  own_history_ = own_history;
  server_->config().replicaof = {host, std::to_string(port)};  // CONFIG GET / REWRITE
  if (!is_replica()) link_down_since_ms_ = 0;
  DropLink(/*retry=*/false);
  // As Redis: the replicas of this server resync from its new history.
  DisconnectReplicas();
  // As Redis's replicationCacheMasterUsingMyself: a primary offers its own
  // history (replid, offset) to the new primary, which continues it when it
  // is one of its replids (a demoted primary after a failover). The stream
  // then continues in the database ours was in.
  if (!master_client_) EnsureMasterClient(last_db_ >= 0 ? last_db_ : 0);
  master_host_ = host;
  master_port_ = port;
  state_ = State::kConnect;
  server_->ApplyOomScore();
  LOG_NOTICE("Connecting to MASTER %s:%lld", host.c_str(), static_cast<long long>(port));
  retry_timer_ = server_->loop().AddTimer(0, [this] {
    retry_timer_ = 0;
    Connect();
  });
  return true;
}

void Replication::BecomePrimary(std::string_view why) {
  if (!is_replica()) return;
  DropLink(/*retry=*/false);
  master_host_.clear();
  master_port_ = 0;
  state_ = State::kNone;
  server_->config().replicaof.clear();
  // PSYNC2: the old history stays known as replid2 up to this offset.
  replid2_ = replid_;
  second_offset_ = static_cast<int64_t>(offset_) + 1;
  replid_ = RandomReplid();
  last_db_ = -1;
  master_client_.reset();
  // Redis 7.0 keeps the backlog, so the other replicas of the old primary
  // continue with PSYNC from here; its replicas learn the new replid.
  if (!backlog_) CreateBacklog();
  DisconnectReplicas();
  server_->ApplyOomScore();
  LOG_NOTICE("MASTER MODE enabled (%s)", std::string(why).c_str());
}

std::string_view Replication::link_state() const {
  switch (state_) {
    case State::kNone:
    case State::kConnect:
      return "connect";
    case State::kConnecting:
      return "connecting";
    case State::kPing:
    case State::kAuth:
    case State::kPort:
    case State::kIp:
    case State::kCapa:
    case State::kPsync:
      return "handshake";  // Redis slaveIsInHandshakeState()
    case State::kTransfer:
      return "sync";
    case State::kConnected:
      return "connected";
  }
  return "connect";
}

int64_t Replication::link_down_seconds() const {
  return link_down_since_ms_ ? (MonoMs() - link_down_since_ms_) / 1000 : -1;
}

int64_t Replication::last_io_seconds_ago() const {
  return last_io_ms_ ? (MonoMs() - last_io_ms_) / 1000 : -1;
}

void Replication::ScheduleRetry() {
  if (!is_replica() || retry_timer_) return;
  retry_timer_ = server_->loop().AddTimer(kRetryMs, [this] {
    retry_timer_ = 0;
    if (state_ == State::kConnect) Connect();
  });
}

void Replication::DropLink(bool retry) {
  if (fd_ >= 0) {
    server_->loop().RemoveFd(fd_);
    close(fd_);
    fd_ = -1;
  }
  if (ack_timer_) server_->loop().CancelTimer(ack_timer_);
  ack_timer_ = 0;
  if (!retry && retry_timer_) {
    server_->loop().CancelTimer(retry_timer_);
    retry_timer_ = 0;
  }
  in_.clear();
  out_.clear();
  in_pos_ = 0;
  receiver_.Abort();
  parser_ = std::make_unique<RespParser>();
  // What was not applied is asked for again (PSYNC from offset_ + 1); a
  // transaction cut by the drop is forgotten, as Redis frees its master.
  unapplied_.clear();
  if (master_client_) {
    master_client_->link_peer.clear();
    master_client_->link_local.clear();
    master_client_->link_fd = -1;
    master_client_->in_multi = false;
    master_client_->multi_error = false;
    master_client_->ClearQueued();
  }
  if (state_ == State::kConnected) link_down_since_ms_ = MonoMs();
  if (state_ != State::kNone) state_ = State::kConnect;
  if (retry) ScheduleRetry();
}

void Replication::Connect() {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  std::string port = std::to_string(master_port_);
  if (getaddrinfo(master_host_.c_str(), port.c_str(), &hints, &res) != 0 || !res) {
    LOG_WARNING("Unable to resolve MASTER %s", master_host_.c_str());
    return ScheduleRetry();
  }
  fd_ = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int rc = fd_ < 0 || !BindSource(fd_, server_->config()) ? -1
                                                          : connect(fd_, res->ai_addr, res->ai_addrlen);
  freeaddrinfo(res);
  if (rc < 0 && errno != EINPROGRESS) {
    LOG_WARNING("Error condition on socket for SYNC: %s", strerror(errno));
    return DropLink(/*retry=*/true);
  }
  state_ = State::kConnecting;
  last_io_ms_ = MonoMs();  // repl-timeout counts from the connect
  if (!server_->loop().AddFd(fd_, EPOLLOUT, [this](uint32_t ev) { OnLinkEvent(ev); })) {
    close(fd_);
    fd_ = -1;
    return DropLink(/*retry=*/true);
  }
}

void Replication::OnLinkEvent(uint32_t events) {
  if (state_ == State::kConnecting) {
    int err = 0;
    socklen_t len = sizeof(err);
    getsockopt(fd_, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0 || (events & (EPOLLERR | EPOLLHUP))) {
      LOG_WARNING("Error condition on socket for SYNC: %s", strerror(err ? err : ECONNREFUSED));
      return DropLink(/*retry=*/true);
    }
    LOG_NOTICE("MASTER <-> REPLICA sync started");
    server_->loop().ModifyFd(fd_, EPOLLIN);
    state_ = State::kPing;
    last_io_ms_ = MonoMs();
    return SendCommand({"PING"});
  }
  if ((events & EPOLLOUT) && !out_.empty()) FlushOut();
  if (fd_ >= 0 && (events & (EPOLLIN | EPOLLERR | EPOLLHUP))) ReadLink();
}

void Replication::SendCommand(std::initializer_list<std::string_view> args) {
  EncodeCommand(std::span<const std::string_view>(args.begin(), args.size()), &out_);
  FlushOut();
}

void Replication::FlushOut() {
  while (fd_ >= 0 && !out_.empty()) {
    ssize_t n = send(fd_, out_.data(), out_.size(), MSG_NOSIGNAL);
    if (n > 0) {
      out_.erase(0, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    LOG_WARNING("Error writing to MASTER: %s", strerror(errno));
    return DropLink(/*retry=*/true);
  }
  if (fd_ >= 0) server_->loop().ModifyFd(fd_, out_.empty() ? EPOLLIN : EPOLLIN | EPOLLOUT);
}

void Replication::ReadLink() {
  char buf[64 * 1024];
  // At most 1 MB per readable event: a snapshot goes to its file as it
  // arrives rather than piling up here (the event fires again).
  for (int reads = 0; reads < 16; reads++) {
    ssize_t n = read(fd_, buf, sizeof(buf));
    if (n > 0) {
      in_.append(buf, static_cast<size_t>(n));
      if (n < static_cast<ssize_t>(sizeof(buf))) break;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    LOG_WARNING("Connection with master lost");
    return DropLink(/*retry=*/true);
  }
  last_io_ms_ = MonoMs();
  // Handshake replies, then the snapshot, then the stream.
  while (fd_ >= 0 && state_ >= State::kPing && state_ <= State::kPsync) {
    // A primary preparing the snapshot sends newlines before +FULLRESYNC.
    while (state_ == State::kPsync && in_pos_ < in_.size() && in_[in_pos_] == '\n') in_pos_++;
    size_t eol = in_.find("\r\n", in_pos_);
    if (eol == std::string::npos) break;
    std::string line = in_.substr(in_pos_, eol - in_pos_);
    in_pos_ = eol + 2;
    HandleLine(line);
  }
  if (fd_ >= 0 && state_ == State::kTransfer) ReadSnapshot();
  if (fd_ >= 0 && state_ == State::kConnected) ApplyStream();
  if (fd_ >= 0) {
    in_.erase(0, in_pos_);
    in_pos_ = 0;
  }
}

void Replication::HandleLine(std::string_view line) {
  const bool error = !line.empty() && line[0] == '-';
  switch (state_) {
    case State::kPing:
      // As Redis: -NOAUTH / -NOPERM are fine here, AUTH follows.
      if (error && line.substr(0, 7) != "-NOAUTH" && line.substr(0, 7) != "-NOPERM") {
        LOG_WARNING("Error reply to PING from master: '%s'", std::string(line).c_str());
        return DropLink(/*retry=*/true);
      }
      if (!server_->config().masterauth.empty()) {
        state_ = State::kAuth;
        if (server_->config().masteruser.empty()) {
          return SendCommand({"AUTH", server_->config().masterauth});
        }
        return SendCommand({"AUTH", server_->config().masteruser, server_->config().masterauth});
      }
      [[fallthrough]];
    case State::kAuth:
      if (error) {
        LOG_WARNING("Unable to AUTH to MASTER: %s", std::string(line).c_str());
        return DropLink(/*retry=*/true);
      }
      state_ = State::kPort;
      return SendCommand({"REPLCONF", "listening-port",
                          std::to_string(server_->config().replica_announce_port
                                             ? server_->config().replica_announce_port
                                             : server_->port())});
    case State::kPort:
      // Errors of the REPLCONFs are only logged, as Redis.
      if (!server_->config().replica_announce_ip.empty()) {
        state_ = State::kIp;
        return SendCommand({"REPLCONF", "ip-address", server_->config().replica_announce_ip});
      }
      [[fallthrough]];
    case State::kIp:
      state_ = State::kCapa;
      return SendCommand({"REPLCONF", "capa", "eof", "capa", "psync2", "capa", "rankd"});
    case State::kCapa:
      state_ = State::kPsync;
      if (!own_history_) {
        LOG_NOTICE("Partial resynchronization not possible (no cached master)");
        return SendCommand({"PSYNC", "?", "-1"});
      }
      // Our history, to be continued if the primary's backlog has it.
      LOG_NOTICE("Trying a partial resynchronization (request %s:%llu).", replid_.c_str(),
                 static_cast<unsigned long long>(offset_ + 1));
      if (failover_state_ == FailoverState::kInProgress) {  // we hand our primary role over
        return SendCommand({"PSYNC", replid_, std::to_string(offset_ + 1), "FAILOVER"});
      }
      return SendCommand({"PSYNC", replid_, std::to_string(offset_ + 1)});
    case State::kPsync:
      if (failover_state_ == FailoverState::kInProgress) {
        const bool ok = !error;
        if (!ok) return FailoverPsyncReply(false);  // becomes a primary again
        FailoverPsyncReply(true);
      }
      if (!HandlePsyncReply(line)) DropLink(/*retry=*/true);
      return;
    default:
      return;
  }
}

bool Replication::HandlePsyncReply(std::string_view line) {
  if (line.substr(0, 12) == "+FULLRESYNC ") {
    std::string_view rest = line.substr(12);
    size_t sp = rest.find(' ');
    int64_t off = 0;
    if (sp != 40 || !ParseInt64(rest.substr(sp + 1), &off) || off < 0) return false;
    // Taken once the snapshot is loaded: until then our data is the old one.
    pending_replid_ = std::string(rest.substr(0, sp));
    pending_offset_ = static_cast<uint64_t>(off);
    LOG_NOTICE("Full resync from master: %s:%lld", pending_replid_.c_str(),
               static_cast<long long>(off));
    state_ = State::kTransfer;
    receiver_.Abort();
    return true;
  }
  if (line.substr(0, 9) == "+CONTINUE") {
    std::string_view id = line.size() > 10 ? line.substr(10) : std::string_view();
    if (id.size() == 40 && id != replid_) {
      // The primary continues our history under a new replid (a promoted
      // replica): ours becomes the previous one, as Redis.
      replid2_ = replid_;
      second_offset_ = static_cast<int64_t>(offset_) + 1;
      replid_ = std::string(id);
      LOG_NOTICE("Master replication ID changed to %s", replid_.c_str());
      DisconnectReplicas();
    }
    if (!backlog_) CreateBacklog();
    LOG_NOTICE("Successful partial resynchronization with master.");
    EnsureMasterClient(0);
    LinkEstablished();
    return true;
  }
  LOG_WARNING("Unexpected reply to PSYNC from master: %s", std::string(line).c_str());
  return false;
}

void Replication::EnsureMasterClient(int db) {
  if (master_client_) return;
  master_client_ = std::make_unique<Client>();
  master_client_->id = server_->net().TakeId();
  master_client_->repl_role = Client::ReplRole::kMaster;
  master_client_->user_name = "(superuser)";  // as Redis names a client without a user
  master_client_->reply = &master_reply_;
  master_client_->authenticated = true;
  master_client_->obeyed = true;
  master_client_->created_ms = MonoMs();
  master_client_->db_index = db;
}

void Replication::LinkEstablished() {
  state_ = State::kConnected;
  master_client_->link_peer = SocketPeer(fd_);
  master_client_->link_local = SocketLocal(fd_);
  master_client_->link_fd = fd_;
  SendAck();
  AckTimer();
}

bool Replication::KillLink() {
  if (!is_replica() || fd_ < 0) return false;
  LOG_NOTICE("Connection with master lost (CLIENT KILL).");
  DropLink(/*retry=*/true);
  return true;
}

void Replication::SendAck() {
  if (state_ != State::kConnected) return;
  SendCommand({"REPLCONF", "ACK", std::to_string(offset_)});
}

void Replication::AckTimer() {
  ack_timer_ = server_->loop().AddTimer(kAckPeriodMs, [this] {
    ack_timer_ = 0;
    if (state_ != State::kConnected) return;
    SendAck();
    if (state_ == State::kConnected && !ack_timer_) AckTimer();
  });
}

}  // namespace rankd
