// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Replication: Redis's protocol between rankd processes, both sides.
//
// Primary side (server/repl_primary.cc): a replica connects as a client,
// runs the handshake (PING, AUTH, REPLCONF listening-port / capa, PSYNC) and
// gets "+FULLRESYNC <replid> <offset>", the snapshot as "$<len>\r\n<payload>"
// or "$EOF:<mark>\r\n<payload><mark>" (diskless; rankd's own snapshot
// format, produced by the durability layer), then the
// command stream: every effect the append-only log records (EffectLog), as
// RESP arrays, with SELECT whenever the database changes. The replication
// offset counts the bytes of that stream. Replicas send REPLCONF ACK
// <offset> every second; WAIT counts replicas whose acknowledged offset has
// reached the primary's offset at the time of the WAIT.
//
// Replica side (server/repl_link.cc): REPLICAOF host port connects out on
// the event loop (non-blocking), does the handshake, loads the snapshot and
// applies the stream through a client of its own (the master client), which
// may write although the replica is read-only.
//
// Both roles keep a backlog (server/repl_backlog.h) of the stream: a replica
// that reconnects with PSYNC <replid> <offset> gets "+CONTINUE <replid>" and
// the bytes it missed when they are still there (also under the previous
// replid up to second_offset after a promotion: PSYNC2), else a full sync.
// A replica proxies its primary's exact stream to its own replicas and its
// backlog, so offsets and replid are the primary's all along a chain.
// Repl_sync.cc holds PSYNC's choice and the backlog's life.
//
// A redis-server primary works too (migration from Redis): its snapshot is
// Redis's RDB (loaded with persist/rdb_reader.h by the durability layer),
// sent as "$<len>" or, diskless, as "$EOF:<40-byte mark>" ... <mark>; its
// stream is RESP commands like ours.
//
// A full sync's snapshot comes from a fork()ed child, streamed diskless or
// through a file, one for every replica waiting (repl_fullsync.cc).
// Not thread-safe.

#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "base/status.h"
#include "net/reply.h"
#include "net/resp_parser.h"
#include "server/client.h"
#include "server/repl_backlog.h"
#include "server/repl_receive.h"

namespace rankd {

class Server;

struct ReplicaInfo {
  // A full sync's steps (Redis's WAIT_BGSAVE_START, WAIT_BGSAVE_END and
  // SEND_BULK together, ONLINE).
  enum class Sync { kWaitStart, kWaitEnd, kOnline };
  uint64_t client_id = 0;
  std::string ip;
  int64_t port = 0;           // REPLCONF listening-port
  uint64_t ack_offset = 0;    // last REPLCONF ACK
  int64_t last_ack_ms = 0;    // monotonic
  Sync sync = Sync::kOnline;
  bool capa_eof = false;      // REPLCONF capa eof: takes "$EOF:" (diskless)
  // REPLCONF capa rankd: a rankd replica, sent rankd's own snapshot (which
  // keeps boards' tie order and member deadlines); others get a Redis RDB.
  bool capa_rankd = false;
  bool pre_psync = false;     // came with SYNC: no +FULLRESYNC line, no ACKs
  bool rdb_only = false;      // REPLCONF rdb-only 1: closed after the snapshot
  int64_t wait_since_ms = 0;  // monotonic: when its full sync was asked for
  std::string pending;        // the stream since the fork, sent after the snapshot
  // INFO's state= ("wait_bgsave", "send_bulk", "online").
  std::string_view state_name() const;
};

class Replication {
 public:
  explicit Replication(Server* server);
  ~Replication();
  Replication(const Replication&) = delete;
  Replication& operator=(const Replication&) = delete;

