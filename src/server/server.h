// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Server: the command layer. It receives commands from the network
// (ConnectionHandler), looks them up in the command registry, applies the
// rules every command shares (arity, AUTH, the RESP2 subscribed context,
// MONITOR clients, CLIENT PAUSE, MULTI queueing, WATCH, blocking, stats,
// slowlog, MONITOR feeds, CLIENT REPLY) and runs the handler against the
// selected Database.
//
// It also owns the hub every write reports to (server/notify.h): keyspace
// events go out through PubSub (server/pubsub.h), and the databases'
// "key changed" and flush signals feed client-side caching
// (server/tracking.h).
//
// One Server runs on one event-loop thread and owns every database; future
// shards will each own a Server-like executor for their hash slots, with the
// same command path. Not thread-safe.

#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "base/status.h"
#include "base/str_hash.h"
#include "core/hash.h"
#include "core/plain_set.h"
#include "core/sorted_set.h"
#include "db/database.h"
#include "net/connection.h"
#include "net/event_loop.h"
#include "server/acl.h"
#include "server/auth_throttle.h"
#include "server/board_watch.h"
#include "server/client.h"
#include "server/cluster_router.h"
#include "server/script_runtime.h"
#include "server/command_ids.h"
#include "server/command.h"
#include "server/config.h"
#include "server/pubsub.h"
#include "server/replication.h"
#include "server/tracking.h"
#include "server/latency.h"
#include "server/evict.h"
#include "server/server_stats.h"
#include "server/slowlog.h"

namespace rankd {

// Where every write's effect goes (the append-only log; later replicas).
class EffectLog {
 public:
  virtual ~EffectLog() = default;
  // One effect, as a command that replays it against database `db`.
  virtual void Append(int db, std::span<const std::string_view> args) = 0;
  // Once per event-loop iteration before replies are written (fsync point).
  virtual void BeforeFlush() {}
};

class ShutdownCoordinator;

class Server : public ConnectionHandler {
 public:
  explicit Server(Config config);
  ~Server() override;
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the listeners and starts the periodic cron. Returns an error if a
  // listener cannot bind.
  Status Start();
  // Runs the event loop until shutdown, then closes every connection.
  void Run();
  // Stops the loop after the current iteration (SHUTDOWN, SIGTERM).
  // `save`: SHUTDOWN SAVE / NOSAVE; by default main() writes a final
  // snapshot when save points are configured, as Redis does.
  enum class ShutdownSave { kDefault, kSave, kNoSave };
  void RequestShutdown(ShutdownSave save = ShutdownSave::kDefault) {
    shutdown_save_ = save;
    loop_.Stop();
  }
  ShutdownSave shutdown_save() const { return shutdown_save_; }

  // SHUTDOWN's coordination with replicas, persistence and signals (server/shutdown.h).
  ShutdownCoordinator& shutdown() { return *shutdown_; }
  // Writes paused while a shutdown waits for replicas (as FAILOVER's pause).
  void SetShutdownPause(bool on);
  // DEBUG PAUSE-CRON: the periodic task stops (expiry, shutdown by signal,
  // tracking table trims ...), as Redis's serverCron.
  void set_cron_paused(bool on) { cron_paused_ = on; }
  bool cron_paused() const { return cron_paused_; }

  // --- Shared state for handlers ---
  Database& db(int index) { return *dbs_[index]; }
  int db_count() const { return static_cast<int>(dbs_.size()); }
  Config& config() { return config_; }
  ConfigTable& config_table() { return config_table_; }
  SortedSetLimits zset_limits() const;
  PlainSetLimits set_limits() const;
  HashLimits hash_limits() const;
  ListLimits list_limits() const {
    return {config_.list_max_listpack_size, config_.list_compress_depth, list_plain_threshold_};
  }
  // DEBUG QUICKLIST-PACKED-THRESHOLD: list elements of at least `bytes` are
  // stored plain (ListLimits::plain_threshold), in every list from now on.
  void set_list_plain_threshold(size_t bytes) { list_plain_threshold_ = bytes; }
  EventLoop& loop() { return loop_; }
  NetServer& net() { return net_; }
  ServerStats& stats() { return stats_; }
  SlowLog& slowlog() { return slowlog_; }
  PubSub& pubsub() { return pubsub_; }
  Tracking& tracking() { return tracking_; }
  BoardWatch& board_watch() { return board_watch_; }
  LatencyMonitor& latency() { return latency_; }
  // A latency-monitor sample, kept when `ms` reaches the threshold (if set).
  void AddLatencySample(std::string_view event, int64_t ms);
  int port() const { return net_.port(); }
  int tls_port() const { return net_.tls_port(); }

