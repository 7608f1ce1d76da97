// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Every setting of Redis 7.0 that config.cc does not implement, so that a
// stock redis.conf starts rankd. Each is one of:
//   - accepted with no effect: tuning of encodings rankd does not have,
//     replication, cluster, TLS details, threads, defragmentation, ...
//     CONFIG GET shows the value set (Redis's default until then);
//   - refused with a reason (refuse below) when running without its effect
//     would be unsafe: Unix sockets;
//   - accepted with a start-up warning (CompatWarnings) when its promise is
//     not kept but running is still safe (supervised, ...).
// An entry whose name is already in the table (implemented in config.cc)
// is skipped, so implementing a setting there retires its entry here.
// docs/configuration.md lists them all; keep both in step.

#include <strings.h>

#include "base/numbers.h"
#include "base/split.h"
#include "server/config_param.h"
#include "server/oom_score.h"
#include "server/proc_title_template.h"

namespace rankd {
namespace {

using K = ConfigTable::Param::Kind;

struct Compat {
  std::string_view name, alias;
  K kind;                  // kInt, kMemory, kBool, kString or kEnum
  std::string_view value;  // Redis 7.0's default, as CONFIG GET prints it
  int64_t min = 0, max = LLONG_MAX;
  bool immutable = false;
  std::string_view choices = "";  // kEnum: space-separated
  std::string (*refuse)(std::string_view value) = nullptr;
};

constexpr int64_t kIntMax = INT_MAX, kLongMax = LLONG_MAX;
constexpr std::string_view kProtected = "no yes local";

// Names, aliases, defaults, ranges and choices as Redis 7.0's config.c.
const Compat kCompat[] = {
    // Security and safety: accepted only when their effect is not needed.
    {"enable-module-command", "", K::kEnum, "no", 0, 0, true, kProtected},
    {"sanitize-dump-payload", "", K::kEnum, "no", 0, 0, false, "no yes clients"},
    // Persistence details: rankd's log always has a snapshot base and is
    // fsynced by appendfsync alone (docs/persistence.md).
    {"aof-use-rdb-preamble", "", K::kBool, "yes"},
    {"aof-timestamp-enabled", "", K::kBool, "no"},
    {"aof-disable-auto-gc", "", K::kBool, "no"},
    {"aof-rewrite-incremental-fsync", "", K::kBool, "yes"},
    {"rdb-save-incremental-fsync", "", K::kBool, "yes"},
    {"no-appendfsync-on-rewrite", "", K::kBool, "no"},
    {"rdb-del-sync-files", "", K::kBool, "no"},
    // Process and logging.
    {"supervised", "", K::kEnum, "no", 0, 0, true, "upstart systemd auto no"},
    {"syslog-enabled", "", K::kBool, "no", 0, 0, true},
    {"syslog-ident", "", K::kString, "redis", 0, 0, true},
    {"syslog-facility", "", K::kEnum, "local0", 0, 0, true,
     "user local0 local1 local2 local3 local4 local5 local6 local7"},
    {"set-proc-title", "", K::kBool, "yes", 0, 0, true},
    // Applied by server/proc_title_template.h (read from compat_strings).
    {"proc-title-template", "", K::kString, "{title} {listen-addr} {server-mode}", 0, 0, false, "",
     &RefuseProcTitleTemplate},
    {"crash-log-enabled", "", K::kBool, "yes"},
    {"crash-memcheck-enabled", "", K::kBool, "yes"},
    // Redis: exit(1) instead of abort() on a panic (its test suite sets it).
    {"use-exit-on-panic", "", K::kBool, "no", 0, 0, true},
    {"disable-thp", "", K::kBool, "yes", 0, 0, true},
    {"oom-score-adj", "", K::kEnum, "no", 0, 0, false, "no yes relative absolute"},
    {"oom-score-adj-values", "", K::kString, "0 200 800", 0, 0, false, "", &RefuseOomScoreValues},
    {"shutdown-on-sigint", "", K::kString, "default", 0, 0, false, "", &RefuseShutdownOnSignal},
    {"shutdown-on-sigterm", "", K::kString, "default", 0, 0, false, "", &RefuseShutdownOnSignal},
    {"shutdown-timeout", "", K::kInt, "10", 0, kIntMax},
    {"ignore-warnings", "", K::kString, ""},
    {"server_cpulist", "", K::kString, "", 0, 0, true},
    {"bio_cpulist", "", K::kString, "", 0, 0, true},
    {"aof_rewrite_cpulist", "", K::kString, "", 0, 0, true},
    {"bgsave_cpulist", "", K::kString, "", 0, 0, true},
    // Network and threads.
    {"tcp-backlog", "", K::kInt, "511", 0, kIntMax, true},
    {"socket-mark-id", "", K::kInt, "0", 0, kIntMax},
    {"io-threads", "", K::kInt, "1", 1, 128, true},
    {"io-threads-do-reads", "", K::kBool, "no", 0, 0, true},
    // Applied by the replica's link (server/repl_link.cc, from compat_strings).
    {"bind-source-addr", "", K::kString, ""},
    // Memory.
    // Enforced by server/client_eviction.h (read from compat_strings).
    {"maxmemory-clients", "", K::kString, "0", 0, 0, false, "", &RefuseMemoryOrPercent},
    {"activerehashing", "", K::kBool, "yes"},
    {"activedefrag", "", K::kBool, "no"},
    {"active-defrag-ignore-bytes", "", K::kMemory, "104857600", 1, kLongMax},
    {"active-defrag-threshold-lower", "", K::kInt, "10", 0, 1000},
    {"active-defrag-threshold-upper", "", K::kInt, "100", 0, 1000},
    {"active-defrag-cycle-min", "", K::kInt, "1", 1, 99},
    {"active-defrag-cycle-max", "", K::kInt, "25", 1, 99},
    {"active-defrag-max-scan-fields", "", K::kInt, "1000", 1, kLongMax},
    {"jemalloc-bg-thread", "", K::kBool, "yes"},
    {"active-expire-effort", "", K::kInt, "1", 1, 10},
    {"dynamic-hz", "", K::kBool, "yes"},
    // Types rankd does not have (or has with its own encodings).
    // Introspection and events.
    {"propagation-error-behavior", "", K::kEnum, "ignore", 0, 0, false,
     "ignore panic panic-on-replicas"},
    // Replication (rankd has none).
    {"replica-ignore-disk-write-errors", "", K::kBool, "no"},
    {"replica-announced", "", K::kBool, "yes"},
    {"repl-diskless-sync", "", K::kBool, "yes"},
    {"repl-diskless-sync-delay", "", K::kInt, "5", 0, kIntMax},
    {"repl-diskless-sync-max-replicas", "", K::kInt, "0", 0, kIntMax},
    {"repl-diskless-load", "", K::kEnum, "disabled", 0, 0, false, "disabled on-empty-db swapdb"},
    {"repl-disable-tcp-nodelay", "", K::kBool, "no"},
    // Test settings (Redis's hidden ones): a pause per key while a snapshot
    // is written / loaded, in microseconds (negative: nanoseconds).
    {"rdb-key-save-delay", "", K::kInt, "0", -kIntMax - 1, kIntMax},
    {"key-load-delay", "", K::kInt, "0", -kIntMax - 1, kIntMax},
    {"loading-process-events-interval-bytes", "", K::kInt, "2097152", 1024, kIntMax},
    // Cluster mode (read by src/cluster: cluster_settings.h).
    {"cluster-enabled", "", K::kBool, "no", 0, 0, true},
    {"cluster-config-file", "", K::kString, "nodes.conf", 0, 0, true},
    {"cluster-port", "", K::kInt, "0", 0, 65535, true},
    {"cluster-node-timeout", "", K::kInt, "15000", 0, kLongMax},
    {"cluster-announce-ip", "", K::kString, ""},
    {"cluster-announce-hostname", "", K::kString, ""},
    {"cluster-announce-port", "", K::kInt, "0", 0, 65535},
    {"cluster-announce-bus-port", "", K::kInt, "0", 0, 65535},
    {"cluster-announce-tls-port", "", K::kInt, "0", 0, 65535},
    {"cluster-preferred-endpoint-type", "", K::kEnum, "ip", 0, 0, false,
     "ip hostname unknown-endpoint"},
    {"cluster-replica-validity-factor", "cluster-slave-validity-factor", K::kInt, "10", 0,
     kIntMax},
    {"cluster-replica-no-failover", "cluster-slave-no-failover", K::kBool, "no"},
    {"cluster-migration-barrier", "", K::kInt, "1", 0, kIntMax},
    {"cluster-require-full-coverage", "", K::kBool, "yes"},
    {"cluster-allow-reads-when-down", "", K::kBool, "no"},
    {"cluster-allow-pubsubshard-when-down", "", K::kBool, "yes"},
    {"cluster-allow-replica-migration", "", K::kBool, "yes"},
    {"cluster-link-sendbuf-limit", "", K::kMemory, "0", 0, kLongMax},
    // TLS details (tls-port must be 0, above).
    {"tls-client-cert-file", "", K::kString, ""},
    {"tls-client-key-file", "", K::kString, ""},
    {"tls-client-key-file-pass", "", K::kString, ""},
    {"tls-dh-params-file", "", K::kString, ""},
    {"tls-session-cache-size", "", K::kInt, "20480", 0, kIntMax},
    {"tls-session-cache-timeout", "", K::kInt, "300", 0, kIntMax},
};

}  // namespace

void ConfigTable::AddRedisCompatParams() {
  for (const Compat& e : kCompat) {
    if (Find(e.name) || (!e.alias.empty() && Find(e.alias))) continue;  // implemented
    Param p{e.name, e.alias, e.kind, nullptr, e.min, e.max, e.immutable, {}, e.refuse};
    const std::string name(e.name);
    switch (e.kind) {
      case Param::Kind::kInt:
      case Param::Kind::kMemory: {
        int64_t v = 0;
        (void)ParseInt64(e.value, &v);
        p.field = &cfg_->compat_ints.try_emplace(name, v).first->second;
        break;
      }
      case Param::Kind::kBool:
        p.field = &cfg_->compat_bools.try_emplace(name, e.value == "yes").first->second;
        break;
      default:
        p.field = &cfg_->compat_strings.try_emplace(name, e.value).first->second;
        p.choices = SplitSpaces(e.choices);
        break;
    }
    params_.push_back(std::move(p));
  }
}

std::vector<std::string> CompatWarnings(const Config& cfg) {
  std::vector<std::string> out;
  auto str = [&](std::string_view name) -> std::string {
    auto it = cfg.compat_strings.find(name);
    return it == cfg.compat_strings.end() ? "" : it->second;
  };
  if (std::string v = str("supervised"); !v.empty() && v != "no") {
    out.push_back("supervised " + v + " is not implemented: rankd does not notify its "
                  "supervisor (use Type=simple in a systemd unit)");
  }
  if (auto it = cfg.compat_bools.find("syslog-enabled"); it != cfg.compat_bools.end() && it->second) {
    out.push_back("syslog-enabled yes is not implemented: rankd logs to logfile (or stdout)");
  }
  if (std::string v = str("notify-keyspace-events"); !v.empty()) {
    out.push_back("notify-keyspace-events " + v + ": keyspace notifications are not "
                  "implemented in this build");
  }
  return out;
}

bool ConfigTable::SameAsCurrent(const Param& p, std::string_view value) const {
  // TLS settings Redis can change at run time (it reloads its TLS context)
  // and rankd cannot: setting the value they have is accepted, as a no-op.
  // And rankd's own load-redis-rdb (a start-up action).
  if (!p.name.starts_with("tls-") && p.name != "load-redis-rdb") {
    return false;
  }
  const std::string_view name = p.name;
  auto current = Get({name});
  if (current.empty()) return false;
  const std::vector<std::string_view> a = SplitSpaces(value), b = SplitSpaces(current[0].second);
  return a == b;
}

}  // namespace rankd