  // Set by the durability layer. start_snapshot: forks the child that
  // writes a full sync's snapshot of the data set as it is now (BGSAVE's
  // mechanism): diskless, into a pipe whose read end it returns in *fd;
  // else into a file whose path it returns in *path; `redis_rdb`: as a
  // Redis RDB (persist/rdb_file.h) for replicas other than rankd's, else
  // rankd's own snapshot format. "" or the error.
  // SnapshotDone() follows when the child exits. child_busy: another child
  // runs (BGSAVE, a log rewrite): the full sync waits for it. reap_snapshot:
  // (its pipe ended) reaps the child if it exited, else never waits: then
  // SnapshotDone() follows once it exits. load_snapshot: the replica loads.
  std::function<std::string(bool diskless, bool redis_rdb, int* fd, std::string* path)>
      start_snapshot;
  std::function<bool()> child_busy;
  std::function<void()> reap_snapshot;
  // load_snapshot gets the snapshot's file and calls `keep_alive` about once
  // a second while it loads (the primary takes it as a sign of life).
  std::function<Status(const std::string& path, const std::function<void()>& keep_alive)>
      load_snapshot;
  // The snapshot child exited (`ok`: it wrote the whole snapshot).
  void SnapshotDone(bool ok);
  // REPLCONF capa from client `c` ("eof", "rankd"; others are ignored, as
  // Redis ignores what it does not know).
  void SetCapa(Client& c, std::string_view capa);
  // REPLCONF rdb-only 0|1 (redis-cli --rdb): the snapshot only, no stream.
  void SetRdbOnly(Client& c, bool on);
  // The database the stream is in at a full sync's snapshot (Redis's RDB aux
  // field repl-stream-db, written with the history: SnapshotHistory): the
  // loader hands it back here (a replica's primary SELECTs only when the
  // database changes).
  void set_loaded_stream_db(int db) { loaded_stream_db_ = db; }

  // --- History kept in snapshots (Redis's repl-id / repl-offset /
  // repl-stream-db aux fields; server/repl_history.cc) ---
  struct History {
    std::string replid;
    uint64_t offset = 0;  // of the last stream byte applied to the data
    int stream_db = 0;    // the database the stream is in there
  };
  // What a snapshot of the data set as it is now continues, as Redis's
  // rdbPopulateSaveInfo: a primary with a backlog, or a replica with a
  // primary's history (synced, or offering its own after REPLICAOF); none
  // otherwise. The offset always describes the data exactly: a replica
  // counts a command of its primary's stream only once it has been applied
  // (not while read in part, nor while queued inside MULTI).
  std::optional<History> SnapshotHistory() const;
  // Start-up, after the data set was loaded from a snapshot that carried a
  // history (Redis 7.0's loadDataFromDisk): a replica (`as_replica`:
  // replicaof in the configuration) offers it in PSYNC; a primary keeps it
  // as replid2 / second_repl_offset under a new replid, with a backlog
  // from there, so its replicas continue with +CONTINUE.
  void RestoreHistory(const History& h, bool as_replica);
  bool restored_history() const { return restored_history_; }

  // --- Role ---
  bool is_replica() const { return !master_host_.empty(); }
  const std::string& replid() const { return replid_; }
  uint64_t offset() const { return offset_; }
  // A replica: offset() plus the primary's bytes read and not yet applied
  // (INFO slave_read_repl_offset); a write pause holds the stream's writes.
  uint64_t read_offset() const;
  // A replica: applies the stream held by a pause that has ended.
  void ResumeStream();
  // PSYNC2: the previous history's id (40 zeros: none) and the first offset
  // it does not cover (-1: none).
  const std::string& replid2() const { return replid2_; }
  int64_t second_offset() const { return second_offset_; }