  // DEBUG SET-ACTIVE-EXPIRE: the active expiry of keys, hash fields (as
  // Redis 7.4) and sorted-set members; lookups still expire what they meet.
  void set_active_expire(bool on) { active_expire_ = on; }
  // oom-score-adj for this process's role (primary / replica): on start-up,
  // CONFIG SET and role changes (server/oom_score.cc).
  void ApplyOomScore();
  // DEBUG SET-DISABLE-DENY-SCRIPTS: scripts may call kNoScript commands.
  void set_script_deny_disabled(bool on) { script_deny_disabled_ = on; }
  bool script_deny_disabled() const { return script_deny_disabled_; }
  // Periodic leaderboards roll on their own (Database::may_roll_periods)
  // unless this is a replica or rolls are held (the log is being replayed:
  // its LB.ROLL records do it).
  void set_hold_period_rolls(bool hold) { hold_period_rolls_ = hold; }
  // True while that is so; LB.SNAPSHOT then takes no view (views do not
  // survive a restart: docs/leaderboards.md "Stable views").
  bool period_rolls_held() const { return hold_period_rolls_; }
  // A board of `db` took a new stable view (LB.SNAPSHOT, or its SNAPSHOT
  // EVERY schedule): publishes "lb.snapshot" and invalidates the key in
  // CLIENT TRACKING caches, since SNAPSHOT reads now answer differently
  // (server_db_hooks.cc). Not a modification: WATCH is not broken.
  void ViewTaken(int db, std::string_view key);
  // True while a data set loads (DEBUG LOADAOF replaying a log): a client
  // the event loop serves meanwhile (a busy script lets it run) gets
  // Redis's -LOADING unless its command is flagged kLoading.
  void set_loading(bool loading) { loading_ = loading; }

  // The spec for `name` (any case), or nullptr.
  const CommandSpec* FindCommand(std::string_view name) const;
  // Every registered command (COMMAND, COMMAND COUNT).
  const std::vector<const CommandSpec*>& commands() const { return command_list_; }

  // Runs one command for `client` as the dispatcher would after queueing
  // decisions: lookup, arity, handler, stats. Used by EXEC and scripts.
  // `no_block` makes blocking commands behave as their non-blocking forms.
  void Execute(Client& client, std::span<const std::string_view> args, bool no_block);

  // Blocks the client of `ctx` on `keys` of its database until one becomes
  // ready (its command is then retried) or `timeout_ms` passes (0: forever),
  // when the client gets `timeout_reply` (RESP2 *-1 / RESP3 null by default).
  // With `wake_at_ms` (a Unix time in ms, > 0) the keys are also made ready
  // at that time although nobody touched them: the command waits for a time
  // as well as for writes (BZPOPDUE). A retry that still cannot serve calls
  // Block again, which only re-arms that time.
  // REQUIRES: !ctx.no_block and the command has not replied.
  void Block(CommandContext& ctx, std::span<const std::string_view> keys, int64_t timeout_ms,
             int64_t wake_at_ms = 0);

  // While a blocked client's command is retried: the ready key it is being
  // served for (Redis 7.0 serves a client from the key that was signalled,
  // not from the first of its keys); empty otherwise.
  const std::string_view& serving_key() const { return serving_key_; }

  // --- Effects (persistence) ---
  // Installs the log every write effect is appended to (nullptr: none).
  void set_effect_log(EffectLog* log) { effect_log_ = log; }
  EffectLog* effect_log() const { return effect_log_; }
  // Replication (server/replication.h): both roles' state and the link.
  Replication& replication() { return *repl_; }
  // By default a write command that modified a key (called Database::Touch)
  // is logged as received. A handler whose command would not replay to the
  // same state (relative expiry, random picks, a blocking pop served later)
  // calls Propagate once per effect instead; the command as received is then
  // not logged. No-op without a log.
  void Propagate(Client& c, std::span<const std::string_view> args);
  // An effect of the server's own (an eviction): to the log and the replicas.
  void EmitServerEffect(int db, std::span<const std::string_view> args) {
    EmitEffect(db, args);
    FlushEffects();  // as Redis 7.0: at once, not part of the running command
  }
  // Consulted before every write command (kWrite) runs: a non-empty result is
  // the error reply (e.g. MISCONF when the log cannot be written) and the
  // command does not run. Unset: writes always allowed.
  std::function<std::string_view(Client&, const CommandSpec&)> write_gate;

