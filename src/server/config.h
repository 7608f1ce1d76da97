// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Config: every setting rankd understands, named as in redis.conf, with one
// table that both the command line / config file (app/) and CONFIG GET/SET
// use. Values are typed fields of Config; the table knows how to parse,
// validate and print each one.

#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rankd {

struct OutputBufferLimit {
  int64_t hard = 0, soft = 0, soft_seconds = 0;  // bytes, bytes, seconds; 0: none
};

struct Config {
  // Network.
  int64_t port = 6379;
  // Redis's default (every IPv4 and, when there is one, IPv6 address);
  // protected-mode keeps remote clients out while there is no password.
  std::vector<std::string> bind = {"*", "-::*"};
  int64_t maxclients = 10000;
  int64_t timeout = 0;
  int64_t tcp_keepalive = 300;
  bool protected_mode = true;
  int64_t proto_max_bulk_len = 512LL * 1024 * 1024;
  int64_t client_query_buffer_limit = 1024LL * 1024 * 1024;
  // client-output-buffer-limit, per client class: normal, replica (a
  // replica's link, server/repl_fullsync.cc) and pubsub.
  OutputBufferLimit obuf_normal;
  OutputBufferLimit obuf_replica{256LL * 1024 * 1024, 64LL * 1024 * 1024, 60};
  OutputBufferLimit obuf_pubsub{32LL * 1024 * 1024, 8LL * 1024 * 1024, 60};
  // TLS (net/tls.h); read when the server starts.
  int64_t tls_port = 0;
  std::string tls_cert_file, tls_key_file, tls_key_file_pass, tls_ca_cert_file, tls_ca_cert_dir;
  std::string tls_auth_clients = "yes";
  std::string tls_protocols, tls_ciphers, tls_ciphersuites;
  bool tls_prefer_server_ciphers = false;
  bool tls_session_caching = true;
  bool tls_replication = false;
  bool tls_cluster = false;
  // Server.
  std::string dir = ".";
  std::string config_file;  // absolute path of the file given at start-up, or ""
  int64_t databases = 16;
  std::string loglevel = "notice";
  std::string logfile;
  std::string requirepass;
  std::string aclfile;  // users file (ACL SAVE / LOAD); "" for none
  int64_t hz = 10;
  int64_t watchdog_period = 0;  // ms; 0: no watchdog (base/crash_report.h)
  std::string pidfile;
  std::string unixsocket;            // "" for none
  std::string unixsocketperm = "0";  // octal file mode; "0" keeps the umask's
  bool always_show_logo = false;
  bool daemonize = false;
  int64_t maxmemory = 0;
  std::string maxmemory_policy = "noeviction";
  int64_t maxmemory_samples = 5;
  int64_t maxmemory_eviction_tenacity = 10;
  int64_t lfu_log_factor = 10;
  int64_t lfu_decay_time = 1;
  bool lazyfree_lazy_eviction = false;  // large evicted values: db/lazy_free.h
  bool lazyfree_lazy_user_del = false;  // DEL behaves as UNLINK
  bool lazyfree_lazy_expire = false;     // expired keys: db/lazy_free.h
  bool lazyfree_lazy_server_del = false;  // implicit deletes and overwrites
  bool lazyfree_lazy_user_flush = false;  // FLUSHALL / FLUSHDB without SYNC|ASYNC
  int64_t slowlog_log_slower_than = 10000;
  int64_t slowlog_max_len = 128;
  int64_t acllog_max_len = 128;  // ACL LOG entries kept
  std::string acl_pubsub_default = "resetchannels";  // or "allchannels"
  // Beyond Redis: failed AUTH slows down (server/auth_throttle.h).
  int64_t auth_free_failures = 10;
  int64_t auth_address_free_failures = 100;
  int64_t auth_delay_ms = 10;
  int64_t auth_max_delay_ms = 2000;
  int64_t auth_max_failures = 100;
  int64_t busy_reply_threshold = 5000;  // lua-time-limit
  int64_t notify_keyspace_events = 0;   // NotifyClass bits (server/notify.h)
  int64_t tracking_table_max_keys = 1000000;
  int64_t lb_watch_interval = 100;  // ms between LB.WATCH messages per board
  // Introspection and tooling.
  int64_t latency_monitor_threshold = 0;  // ms; 0: off
  bool latency_tracking = true;           // per-command histograms
  std::vector<double> latency_tracking_info_percentiles = {50, 99, 99.9};
  // Protected actions (Redis 7.0): "no", "yes" or "local" (127.0.0.1 / ::1
  // clients only). See server/protected_action.h.
  std::string enable_protected_configs = "no";
  std::string enable_debug_command = "no";
  // Data types.
  int64_t zset_max_listpack_entries = 128;
  int64_t zset_max_listpack_value = 64;
  int64_t set_max_intset_entries = 512;
  int64_t set_max_listpack_entries = 128;
  int64_t set_max_listpack_value = 64;
  int64_t hash_max_listpack_entries = 512;
  int64_t hash_max_listpack_value = 64;
  int64_t list_max_listpack_size = -2;  // > 0: entries per chunk; -1..-5: 4..64 KB
  int64_t list_compress_depth = 0;      // chunks kept raw at each end of new lists
  int64_t hll_sparse_max_bytes = 3000;  // a sparse HyperLogLog growing past this turns dense
  int64_t stream_node_max_bytes = 4096;   // bytes of a stream node (0: no limit)
  int64_t stream_node_max_entries = 100;  // entries of a stream node (0: no limit)
  // Persistence.
  bool appendonly = false;
  std::string appendfilename = "appendonly.aof";
  std::string appenddirname = "appendonlydir";
  std::string appendfsync = "everysec";
  int64_t auto_aof_rewrite_percentage = 100;
  int64_t auto_aof_rewrite_min_size = 64LL * 1024 * 1024;
  // A torn last record of the log (a crash cut it short) is dropped at
  // start-up when true; when false start-up refuses (Redis's meaning).
  bool aof_load_truncated = true;
  std::string dbfilename = "dump.rdb";
  // A Redis dump.rdb loaded at start into an empty data set (migration).
  std::string load_redis_rdb;
  // The files SAVE, BGSAVE and the append-only log write from now on:
  // "redis" (Redis 7.0's RDB and multi-part AOF, rankd's extras in RDB aux
  // fields) or "rankd" (rankd's checksummed formats, persist/format.h).
  // Both are always read (docs/persistence.md).
  std::string persist_format = "redis";
  std::vector<std::pair<int64_t, int64_t>> save = {{3600, 1}, {300, 100}, {60, 10000}};
  bool stop_writes_on_bgsave_error = true;
  bool rdbcompression = true;
  bool rdbchecksum = true;
  // Redis 7.0 settings rankd accepts but that change nothing here, by name
  // (table: config_compat.cc; list and reasons: docs/configuration.md).
  // CONFIG GET shows what was set.
  std::map<std::string, int64_t, std::less<>> compat_ints;  // kInt, kMemory
  std::map<std::string, bool, std::less<>> compat_bools;
  std::map<std::string, std::string, std::less<>> compat_strings;  // kString, kEnum
  // compat_ints' value of `name`, or `missing` when it was never set.
  int64_t CompatInt(std::string_view name, int64_t missing = 0) const {
    auto it = compat_ints.find(name);
    return it == compat_ints.end() ? missing : it->second;
  }
  // Replication.
  std::string masterauth;
  std::string masteruser;
  bool replica_read_only = true;
  bool replica_ignore_maxmemory = true;  // a replica does not evict (its primary does)
  int64_t repl_ping_replica_period = 10;  // seconds between the primary's PINGs
  int64_t repl_timeout = 60;              // seconds of silence that drop a link
  int64_t repl_backlog_size = 1024 * 1024;  // bytes of stream kept for PSYNC
  int64_t repl_backlog_ttl = 3600;  // seconds without replicas before a primary frees it
  std::vector<std::string> replicaof;  // {host, port} to follow from start-up; empty: primary
  int64_t min_replicas_to_write = 0;   // writes need this many replicas...
  int64_t min_replicas_max_lag = 10;   // ...that ACKed within this many seconds
  bool replica_serve_stale_data = true;
  bool replica_lazy_flush = false;  // a full sync frees the old data set lazily
  int64_t replica_priority = 100;      // for Sentinel (INFO slave_priority)
  std::string replica_announce_ip;     // REPLCONF ip-address, when set
  int64_t replica_announce_port = 0;   // REPLCONF listening-port, when not 0
};

