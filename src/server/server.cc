// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/server.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "base/clock.h"
#include "base/crash_report.h"
#include "base/logging.h"
#include "base/memory.h"
#include "base/numbers.h"
#include "server/client_eviction.h"
#include "server/errors.h"
#include "server/proc_title_template.h"
#include "server/notify.h"
#include "server/redis_commands.h"
#include "server/shutdown.h"

namespace rankd {
namespace {

// Commands a RESP2 client may send while subscribed (Redis 7.0).
bool AllowedWhileSubscribed(std::string_view name) {
  return name == "ping" || name == "subscribe" || name == "ssubscribe" ||
         name == "unsubscribe" || name == "sunsubscribe" || name == "psubscribe" ||
         name == "punsubscribe" || name == "quit" || name == "reset" || name == "lb.watch" ||
         name == "lb.unwatch";
}

bool IsTxControl(std::string_view name) {
  return name == "exec" || name == "discard" || name == "multi" || name == "watch" ||
         name == "quit" || name == "reset";
}

}  // namespace

Server::Server(Config config)
    : config_(std::move(config)), config_table_(&config_), net_(&loop_, this) {
  repl_ = std::make_unique<Replication>(this);
  shutdown_ = std::make_unique<ShutdownCoordinator>(this);
  for (int i = 0; i < config_.databases; i++) {
    dbs_.push_back(std::make_unique<Database>(i));
    ConnectDatabase(*dbs_.back());
  }
  config_table_.on_change = [this](std::string_view name) { ApplyConfig(name); };
  config_table_.before_commit = [this](const Config& next) { return MoveListeners(next); };
  pubsub_.on_channel_emptied = [this](std::string_view ch) { board_watch_.ChannelEmptied(ch); };
  stats_.start_wall_ms = WallMs();
  stats_.start_mono_ms = MonoMs();
}

Server::~Server() = default;

SortedSetLimits Server::zset_limits() const {
  return {static_cast<size_t>(config_.zset_max_listpack_entries),
          static_cast<size_t>(config_.zset_max_listpack_value)};
}

HashLimits Server::hash_limits() const {
  return {static_cast<size_t>(config_.hash_max_listpack_entries),
          static_cast<size_t>(config_.hash_max_listpack_value)};
}

PlainSetLimits Server::set_limits() const {
  return {static_cast<size_t>(config_.set_max_intset_entries)};
}

void Server::ApplyConfig(std::string_view name) {
  if (name == "loglevel") {
    LogLevel level;
    if (ParseLogLevel(config_.loglevel, &level)) SetLogLevel(level);
  } else if (name == "requirepass") {
    acl_.SetDefaultPassword(config_.requirepass);
  } else if (name == "slowlog-max-len") {
    slowlog_.Trim(static_cast<size_t>(config_.slowlog_max_len));
  } else if (name == "oom-score-adj" || name == "oom-score-adj-values") {
    ApplyOomScore();
  }
  // As Redis: a lower acllog-max-len trims the log at its next new entry.
  acl_.set_log_max_len(static_cast<size_t>(config_.acllog_max_len));
  acl_.set_all_channels_default(config_.acl_pubsub_default == "allchannels");
  auth_throttle_.set_settings({config_.auth_free_failures, config_.auth_address_free_failures,
                               config_.auth_delay_ms, config_.auth_max_delay_ms,
                               config_.auth_max_failures});
  lazy_policy_.expire = config_.lazyfree_lazy_expire;
  lazy_policy_.server_del = config_.lazyfree_lazy_server_del;
  lfu_.enabled = config_.maxmemory_policy.ends_with("-lfu");
  evictor_.set_policy(ParseEvictPolicy(config_.maxmemory_policy));
  lfu_.log_factor = config_.lfu_log_factor;
  lfu_.decay_time = config_.lfu_decay_time;
  // CONFIG SET maxmemory* evicts right after its command (7.0: not inside EXEC or a script).
  if (name.starts_with("maxmemory")) loop_.AddTimer(0, [this] { evictor_.Perform(); });
  client_eviction_limit_ = ClientEvictionLimit(config_);
  if (name.empty() || name == "proc-title-template" || name == "port" || name == "bind") {
    ApplyProcTitle(config_);
  }
  NetLimits limits = net_.limits();
  limits.max_bulk_len = config_.proto_max_bulk_len;
  limits.query_buffer_limit = config_.client_query_buffer_limit;
  limits.max_clients = config_.maxclients;
  limits.idle_timeout_s = config_.timeout;
  limits.output_buffer_hard_limit = config_.obuf_normal.hard;
  limits.output_buffer_soft_limit = config_.obuf_normal.soft;
  limits.output_buffer_soft_seconds = config_.obuf_normal.soft_seconds;
  limits.pubsub_output = {config_.obuf_pubsub.hard, config_.obuf_pubsub.soft,
                          config_.obuf_pubsub.soft_seconds};
  // As Redis 7.0: a replica hard limit below repl-backlog-size is taken as
  // repl-backlog-size (a partial sync would succeed, then drop the replica).
  limits.replica_output = {config_.obuf_replica.hard, config_.obuf_replica.soft,
                           config_.obuf_replica.soft_seconds};
  if (limits.replica_output.hard > 0) {
    limits.replica_output.hard = std::max(limits.replica_output.hard, config_.repl_backlog_size);
  }
  net_.set_limits(limits);
}

void Server::Run() {
  loop_.Run();
  // Shutting down: close every connection so each client's state is freed
  // (OnClose) while the server still exists.
  net_.CloseAll();
}

void Server::Cron() {
  const int64_t now = MonoMs();
  // Active expiry: a quarter of each cron period, shared by the databases.
  int64_t period = config_.hz > 0 ? 1000 / config_.hz : 100;
  if (cron_paused_) {  // DEBUG PAUSE-CRON
    loop_.AddTimer(period, [this] { Cron(); });
    return;
  }
  shutdown_->Cron();
  int64_t budget_us = period * 1000 / 4 / std::max<int64_t>(1, db_count());
  replica_expiry_.replica = repl_->is_replica();  // a replica expires its own keys only
  uint64_t expire_cycles = 0;  // time in active expiry, for the expire-cycle event
  for (auto& db : dbs_) {
    // No expiry while clients are paused (Redis: the dataset must not change).
    if (pause_mode_ == PauseMode::kNone) {
      const uint64_t start = CycleNow();
      if (active_expire_ && db->expires_size() > 0) db->ActiveExpire(budget_us);
      if (active_expire_ && db->has_field_deadlines()) db->ActiveExpireFields(WallMs(), 1000);
      expire_cycles += CycleNow() - start;
      if (db->has_timed_boards()) db->ActiveBoards();  // rolls, SNAPSHOT EVERY
    }
  }
  AddLatencySample("expire-cycle", CyclesToUs(expire_cycles) / 1000);
  AllocatedBytes();  // refreshes AllocatedBytesFast's baseline
  if (now - stats_.last_sample_ms >= 100) {
    double secs = (now - stats_.last_sample_ms) / 1000.0;
    if (stats_.last_sample_ms > 0) {
      stats_.ops_per_sec = (stats_.total_commands - stats_.last_sample_commands) / secs;
    }
    stats_.last_sample_commands = stats_.total_commands;
    stats_.last_sample_ms = now;
  }
  stats_.memory_peak = std::max(stats_.memory_peak, AllocatedBytes());
  ServeReadyKeys();  // expiry may have touched keys
  // The watchdog fires if the next tick is late by more than its period
  // (at least two ticks, as Redis).
  ArmWatchdog(config_.watchdog_period > 0
                  ? static_cast<int>(std::max<int64_t>(config_.watchdog_period, 2 * period))
                  : 0);
  loop_.AddTimer(period, [this] { Cron(); });
}

Client* Server::FindClient(uint64_t id) {
  Connection* c = net_.Find(id);
  return c ? static_cast<Client*>(c->user_data) : nullptr;
}

void Server::OnOpen(Connection* conn) {
  auto* c = new Client;
  c->id = conn->id();
  c->conn = conn;
  c->reply = conn->reply();
  c->reply->set_error_counts(&stats_.errors);
  c->created_ms = MonoMs();
  c->user = &acl_.default_user();
  c->authenticated = c->user->nopass() && c->user->enabled();
  conn->set_unauthenticated(!c->authenticated);
  conn->user_data = c;
  stats_.total_connections++;
  // Protected mode (Redis acceptCommonHandler): with no password for the
  // default user, only 127.0.0.1 and ::1 may talk to the server.
  if (config_.protected_mode && acl_.default_user().nopass() && !conn->peer_is_local()) {
    c->reply->Error(err::kProtectedModeDenied);
    conn->CloseAfterReply();
    stats_.rejected_connections++;
  }
}

void Server::OnClose(Connection* conn) {
  auto* c = static_cast<Client*>(conn->user_data);
  if (!c) return;
  if (c->blocked.active) Unblock(*c);
  UnwatchAll(*c);
  pubsub_.Forget(*c);
  board_watch_.Forget(*c);
  RemoveMonitor(*c);
  if (!c->postponed.empty()) ForgetPostponed(*c);
  tracking_.Disable(*c);
  repl_->ClientClosed(*c);
  delete c;
  conn->user_data = nullptr;
}

void Server::OnCommand(Connection* conn, std::span<const std::string_view> args) {
  Client& c = *static_cast<Client*>(conn->user_data);
  const size_t reply_start = c.reply->buffer().size();
  c.push_mark = reply_start;
  Dispatch(c, args);
  // CLIENT REPLY: the state after the command decides (OFF silences its own
  // +OK, ON does not); SKIP silences the command after CLIENT REPLY SKIP.
  if (c.reply_off || c.reply_skip) DropReplyKeepingPushes(c, reply_start);
  c.push_mark = Client::kNoMark;
  c.kept_pushes.clear();
  c.reply_skip = c.reply_skip_next;
  c.reply_skip_next = false;
  // CLIENT CACHING covers the next command (a whole transaction).
  if (c.tracking.caching && !c.in_multi && !EqualsIgnoreCase(args[0], "client")) {
    c.tracking.caching = false;
  }
  tracking_.SendDeferred();
  tracking_.CommandDone();
  if (!blocked_.empty()) ServeReadyKeys();
}

void Server::BeforeFlush() {
  // Not while a command still runs (a busy script serving the loop): LB.WATCH
  // messages show the state between commands only.
  if (!current_client_) board_watch_.Flush();
  tracking_.Flush(config_.tracking_table_max_keys);
  if (effect_log_) effect_log_->BeforeFlush();
  // maxmemory-clients: after this iteration's reads, commands and pushes
  // (not while a busy script serves the loop).
  if (client_eviction_limit_ > 0 && !current_client_) EvictClients(*this, client_eviction_limit_);
}

void Server::Propagate(Client& c, std::span<const std::string_view> args) {
  propagated_ = true;
  EmitEffect(c.db_index, args);
}

void Server::Dispatch(Client& c, std::span<const std::string_view> args) {
  ReplyBuilder& reply = *c.reply;
  std::string_view full_name;
  std::string error;
  // Redis 7.0's order: unknown command and arity, protected commands,
  // authentication, no-multi, ACL, a monitor's keyspace access, memory, the RESP2 subscribed
  // context, then a busy script.
  const CommandSpec* found = nullptr;
  const CommandSpec* spec = Resolve(args, &full_name, &error, &found);
  if (!spec && !c.authenticated && KnownToRedis(args)) error = err::kNoAuth;
  if (error.empty() && (spec->flags & kProtected) && !ProtectedAllowed(c)) {
    error = err::kDebugNotAllowed;
  }
  if (error.empty() && !c.authenticated && !(spec->flags & kNoAuth)) error = err::kNoAuth;
  if (error.empty() && c.in_multi && (spec->flags & kNoMulti)) error = err::kNotInMulti;
  if (error.empty() && c.user && !c.user->unrestricted()) {
    switch (CheckAcl(c, *spec, args, c.in_multi ? "multi" : "toplevel")) {
      case AclDenial::kNone: break;
      case AclDenial::kCommand:
        error = "NOPERM this user has no permissions to run the '" + std::string(full_name) +
                "' command";
        break;
      case AclDenial::kKey:
        error = "NOPERM this user has no permissions to access one of the keys used as arguments";
        break;
      case AclDenial::kChannel:
        error = "NOPERM this user has no permissions to access one of the channels used as "
                "arguments";
        break;
    }
  }
  if (error.empty() && c.monitor && (spec->flags & (kWrite | kReadOnly | kMayReplicate))) {
    error = "ERR Replica can't interact with the keyspace";
  }
  if (error.empty() && cluster_ && !c.obeyed && Redirected(c, *spec, found, full_name, args)) {
    return;
  }
  if (error.empty() && config_.maxmemory > 0 && OutOfMemoryFor(c, *spec)) error = err::kOom;
  if (error.empty() && c.resp() == 2 && c.all_subscription_count() > 0 &&
      !AllowedWhileSubscribed(full_name)) {
    error = "ERR Can't execute '" + std::string(full_name) +
            "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this "
            "context";
  }
  if (error.empty() && loading_ && !(spec->flags & kLoading)) {
    error = "LOADING Redis is loading the dataset in memory";
  }
  if (error.empty() && scripts_) error = scripts_->BusyError(args);
  if (error.empty()) {
    // Checked here once; Call leaves it to its other callers (Execute, a
    // blocked client's retry).
    // A script with declared flags is judged by them; a plain one by EVAL's.
    ScriptRuntime::DeclaredFlags d;
    if ((spec->flags & kSkipMonitor) && scripts_) d = scripts_->Declared(args);
    std::string_view ro = d.declared ? repl_->Refusal(c, d.writes, !d.allow_stale)
                                     : ReadOnlyRefusal(c, *spec);
    if (!ro.empty()) error = ro;
  }
  if (!error.empty()) {
    CountRejected(found, full_name);
    // A rejected command inside MULTI dooms the transaction; a rejected EXEC,
    // inside MULTI or not, ends it at once with the reason (Redis
    // rejectCommand -> execCommandAbort, which also drops the WATCHes).
    if (c.in_multi) c.multi_error = true;
    if (EqualsIgnoreCase(args[0], "exec")) {
      std::string_view reason = error;
      if (reason.substr(0, 4) == "ERR ") reason.remove_prefix(4);
      c.in_multi = false;
      c.multi_error = false;
      c.ClearQueued();
      UnwatchAll(c);
      reply.Error("EXECABORT Transaction discarded because of: " + std::string(reason));
      return FeedMonitors(c, args);  // as Redis execCommandAbort
    }
    return reply.Error(error);
  }
  if (pause_mode_ != PauseMode::kNone && PauseCovers(c, *spec)) {
    // A script declared no-writes is a read (Redis 7.0 script flags).
    const bool script_reads = pause_mode_ != PauseMode::kAll && (spec->flags & kSkipMonitor) &&
                              scripts_ && [&] {
                                ScriptRuntime::DeclaredFlags d = scripts_->Declared(args);
                                return d.declared && !d.writes;
                              }();
    if (!script_reads) return Postpone(c, args);
  }
  if (c.in_multi && !IsTxControl(full_name)) {  // "slowlog|reset" is no RESET
    c.queued.emplace_back(args.begin(), args.end());
    c.queued_flags |= spec->flags;
    if (!(spec->flags & kStale)) c.queued_deny_stale = true;
    // A script that declared flags counts as what it declared (EXEC is then
    // refused on a read-only replica when it may write), as Redis 7.0.
    if ((spec->flags & kSkipMonitor) && scripts_) {
      if (ScriptRuntime::DeclaredFlags d = scripts_->Declared(args); d.declared) {
        if (d.writes) c.queued_flags |= kWrite;
        if (!d.allow_stale) c.queued_deny_stale = true;
      }
    }
    return reply.SimpleString("QUEUED");
  }
  Call(c, *spec, full_name, args, /*no_block=*/false, /*retrying=*/false);
}

void Server::Execute(Client& c, std::span<const std::string_view> args, bool no_block) {
  std::string_view full_name;
  std::string error;
  const CommandSpec* spec = Resolve(args, &full_name, &error);
  if (!spec) return c.reply->Error(error);
  // No replication refusal here: EXEC was checked as a whole when it started
  // (Redis: a REPLICAOF inside the transaction does not stop what follows);
  // scripts check their writes themselves (ScriptEngine::Call).
  if (c.user && !c.user->unrestricted()) {
    // EXEC re-checks (rules may have changed since queueing); scripts check
    // every redis.call with the caller's user.
    const bool script = c.conn == nullptr;
    AclDenial denial = CheckAcl(c, *spec, args, script ? "lua" : "multi");
    std::string_view why;
    switch (denial) {
      case AclDenial::kNone: break;
      case AclDenial::kCommand:
        why = script ? "The user executing the script can't run this command or subcommand"
                     : "no permission to execute the command or subcommand";
        break;
      case AclDenial::kKey:
        why = script ? "The user executing the script can't access at least one of the keys "
                       "mentioned in the command"
                     : "no permission to touch the specified keys";
        break;
      case AclDenial::kChannel:
        why = script ? "The user executing the script can't publish to the channel mentioned "
                       "in the command"
                     : "no permission to access one of the channels used as arguments";
        break;
    }
    if (!why.empty()) {
      return c.reply->Error(
          script ? "ERR " + std::string(why)
                 : "NOPERM ACLs rules changed between the moment the transaction was "
                   "accumulated and the EXEC call. This command is no longer allowed for the "
                   "following reason: " + std::string(why));
    }
  }
  Call(c, *spec, full_name, args, no_block, false);
}

void Server::Call(Client& c, const CommandSpec& spec, std::string_view full_name,
                  std::span<const std::string_view> args, bool no_block, bool retrying) {
  if (write_gate && (spec.flags & kWrite)) {
    std::string_view refusal = write_gate(c, spec);
    if (!refusal.empty()) return c.reply->Error(refusal);
  }
  c.last_command = full_name;
  const uint64_t start = CycleNow();
  const uint64_t mods_before = modifications_;
  const bool outer_propagated = propagated_;
  propagated_ = false;
  const bool monitored = !monitors_.empty() && !retrying && !(spec.flags & kAdmin);
  if (monitored && (spec.flags & kSkipMonitor)) FeedMonitors(c, args);
  Client* const outer_client = current_client_;
  const OuterCall outer_call = current_call_;
  if (c.conn) {  // scripts' writes belong to their caller
    current_client_ = &c;
    current_call_ = {&spec, args};
  }
  // Expiry on a replica (db/replica_expiry.cc): the primary's commands (and
  // what they call) see every key live; a writable replica's own writes
  // expire what they look up.
  const ReplicaExpiry outer_expiry = replica_expiry_;
  replica_expiry_.replica = repl_->is_replica();
  replica_expiry_.from_primary = c.obeyed || outer_expiry.from_primary;
  replica_expiry_.local_write =
      replica_expiry_.replica && !replica_expiry_.from_primary && (spec.flags & kWrite);
  const size_t reply_start = c.reply->buffer().size();
  CommandContext ctx{*this, c, *c.reply, args, retrying, no_block};
  call_depth_++;
  spec.handler(ctx);
  current_client_ = outer_client;
  current_call_ = outer_call;
  replica_expiry_ = {repl_->is_replica(), outer_expiry.from_primary, outer_expiry.local_write};
  if ((spec.flags & kReadOnly) && (!c.conn || c.tracking.on)) RememberReadKeys(c, spec, args);
  if (monitored && !(spec.flags & kSkipMonitor)) FeedMonitors(c, args);
  const int64_t ns = CyclesToNs(CycleNow() - start);
  const int64_t duration = ns / 1000;  // microseconds
  // Its own effect once it no longer runs (then fed to replicas uncopied).
  call_depth_--;
  if (modifications_ != mods_before) {
    stats_.dirty++;
    if ((spec.flags & kWrite) && !propagated_) EmitEffect(c.db_index, args);
  }
  if (call_depth_ == 0 && !pending_effects_.empty()) FlushEffects();
  propagated_ = outer_propagated;
  // A blocked client's retries are the same call, counted once (when it
  // blocked), as Redis counts it; their time and failure still count.
  if (!retrying) stats_.total_commands++;
  ServerStats::CommandStat& stat = stats_.per_command[&spec];
  if (!retrying) stat.calls++;
  if (stat.name.empty()) stat.name.assign(full_name);
  stat.usec += duration;
  stat.failed += c.reply->buffer().size() > reply_start && c.reply->buffer()[reply_start] == '-';
  if (config_.latency_tracking) stat.latency.Add(ns);
  if (config_.latency_monitor_threshold > 0) {  // (off by default)
    AddLatencySample(spec.flags & kFast ? "fast-command" : "command", duration / 1000);
  }
  // A blocking command is logged when it answers: at once, or when a
  // blocked client is served (its original arguments, as Redis 7.0).
  const bool answered = c.reply->buffer().size() > reply_start;
  if ((!(spec.flags & kBlocking) || answered) && !(spec.flags & kSkipSlowlog)) {
    slowlog_.Record(args, duration, config_.slowlog_log_slower_than,
                    static_cast<size_t>(config_.slowlog_max_len),
                    c.conn ? std::string_view(c.conn->peer()) : std::string_view(), c.name);
  }
}

}  // namespace rankd