  // Redis notifyKeyspaceEvent: publishes `event` on __keyspace@<db>__:<key>
  // and `key` on __keyevent@<db>__:<event>, as notify-keyspace-events
  // enables `cls` and the K / E targets. Cheap when disabled or when nobody
  // subscribes. Families call KeyChanged / KeyEvent (server/notify.h).
  void NotifyKeyspaceEvent(uint32_t cls, std::string_view event, std::string_view key, int db);
  // maxmemory: the evictor, and whether the last command found the server
  // out of memory (Redis pre_command_oom_state; scripts consult it).
  Evictor& evictor() { return evictor_; }
  // Frees large values off the event loop (UNLINK, lazy eviction).
  LazyFreer& lazy_free() { return lazy_free_; }
  bool oom_before_command() const { return oom_before_command_; }

  // Counts every Database::Touch on any database: how Call() sees that a
  // command changed something.
  uint64_t modifications() const { return modifications_; }

  // The Lua engine (EVAL, FUNCTION), or nullptr before its first use.
  ScriptRuntime* scripts() { return scripts_.get(); }
  // Cluster mode (server/cluster_router.h): null for a standalone node.
  ClusterRouter* cluster() { return cluster_.get(); }
  void set_cluster(std::unique_ptr<ClusterRouter> cluster) { cluster_ = std::move(cluster); }
  void set_scripts(std::unique_ptr<ScriptRuntime> engine) { scripts_ = std::move(engine); }

  // Adds a family's command table (commands/families.h registers them all).
  // `family_categories` (server/acl_categories.h) are the ACL categories
  // every command of the family has, besides those its flags give.
  // REQUIRES: `table` outlives the server; names are unique.
  void RegisterCommands(std::span<const CommandSpec> table, uint64_t family_categories = 0);

  // --- ACL ---
  Acl& acl() { return acl_; }
  const CommandIds& command_ids() const { return command_ids_; }
  CommandIds& command_ids() { return command_ids_; }
  // What `args` (resolved to `spec`) asks of an ACL user: the command id,
  // its keys with the access each needs and its channels (resolved only
  // when some selector of `user` restricts them).
  AclRequest MakeAclRequest(const CommandSpec& spec, std::span<const std::string_view> args,
                            const AclUser& user) const;
  // Whether `client` may run its command `args` with read access to every
  // key (true without ACL restrictions): SORT's BY pattern and GET need it.
  bool HasFullKeyRead(const Client& client, std::span<const std::string_view> args) const;
  // Checks `client`'s user may run `spec` with `args` (Redis
  // ACLCheckAllUserCommandPerm). On denial records it in ACL LOG under
  // `context` ("toplevel", "multi", "lua") and returns the reason.
  AclDenial CheckAcl(Client& client, const CommandSpec& spec,
                     std::span<const std::string_view> args, std::string_view context);
  // redis.acl_check_cmd: whether `user` may run `args` (args[0] is the
  // command name), judged exactly as Dispatch judges it (MakeAclRequest and
  // AclUser::Check: command, subcommand, first argument, keys with their
  // read/write access, channels, every selector) but not logged. nullopt
  // when `args` names no command or an unknown subcommand. As Redis 7.0,
  // arity is not checked: a key position the command's rule names past
  // the line's end matches no pattern. A null `user` (an internal client)
  // may run anything.
  std::optional<bool> AclAllows(const AclUser* user, std::span<const std::string_view> args) const;
  // The keys of a command line with the access each needs, by the command's
  // documented key specs (COMMAND GETKEYSANDFLAGS; the commands layer
  // installs it). False when the command has no doc: the spec's key
  // positions are used, read or write by the command's flags.
  std::function<bool(const CommandSpec& spec, std::string_view full_name,
                     std::span<const std::string_view> args, std::vector<AclKeyRef>* keys)>
      find_acl_keys;
  // Cluster routing (server_access.cc): the key positions of a command line
  // as COMMAND GETKEYS finds them (find_acl_keys, else the spec's), and its
  // spec through `*spec` (nullptr, and no keys, for a line that names no
  // command or fails its arity).
  std::vector<size_t> CommandKeys(std::span<const std::string_view> args,
                                  const CommandSpec** spec) const;
  // After ACL LOAD / DELUSER (server/acl_clients.cc): re-points clients at
  // their users; a client whose user is gone is disconnected, and after ACL
  // LOAD (`reloaded`) so is every client of a user other than "default", as
  // Redis 7.0 frees all the old users. `self` (running the command) gets its
  // reply first.
  void RebindClients(Client* self, bool reloaded);
  // After ACL SETUSER changed `user`: disconnects its clients subscribed to
  // a channel, pattern or shard channel it may no longer use (Redis 7.0
  // ACLKillPubsubClientsIfNeeded), `self` after its reply.
  void KillRevokedSubscribers(const AclUser& user, Client* self);
  // CLIENT LIST's line for a client (the commands layer installs it; ACL
  // LOG's client-info).
  std::function<std::string(Client&)> describe_client;