  // --- Primary side (repl_primary.cc) ---
  // One effect for database `db` (the Server calls it with every effect it
  // gives the EffectLog). No-op without replicas.
  void Feed(int db, std::span<const std::string_view> args);
  // PSYNC replid offset from client `c` (repl_sync.cc): +CONTINUE and the
  // missed bytes when the backlog has them, else +FULLRESYNC and the
  // snapshot; `c` becomes a replica. Returns the error text if the snapshot
  // cannot be made.
  std::string PSync(Client& c, std::string_view replid, int64_t psync_offset);
  // SYNC (the pre-PSYNC full sync: redis-cli --rdb, Redis's test suite):
  // the snapshot as "$<len>" or "$EOF:" without a +FULLRESYNC line, then the
  // stream; such a replica sends no ACKs and never times out, as in Redis.
  std::string Sync(Client& c);
  // The backlog, or null (none yet, or freed after repl-backlog-ttl).
  const ReplBacklog* backlog() const { return backlog_.get(); }
  // INFO stats: sync_full, sync_partial_ok, sync_partial_err.
  int64_t sync_full() const { return sync_full_; }
  int64_t sync_partial_ok() const { return sync_partial_ok_; }
  int64_t sync_partial_err() const { return sync_partial_err_; }
  // CONFIG RESETSTAT: the three counters above start again from 0.
  void ResetStats() { sync_full_ = sync_partial_ok_ = sync_partial_err_ = 0; }
  // REPLCONF listening-port / ACK from replica client `c`.
  void SetListeningPort(Client& c, int64_t port);
  void SetAnnouncedIp(Client& c, std::string_view ip);
  void Ack(Client& c, uint64_t offset);
  // A client is going away (drops it from the replicas and waiters).
  void ClientClosed(Client& c);
  // WAIT numreplicas timeout_ms for `c` (replies now or later; at once
  // when `no_block`: inside MULTI/EXEC or a script, as Redis).
  void Wait(Client& c, int64_t numreplicas, int64_t timeout_ms, bool no_block);
  const std::vector<ReplicaInfo>& replicas() const { return replicas_; }
  // Sends REPLCONF GETACK * down the stream (WAIT, a waiting SHUTDOWN).
  void RequestAcks();
  bool IsReplicaClient(const Client& c) const;
  // Why replication refuses a command of client `c` now ("" if it does
  // not), as Redis 7.0's processCommand / scripts: NOREPLICAS for a write
  // without min-replicas-to-write good replicas, READONLY for a write on a
  // read-only replica, MASTERDOWN for a command without the stale flag on a
  // replica whose link is down with replica-serve-stale-data no.
  std::string_view Refusal(const Client& c, bool write, bool deny_stale) const;
  // Replicas that ACKed within min-replicas-max-lag seconds.
  int64_t GoodReplicas() const;
  // A new random 40-hex-digit replication id.
  static std::string RandomReplid();
  // Appends `args` as a RESP array of bulk strings.
  static void EncodeCommand(std::span<const std::string_view> args, std::string* out);
  // Replicas acknowledged at or past `offset`.
  int64_t CountAcked(uint64_t offset) const;

  // --- Replica side (repl_link.cc) ---
  // REPLICAOF host port. Returns false when already replicating from there.
  // `own_history`: offer this server's replid and offset in PSYNC (REPLICAOF
  // at run time), else "PSYNC ? -1" (replicaof in the configuration).
  bool ReplicaOf(const std::string& host, int64_t port, bool own_history = true);
  // REPLICAOF NO ONE: drops the link, becomes a primary with a new replid.
  // `why` ends the log line "MASTER MODE enabled (<why>)".
  void BecomePrimary(std::string_view why = "user request");
  const std::string& master_host() const { return master_host_; }
  int64_t master_port() const { return master_port_; }
  // ROLE's state names, as Redis 7.0: "connect", "connecting", "handshake"
  // (PING to PSYNC's reply), "sync" (receiving the snapshot), "connected".
  std::string_view link_state() const;
  bool link_up() const { return state_ == State::kConnected; }
  int64_t last_io_seconds_ago() const;
  // Seconds since the link went down (INFO master_link_down_since_seconds;
  // -1 when it never was up).
  int64_t link_down_seconds() const;
  bool sync_in_progress() const { return state_ == State::kTransfer; }
  // The client that applies the primary's stream (writes pass read-only).
  bool IsMasterClient(const Client& c) const { return &c == master_client_.get(); }
  // The master client while the link is up (CLIENT LIST / KILL show it then,
  // as Redis, whose master client exists only while connected), else null.
  Client* LinkClient() const { return link_up() ? master_client_.get() : nullptr; }
  // REPLCONF GETACK from the master client: sends an ACK now.
  void SendAck();
  // CLIENT KILL TYPE master: drops the link (it reconnects and PSYNCs).
  // Returns whether there was one.
  bool KillLink();

