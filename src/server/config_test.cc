// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The settings table: every Redis 7.0 name is known (a stock redis.conf
// starts rankd), names are unique, and settings whose effect rankd lacks are
// refused when ignoring them would be unsafe.

#include "server/config.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace rankd {
namespace {

// CONFIG GET * of redis-server 7.0 (Debian's build, TLS included).
const char* const kRedis70Names[] = {
    "acl-pubsub-default", "aclfile", "acllog-max-len", "active-defrag-cycle-max",
    "active-defrag-cycle-min", "active-defrag-ignore-bytes", "active-defrag-max-scan-fields",
    "active-defrag-threshold-lower", "active-defrag-threshold-upper", "active-expire-effort",
    "activedefrag", "activerehashing", "always-show-logo", "aof-disable-auto-gc",
    "aof-load-truncated", "aof-rewrite-incremental-fsync", "aof-timestamp-enabled",
    "aof-use-rdb-preamble", "aof_rewrite_cpulist", "appenddirname", "appendfilename",
    "appendfsync", "appendonly", "auto-aof-rewrite-min-size", "auto-aof-rewrite-percentage",
    "bgsave_cpulist", "bind", "bind-source-addr", "bio_cpulist", "busy-reply-threshold",
    "client-output-buffer-limit", "client-query-buffer-limit",
    "cluster-allow-pubsubshard-when-down", "cluster-allow-reads-when-down",
    "cluster-allow-replica-migration", "cluster-announce-bus-port", "cluster-announce-hostname",
    "cluster-announce-ip", "cluster-announce-port", "cluster-announce-tls-port",
    "cluster-config-file", "cluster-enabled", "cluster-link-sendbuf-limit",
    "cluster-migration-barrier", "cluster-node-timeout", "cluster-port",
    "cluster-preferred-endpoint-type", "cluster-replica-no-failover",
    "cluster-replica-validity-factor", "cluster-require-full-coverage",
    "cluster-slave-no-failover", "cluster-slave-validity-factor", "crash-log-enabled",
    "crash-memcheck-enabled", "daemonize", "databases", "dbfilename", "dir", "disable-thp",
    "dynamic-hz", "enable-debug-command", "enable-module-command", "enable-protected-configs",
    "hash-max-listpack-entries", "hash-max-listpack-value", "hash-max-ziplist-entries",
    "hash-max-ziplist-value", "hll-sparse-max-bytes", "hz", "ignore-warnings", "io-threads",
    "io-threads-do-reads", "jemalloc-bg-thread", "latency-monitor-threshold",
    "latency-tracking", "latency-tracking-info-percentiles", "lazyfree-lazy-eviction",
    "lazyfree-lazy-expire", "lazyfree-lazy-server-del", "lazyfree-lazy-user-del",
    "lazyfree-lazy-user-flush", "lfu-decay-time", "lfu-log-factor", "list-compress-depth",
    "list-max-listpack-size", "list-max-ziplist-size", "logfile", "loglevel", "lua-time-limit",
    "masterauth", "masteruser", "maxclients", "maxmemory", "maxmemory-clients",
    "maxmemory-eviction-tenacity", "maxmemory-policy", "maxmemory-samples",
    "min-replicas-max-lag", "min-replicas-to-write", "min-slaves-max-lag",
    "min-slaves-to-write", "no-appendfsync-on-rewrite", "notify-keyspace-events",
    "oom-score-adj", "oom-score-adj-values", "pidfile", "port", "proc-title-template",
    "propagation-error-behavior", "protected-mode", "proto-max-bulk-len", "rdb-del-sync-files",
    "rdb-save-incremental-fsync", "rdbchecksum", "rdbcompression", "repl-backlog-size",
    "repl-backlog-ttl", "repl-disable-tcp-nodelay", "repl-diskless-load", "repl-diskless-sync",
    "repl-diskless-sync-delay", "repl-diskless-sync-max-replicas", "repl-ping-replica-period",
    "repl-ping-slave-period", "repl-timeout", "replica-announce-ip", "replica-announce-port",
    "replica-announced", "replica-ignore-disk-write-errors", "replica-ignore-maxmemory",
    "replica-lazy-flush", "replica-priority", "replica-read-only", "replica-serve-stale-data",
    "replicaof", "requirepass", "sanitize-dump-payload", "save", "server_cpulist",
    "set-max-intset-entries", "set-proc-title", "shutdown-on-sigint", "shutdown-on-sigterm",
    "shutdown-timeout", "slave-announce-ip", "slave-announce-port", "slave-ignore-maxmemory",
    "slave-lazy-flush", "slave-priority", "slave-read-only", "slave-serve-stale-data",
    "slaveof", "slowlog-log-slower-than", "slowlog-max-len", "socket-mark-id",
    "stop-writes-on-bgsave-error", "stream-node-max-bytes", "stream-node-max-entries",
    "supervised", "syslog-enabled", "syslog-facility", "syslog-ident", "tcp-backlog",
    "tcp-keepalive", "timeout", "tls-auth-clients", "tls-ca-cert-dir", "tls-ca-cert-file",
    "tls-cert-file", "tls-ciphers", "tls-ciphersuites", "tls-client-cert-file",
    "tls-client-key-file", "tls-client-key-file-pass", "tls-cluster", "tls-dh-params-file",
    "tls-key-file", "tls-key-file-pass", "tls-port", "tls-prefer-server-ciphers",
    "tls-protocols", "tls-replication", "tls-session-cache-size", "tls-session-cache-timeout",
    "tls-session-caching", "tracking-table-max-keys", "unixsocket", "unixsocketperm",
    "zset-max-listpack-entries", "zset-max-listpack-value", "zset-max-ziplist-entries",
    "zset-max-ziplist-value",
};

TEST(ConfigTest, EveryRedis70SettingIsKnown) {
  Config cfg;
  ConfigTable table(&cfg);
  for (const char* name : kRedis70Names) EXPECT_TRUE(table.Known(name)) << name;
  // CONFIG GET * lists each once.
  std::set<std::string> seen;
  for (auto& [name, value] : table.Get({"*"})) EXPECT_TRUE(seen.insert(name).second) << name;
  EXPECT_GE(seen.size(), std::size(kRedis70Names));
}

TEST(ConfigTest, InertSettingsKeepWhatWasSetWithRedisDefaults) {
  Config cfg;
  ConfigTable table(&cfg);
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(table.Get({"aof-use-rdb-preamble"}), (Pairs{{"aof-use-rdb-preamble", "yes"}}));
  EXPECT_EQ(table.Get({"repl-backlog-size"}), (Pairs{{"repl-backlog-size", "1048576"}}));
  EXPECT_EQ(table.Get({"repl-diskless-load"}), (Pairs{{"repl-diskless-load", "disabled"}}));
  EXPECT_EQ(table.Set("io-threads", "4", true), "");
  EXPECT_EQ(table.Set("repl-backlog-size", "2mb", false), "");
  EXPECT_EQ(table.Set("slave-priority", "7", false), "");  // an alias
  EXPECT_EQ(table.Set("repl-diskless-load", "SWAPDB", false), "");
  EXPECT_EQ(table.Get({"io-threads", "repl-backlog-size", "replica-priority", "repl-diskless-load"}),
            (Pairs{{"repl-backlog-size", "2097152"}, {"replica-priority", "7"},
                   {"io-threads", "4"}, {"repl-diskless-load", "swapdb"}}));
  // Validated as Redis: types, ranges, choices, immutability.
  EXPECT_NE(table.Set("activedefrag", "maybe", false), "");
  EXPECT_NE(table.Set("active-defrag-cycle-max", "100", false), "");
  EXPECT_NE(table.Set("repl-diskless-load", "always", false), "");
  EXPECT_EQ(table.Set("io-threads", "2", false), "can't set immutable config");
  // A copy of the config (CONFIG SET's scratch) has its own values.
  Config copy = cfg;
  ConfigTable copy_table(&copy);
  EXPECT_EQ(copy_table.Set("io-threads", "8", true), "");
  EXPECT_EQ(table.Get({"io-threads"}), (Pairs{{"io-threads", "4"}}));
}

TEST(ConfigTest, SettingsUnsafeToIgnoreAreRefusedWithAReason) {
  Config cfg;
  ConfigTable table(&cfg);
  // replicaof is implemented (start-up only): validated as Redis.
  EXPECT_EQ(table.Set("replicaof", "10.0.0.1 6379", true), "");
  EXPECT_EQ(cfg.replicaof, (std::vector<std::string>{"10.0.0.1", "6379"}));
  EXPECT_EQ(table.Set("slaveof", "10.0.0.1 70000", true), "Invalid master port");
  EXPECT_EQ(table.Set("replicaof", "10.0.0.1", true), "wrong number of arguments");
  EXPECT_EQ(table.Set("replicaof", "no one", true), "");
  EXPECT_EQ(table.Set("replicaof", "10.0.0.1 6379", false), "can't set immutable config");
  EXPECT_EQ(table.Set("unixsocket", "/run/redis.sock", true), "");  // listened on now
  EXPECT_EQ(table.Set("unixsocketperm", "8", true), "argument couldn't be parsed as an octal number");
  EXPECT_EQ(table.Set("cluster-enabled", "yes", true), "");  // a cluster node (src/cluster)
  EXPECT_EQ(table.Set("min-replicas-to-write", "1", false), "");  // enforced now
  EXPECT_EQ(cfg.min_replicas_to_write, 1);
}

TEST(ConfigTest, PromisesNotKeptAreWarnedAbout) {
  Config cfg;
  ConfigTable table(&cfg);
  EXPECT_TRUE(CompatWarnings(cfg).empty());  // the defaults promise nothing rankd lacks
  ASSERT_EQ(table.Set("maxmemory", "1gb", true), "");  // enforced: no warning
  ASSERT_EQ(table.Set("supervised", "systemd", true), "");
  auto warnings = CompatWarnings(cfg);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("supervised"), std::string::npos);
}

}  // namespace
}  // namespace rankd