  // rename-command: the command `from` answers to `to` from now on, or to
  // nothing when `to` is empty (any case). Returns "" or Redis's reason
  // ("No such command in rename-command", "Target command name already
  // exists"). Call after every family is registered, before serving.
  std::string RenameCommand(std::string_view from, std::string_view to);

  // Marks the client authenticated (AUTH, HELLO AUTH) and lifts the
  // network layer's pre-AUTH protocol limits.
  // `user`: the ACL user it now runs as (nullptr: unchanged).
  void SetAuthenticated(Client& c, AclUser* user = nullptr);

  // WATCH bookkeeping used by the transaction family.
  void WatchKey(Client& c, std::string_view key);
  void UnwatchAll(Client& c);

  // CLIENT PAUSE (server/client_pause.cc): postpones the commands `mode`
  // covers for `duration_ms` (extending, never shortening, a pause in
  // force); UnpauseClients ends it and runs the postponed commands in order.
  enum class PauseMode { kNone, kWrite, kAll };
  void PauseClients(int64_t duration_ms, PauseMode mode);
  void UnpauseClients();
  // FAILOVER's pause of writes (server/repl_failover.cc), independent of
  // CLIENT PAUSE: UNPAUSE does not end it.
  void SetFailoverPause(bool on);
  PauseMode pause_mode() const { return pause_mode_; }

  // Ends a blocked client's wait (CLIENT UNBLOCK): with `error` it gets
  // -UNBLOCKED, else its command's timeout reply. False if not blocked.
  bool UnblockClient(Client& c, bool error);
  // Cluster mode (blocking.cc): asks `refusal` about each blocked client and
  // ends the wait of those it names an error for ("MOVED ...",
  // "CLUSTERDOWN ..."), answering it. Returns how many were unblocked.
  size_t FailBlockedClients(const std::function<std::string(const Client&)>& refusal);

  // MONITOR (server/monitor.cc): adds or removes a monitoring client, and
  // shows `args`, run by `c`, to every monitor.
  void AddMonitor(Client& c);
  void RemoveMonitor(Client& c);
  void FeedMonitors(const Client& c, std::span<const std::string_view> args);

  // Calls fn(Client&) for each connected client in id order (CLIENT LIST).
  template <class Fn>
  void ForEachClient(Fn fn) {
    net_.ForEach([&](Connection* conn) { fn(*static_cast<Client*>(conn->user_data)); });
  }
  // The client with `id`, or nullptr.
  Client* FindClient(uint64_t id);

  // Answers a failed AUTH / HELLO AUTH of `client` with `error` (Redis's
  // WRONGPASS), throttled (server/auth_throttle.h): at once while failures
  // are few, else after a delay during which the connection reads no
  // further commands (the event loop serves everyone else), and the
  // connection is closed after the answer once it failed too often.
  // `no_block` (inside EXEC): answered at once, the close still applies.
  void AnswerAuthFailure(Client& client, std::string_view error, bool no_block);
  AuthThrottle& auth_throttle() { return auth_throttle_; }