  // --- Coordinated failover, FAILOVER (repl_failover.cc) ---
  // Redis 7.0's flow: the primary pauses writes, waits until a replica (the
  // target, or the first) has acknowledged its whole stream, then turns
  // into that replica's replica and sends it "PSYNC <replid> <offset>
  // FAILOVER"; the target takes over as a primary and continues the
  // history, so both sides resync partially. A target that refuses the
  // PSYNC makes the old primary a primary again. With `force`, a target that
  // has not caught up by the timeout is failed over to all the same.
  enum class FailoverState { kNone, kWaitForSync, kInProgress };
  struct FailoverRequest {
    std::string host;       // "" for any replica
    int64_t port = 0;
    int64_t timeout_ms = 0;  // 0: none
    bool force = false;
  };
  // Starts a failover; returns Redis's error text, or "" (OK).
  std::string StartFailover(const FailoverRequest& req);
  // FAILOVER ABORT: "" or the error.
  std::string AbortFailoverCommand();
  FailoverState failover_state() const { return failover_state_; }
  // INFO's master_failover_state: no-failover, waiting-for-sync,
  // failover-in-progress.
  std::string_view failover_state_name() const;
  // The replica side of "PSYNC <replid> <offset> FAILOVER" from `who` (a
  // client description for the log): promotes this replica when `replid`
  // is its primary's; returns the error otherwise ("" when promoted).
  std::string AcceptFailover(std::string_view replid, std::string_view who);

 private:
  enum class State {
    kNone, kConnect, kConnecting, kPing, kAuth, kPort, kIp, kCapa, kPsync, kTransfer, kConnected
  };
  struct Waiter {
    uint64_t client_id;
    uint64_t target;
    int64_t needed;
    uint64_t timer;
  };

  // repl_primary.cc
  // Appends bytes to the stream: the offset, the backlog, every replica.
  void AppendStream(std::string_view bytes);
  // repl_sync.cc
  bool TryPartial(Client& c, std::string_view replid, int64_t psync_offset);
  std::string StartFullSync(Client& c, bool pre_psync);
  // repl_fullsync.cc: one background snapshot for every replica waiting.
  ReplicaInfo* FindReplica(uint64_t client_id);
  // Frees what is held for `r` during its full sync (pending) and stops
  // counting it toward its connection's output limit.
  void DropHeld(ReplicaInfo& r);
  void MaybeStartSnapshot();
  // "+FULLRESYNC <replid> <offset at the fork>" to `r` (not to SYNC's).
  void SendFullResync(ReplicaInfo& r, Connection& conn);
  void ArmStartTimer();
  void PumpSnapshot();
  void PauseOrContinuePump(bool paused);
  void SendToReceivers(std::string_view bytes);
  void FinishSnapshot(bool ok);
  void SendKeepAlives();
  void AddReplica(Client& c);
  void CreateBacklog();
  void BacklogCron(int64_t now_ms);
  void DisconnectReplicas();
  int64_t ListeningPort(uint64_t client_id) const;
  void FinishWait(uint64_t client_id);

  // Once a second: the primary's PINGs (repl-ping-replica-period) and
  // both sides' repl-timeout.
  void Cron();

  // repl_failover.cc
  // Moves a failover on: the timeout, a replica that caught up.
  void UpdateFailover();
  // Ends a failover: writes resume; `reason` non-empty: it failed, and a
  // demoted primary becomes a primary again.
  void EndFailover(std::string_view reason);
  // The target's PSYNC reply: accepted (`ok`) or refused.
  void FailoverPsyncReply(bool ok);