class ConfigTable {
 public:
  // `cfg` must outlive the table. `on_change(name)` runs after a successful
  // CONFIG SET of `name` (the server applies it to live state).
  explicit ConfigTable(Config* cfg);
  ~ConfigTable();
  ConfigTable(const ConfigTable&) = delete;
  ConfigTable& operator=(const ConfigTable&) = delete;

  // Sets one parameter by name or alias (case-insensitive). `at_startup`
  // allows immutable ones (port, databases, ...). Returns "" on success, else
  // the reason, e.g. "argument must be a memory value".
  std::string Set(std::string_view name, std::string_view value, bool at_startup);

  // CONFIG SET semantics for several pairs: all or nothing. Returns "" or
  // Redis's error text (without "ERR ").
  std::string SetMany(const std::vector<std::pair<std::string, std::string>>& pairs);

  // Name/value pairs whose canonical name or alias matches any glob pattern
  // (CONFIG GET), each parameter once, canonical names first then aliases.
  std::vector<std::pair<std::string, std::string>> Get(
      const std::vector<std::string_view>& patterns) const;

  // True if `name` is a known parameter or alias.
  bool Known(std::string_view name) const;
  // True for a parameter whose value is one word (a number, yes/no, one
  // choice): the command line refuses more or none, as Redis.
  bool TakesOneWord(std::string_view name) const;