  // ConnectionHandler.
  void OnOpen(Connection* c) override;
  void OnCommand(Connection* c, std::span<const std::string_view> args) override;
  // Drops the reply since `reply_start`, keeping c.kept_pushes (REPLY OFF).
  void DropReplyKeepingPushes(Client& c, size_t reply_start);
  // After read-only `spec` ran for `c`: remembers the keys for tracking
  // (a script's reads: its declared keys, for its caller).
  void RememberReadKeys(Client& c, const CommandSpec& spec,
                        std::span<const std::string_view> args);
  void OnClose(Connection* c) override;
  // Group prefetching hint for a pipelined command (server/prefetch.cc).
  void Prefetch(Connection* c, std::span<const std::string_view> args, size_t argc,
                int step, uintptr_t* memo) override;
  void BeforeFlush() override;

 private:
  void Dispatch(Client& client, std::span<const std::string_view> args);
  // Whether Redis 7.0 has the command (or subcommand) rankd could not
  // resolve: an unauthenticated client then gets NOAUTH, as from Redis.
  bool KnownToRedis(std::span<const std::string_view> args) const;
  // Whether enable-debug-command lets `client` run a kProtected command.
  bool ProtectedAllowed(const Client& client) const;
  // Wires database `d`'s callbacks to events, effects and watchers
  // (server_db_hooks.cc).
  void ConnectDatabase(Database& d);
  // Runs eviction and says whether `spec` must get -OOM for `client`.
  bool OutOfMemoryFor(Client& client, const CommandSpec& spec);
  // Finds the spec for `args` (descending into a container's subcommands)
  // and checks arity. `full_name` ("get", "client|list") stays valid for the
  // server's lifetime. On failure returns nullptr and sets *error.
  // `*found`, when given, is set to the spec even when only its arity is
  // wrong (rejected_calls).
  const CommandSpec* Resolve(std::span<const std::string_view> args,
                             std::string_view* full_name, std::string* error,
                             const CommandSpec** found = nullptr) const;
  // Counts a command refused before it ran (INFO commandstats rejected_calls).
  void CountRejected(const CommandSpec* spec, std::string_view full_name);
  // Cluster mode: asks the router; on a redirect answers it (ending EXEC's
  // transaction, dooming a MULTI) and returns true (server_call_extras.cc).
  bool Redirected(Client& c, const CommandSpec& spec, const CommandSpec* found,
                  std::string_view full_name, std::span<const std::string_view> args);
  // Runs an accepted command: handler, stats, slowlog, propagation.
  // REQUIRES: the caller checked ReadOnlyRefusal (Dispatch, Execute and the
  // blocked-client retry each do, once).
  void Call(Client& client, const CommandSpec& spec, std::string_view full_name,
            std::span<const std::string_view> args, bool no_block, bool retrying);
  void ServeReadyKeys();
  bool PauseCovers(const Client& c, const CommandSpec& spec) const;
  void Postpone(Client& c, std::span<const std::string_view> args);
  void ForgetPostponed(Client& c);
  void Unblock(Client& c);
  // (Re-)arms the time at which a blocked client's keys become ready.
  void ArmWake(Client& c, int64_t wake_at_ms);
  void Cron();
  // Member expiry (member_expiry.cc): keeps one loop timer at the earliest
  // member deadline of any database (re-checked before each sleep), and
  // when it fires reclaims due members with a time budget.
  void ArmMemberExpiry();
  void ExpireMembers();
  void ApplyConfig(std::string_view name);
  // CONFIG SET port / bind: reopens the plain TCP listeners for `next`
  // when they differ from the current ones; "" or Redis's error text.
  std::string MoveListeners(const Config& next);
  // One effect to its two consumers: the effect log and the replicas.
  void EmitEffect(int db, std::span<const std::string_view> args);
  // The running command's effects (call_depth_ > 0), fed to replicas when
  // it ends: several as one MULTI ... EXEC (server_call_extras.cc).
  struct PendingEffect { int db; std::vector<std::string> args; };
  std::vector<PendingEffect> pending_effects_;
  int call_depth_ = 0;
  void FlushEffects();
  // The -READONLY refusal of a write on a read-only replica, or "".
  std::string_view ReadOnlyRefusal(const Client& c, const CommandSpec& spec) const;