  // repl_link.cc
  void Connect();
  void DropLink(bool retry);
  void OnLinkEvent(uint32_t events);
  void ReadLink();
  void HandleLine(std::string_view line);
  void SendCommand(std::initializer_list<std::string_view> args);
  void FlushOut();
  bool HandlePsyncReply(std::string_view line);
  void LinkEstablished();
  void EnsureMasterClient(int db);
  void ApplyStream();
  void ScheduleRetry();
  void AckTimer();
  // repl_load.cc
  void ReadSnapshot();
  void LoadReceivedSnapshot();

  Server* const server_;
  std::string replid_;
  std::string replid2_ = std::string(40, '0');
  uint64_t offset_ = 0;
  int64_t second_offset_ = -1;
  int last_db_ = -1;  // database the stream last SELECTed; -1: must SELECT
  std::vector<ReplicaInfo> replicas_;
  std::unique_ptr<ReplBacklog> backlog_;
  int64_t no_replicas_since_ms_ = 0;
  int64_t sync_full_ = 0, sync_partial_ok_ = 0, sync_partial_err_ = 0;
  std::vector<Waiter> waiters_;
  std::string encode_buf_;
  absl::flat_hash_map<uint64_t, int64_t> pending_ports_;  // REPLCONF listening-port
  // What a client announced with REPLCONF before its PSYNC / SYNC.
  struct Announced {
    bool eof = false, rankd = false, rdb_only = false;
  };
  absl::flat_hash_map<uint64_t, Announced> announced_;
  // The full sync's snapshot job (repl_fullsync.cc).
  enum class Job { kNone, kChild, kSending };
  Job job_ = Job::kNone;
  bool job_diskless_ = false;
  int job_fd_ = -1;            // pipe (diskless) or file (disk) being sent
  bool job_fd_polled_ = false;  // the pipe is in the event loop
  std::string job_path_;       // disk: the file
  std::string job_mark_;       // diskless: the 40-byte end mark
  bool job_eof_ = false, job_child_done_ = false, job_child_ok_ = false;
  bool job_reaping_ = false;   // PumpSnapshot is reaping the child
  uint64_t job_offset_ = 0;    // the stream offset the snapshot continues
  uint64_t start_timer_ = 0, pump_timer_ = 0;

  // Replica link.
  std::string master_host_;
  int64_t master_port_ = 0;
  State state_ = State::kNone;
  int fd_ = -1;
  std::string in_;      // bytes read, not yet consumed
  std::string out_;     // bytes to send
  size_t in_pos_ = 0;
  SnapshotReceiver receiver_;  // the snapshot, to a file as it arrives
  std::string pending_replid_;  // +FULLRESYNC's, taken once the snapshot loads
  uint64_t pending_offset_ = 0;
  int loaded_stream_db_ = 0;
  std::unique_ptr<RespParser> parser_;
  std::vector<std::string_view> args_;
  std::unique_ptr<Client> master_client_;
  ReplyBuilder master_reply_;
  int64_t last_io_ms_ = 0;
  int64_t link_down_since_ms_ = 0;
  bool own_history_ = true;  // PSYNC offers replid_ / offset_ (else "? -1")
  absl::flat_hash_map<uint64_t, std::string> pending_ips_;  // REPLCONF ip-address
  uint64_t retry_timer_ = 0;
  uint64_t ack_timer_ = 0;
  // Stream bytes read but not applied yet: a command read in part, or the
  // commands of a MULTI until its EXEC. They count (offset, backlog,
  // sub-replicas) once applied.
  std::string unapplied_;
  bool restored_history_ = false;
  uint64_t cron_timer_ = 0;
  int64_t last_ping_ms_ = 0;

  // FAILOVER.
  FailoverState failover_state_ = FailoverState::kNone;
  FailoverRequest failover_;
  int64_t failover_end_ms_ = 0;  // monotonic deadline; 0: none
  uint64_t failover_timer_ = 0;
};

}  // namespace rankd