  // CONFIG REWRITE's view: each parameter by its canonical name, in table
  // order, with the redis.conf lines that set its current value, written
  // as Redis writes them (memory as "64mb", strings quoted, one "save"
  // line per save point or `save ""`, one client-output-buffer-limit line
  // per class).
  std::vector<std::pair<std::string_view, std::vector<std::string>>> Lines() const;

  std::function<void(std::string_view name)> on_change;
  // CONFIG SET (SetMany): runs once every pair was validated, with the
  // configuration they would make, before any is applied. A non-empty
  // return (the whole error text) fails the call with nothing changed.
  // The server moves its listeners here (port, bind), which can fail.
  std::function<std::string(const Config& next)> before_commit;

  // One row of the table; defined in server/config_param.h (internal).
  struct Param;

 private:
  const Param* Find(std::string_view name) const;
  // True for port / bind / tls-* when `value` is what they hold now.
  bool SameAsCurrent(const Param& p, std::string_view value) const;
  // Appends every Redis 7.0 setting not in the table yet (config_compat.cc).
  void AddRedisCompatParams();
  Config* cfg_;
  std::vector<Param> params_;
};

// Warnings to log at start-up: settings whose value promises something
// rankd does not do but that are safe to run with (e.g. maxmemory > 0).
std::vector<std::string> CompatWarnings(const Config& cfg);

// Parses a redis.conf memory value: "100", "1k", "1kb", "5mb", "1gb" (k =
// 1000, kb = 1024, as Redis). False on anything else.
bool ParseMemory(std::string_view s, int64_t* out);

// A percentile as Redis writes it in CONFIG GET and INFO latencystats:
// printf "%f" without trailing zeros or dot (50.0 -> "50", 99.9 -> "99.9").
std::string FormatPercentile(double p);

// Formats bytes as Redis writes memory values in a config file: "1gb",
// "64mb", "512kb" when exact, else the plain number.
std::string FormatMemory(int64_t bytes);

// Quotes a string as Redis's sdscatrepr: "...", with \\ \" \n \r \t \a
// \b and \xHH escapes.
std::string QuoteConfigString(std::string_view s);

// Parses a whole config file's text into (name, args) lines: '#' comments,
// blank lines, double/single-quoted arguments. Returns "" or an error naming
// the line.
std::string ParseConfigText(std::string_view text,
                            std::vector<std::pair<std::string, std::vector<std::string>>>* out);

}  // namespace rankd