  Config config_;
  ConfigTable config_table_;
  EventLoop loop_;
  NetServer net_;
  std::vector<std::unique_ptr<Database>> dbs_;
  absl::flat_hash_map<std::string, const CommandSpec*, StrHash, StrEq> commands_;
  std::vector<const CommandSpec*> command_list_;
  // FindCommand's cache of names found, as typed: direct-mapped by length
  // and first and last byte, so a pipeline mixing a few commands (and
  // Prefetch looking up the next ones) keeps hitting. Cleared when names change.
  struct LookupSlot {
    char name[30];
    uint8_t len = 0;
    const CommandSpec* spec = nullptr;
  };
  static constexpr size_t kLookupSlots = 16;
  mutable LookupSlot lookup_cache_[kLookupSlots];
  void ClearLookupCache() { for (LookupSlot& s : lookup_cache_) s.spec = nullptr; }
  const CommandSpec* FindCommandSlow(std::string_view name) const;  // the table itself
  // "client|list" and the like, built once so no command copies its name.
  absl::flat_hash_map<const CommandSpec*, std::string> subcommand_names_;
  // Clients blocked per (db, key), first come first served.
  absl::flat_hash_map<std::string, std::deque<Client*>, StrHash, StrEq> blocked_;
  ServerStats stats_;
  // maxmemory-clients in bytes (0: none), from the setting and maxmemory
  // at each config change, so the per-iteration check reads one field.
  int64_t client_eviction_limit_ = 0;
  SlowLog slowlog_;
  PubSub pubsub_;
  Tracking tracking_{this};
  BoardWatch board_watch_{this};  // LB.WATCH
  // The connected client whose command is running (NOLOOP, deferred
  // invalidations); nullptr between commands and for timers.
  Client* current_client_ = nullptr;
  // The command current_client_ runs (a script's EVAL when its commands run).
  struct OuterCall {
    const CommandSpec* spec = nullptr;
    std::span<const std::string_view> args;
  };
  OuterCall current_call_;
  std::vector<Client*> monitors_;
  PauseMode pause_mode_ = PauseMode::kNone;  // in force: the strictest of the two below
  PauseMode client_pause_mode_ = PauseMode::kNone;  // CLIENT PAUSE
  bool failover_pause_ = false;
  // Recomputes pause_mode_; resumes postponed commands when it loosens.
  void UpdatePause();
  int64_t pause_end_ms_ = 0;  // monotonic
  uint64_t pause_timer_ = 0;
  std::deque<Client*> postponed_;  // paused clients, in arrival order
  LatencyMonitor latency_;
  EffectLog* effect_log_ = nullptr;
  std::unique_ptr<ScriptRuntime> scripts_;
  std::unique_ptr<ClusterRouter> cluster_;
  ShutdownSave shutdown_save_ = ShutdownSave::kDefault;
  std::unique_ptr<ShutdownCoordinator> shutdown_;
  bool shutdown_pause_ = false;
  bool cron_paused_ = false;
  bool script_deny_disabled_ = false;
  uint64_t modifications_ = 0;
  bool active_expire_ = true;
  size_t list_plain_threshold_ = ListLimits::kDefaultPlainThreshold;
  // Shared by the databases: how expiry behaves on a replica (set by Call
  // for each command, and by Cron).
  ReplicaExpiry replica_expiry_;
  bool hold_period_rolls_ = false;
  bool loading_ = false;
  bool propagated_ = false;  // the running command called Propagate
  std::string_view serving_key_;
  uint64_t member_timer_ = 0;     // the member expiry timer, 0 when none
  int64_t member_timer_at_ = 0;   // its due time (unix ms)
  Evictor evictor_{this};
  LazyFreer lazy_free_;
  LazyFreePolicy lazy_policy_{&lazy_free_};  // from the lazyfree-* configs
  std::unique_ptr<TlsContext> tls_;  // while tls-port is set
  CommandIds command_ids_;
  Acl acl_{&command_ids_};
  AuthThrottle auth_throttle_;
  LfuSettings lfu_;  // from maxmemory-policy, lfu-log-factor, lfu-decay-time
  bool oom_before_command_ = false;
  // Last: destroyed first, while the loop and connections it uses exist.
  std::unique_ptr<Replication> repl_;
};

}  // namespace rankd
