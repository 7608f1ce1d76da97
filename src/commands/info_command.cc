// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// INFO [section ...]: Redis 7.0's sections and field names, in Redis's
// order, so monitoring tools and client libraries that parse INFO keep
// working. Fields about features rankd does not have (replicas, forks,
// modules, cluster) carry the values Redis shows when they are unused.

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/memory.h"
#include "base/numbers.h"
#include "cluster/bus.h"
#include "cluster/cluster.h"
#include "commands/dump_handlers.h"
#include "commands/info_writer.h"
#include "commands/persist_family.h"
#include "commands/server_handlers.h"
#include "scripting/script_engine.h"
#include "server/client_eviction.h"
#include "server/server.h"
#include "server/repl_buffers.h"
#include "server/repl_divergence.h"
#include "server/shutdown.h"

extern "C" {
#include <lua.h>
}

namespace rankd {
namespace {

// 40 hex characters, fixed for the life of the process (run_id, replid).
const std::string& RunId() {
  static const std::string id = [] {
    std::random_device rd;
    std::string s;
    for (int i = 0; i < 40; i++) s.push_back("0123456789abcdef"[rd() % 16]);
    return s;
  }();
  return id;
}

std::string Fixed(double v, int digits = 2) {
  char buf[64];
  snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

std::string Percent(double part, double whole) {
  return Fixed(whole > 0 ? part * 100.0 / whole : 0) + "%";
}

std::string ExecutablePath() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, n) : "rankd";
}

void ServerSection(Server& s, InfoWriter& w) {
  utsname u;
  uname(&u);
  int64_t uptime = (MonoMs() - s.stats().start_mono_ms) / 1000;
  w.Section("Server");
  w.Field("redis_version", "7.0.15");
  w.Field("rankd_version", "0.1.0");
  w.Field("redis_git_sha1", "00000000");
  w.Field("redis_git_dirty", 0);
  w.Field("redis_build_id", RunId().substr(0, 16));
  w.Field("redis_mode", "standalone");
  w.Field("os", std::string(u.sysname) + " " + u.release + " " + u.machine);
  w.Field("arch_bits", 64);
  w.Field("monotonic_clock", "POSIX clock_gettime");
  w.Field("multiplexing_api", "epoll");
  w.Field("atomicvar_api", "c11-builtin");
  w.Field("gcc_version", std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." +
                             std::to_string(__GNUC_PATCHLEVEL__));
  w.Field("process_id", getpid());
  w.Field("process_supervised", "no");
  w.Field("run_id", RunId());
  w.Field("tcp_port", s.port() != 0 ? s.port() : s.tls_port());  // as Redis
  w.Field("server_time_usec", WallUs());
  w.Field("uptime_in_seconds", uptime);
  w.Field("uptime_in_days", uptime / 86400);
  w.Field("hz", s.config().hz);
  w.Field("configured_hz", s.config().hz);
  w.Field("lru_clock", (WallMs() / 1000) & ((1 << 24) - 1));
  w.Field("executable", ExecutablePath());
  w.Field("config_file", s.config().config_file);
  w.Field("io_threads_active", 0);
  // Only while a shutdown waits for replicas, as Redis 7.0.
  if (int64_t ms = s.shutdown().remaining_ms(); ms > 0) w.Field("shutdown_in_milliseconds", ms);
}

void ClientsSection(Server& s, InfoWriter& w) {
  int64_t blocked = 0, in_timeout = 0, tracking = 0;
  size_t max_in = 0, max_out = 0;
  s.ForEachClient([&](Client& c) {
    // A client held by CLIENT PAUSE counts as blocked, as in Redis 7.0.
    blocked += c.blocked.active || !c.postponed.empty() || s.shutdown().is_waiter(c);
    tracking += c.tracking.on;
    in_timeout += c.blocked.active && c.blocked.timer != 0;
    if (c.conn) {
      max_in = std::max(max_in, c.conn->query_buffer_size());
      max_out = std::max(max_out, c.conn->output_buffer_size());
    }
  });
  w.Section("Clients");
  // As Redis: replicas' links are not counted (connected_slaves counts them).
  w.Field("connected_clients", static_cast<int64_t>(s.net().size()) -
                                   static_cast<int64_t>(s.replication().replicas().size()));
  w.Field("cluster_connections", 0);
  w.Field("maxclients", s.config().maxclients);
  w.Field("client_recent_max_input_buffer", static_cast<int64_t>(max_in));
  w.Field("client_recent_max_output_buffer", static_cast<int64_t>(max_out));
  w.Field("blocked_clients", blocked);
  w.Field("tracking_clients", tracking);
  w.Field("clients_in_timeout_table", in_timeout);
}

void MemorySection(Server& s, InfoWriter& w) {
  ServerStats& st = s.stats();
  const size_t used = AllocatedBytes(), rss = ResidentBytes();
  st.memory_peak = std::max(st.memory_peak, used);
  const size_t startup = std::min(st.memory_startup, used);
  size_t clients = 0;
  s.ForEachClient([&](Client& c) {
    if (c.conn) clients += c.conn->query_buffer_size() + c.conn->output_buffer_size();
  });
  const size_t overhead = std::min(used, startup + clients);
  ScriptEngine* scripts = static_cast<ScriptEngine*>(s.scripts());
  const int64_t lua =
      scripts ? static_cast<int64_t>(lua_gc(scripts->eval_state(), LUA_GCCOUNT, 0)) * 1024 +
                    lua_gc(scripts->eval_state(), LUA_GCCOUNTB, 0)
              : 0;
  const int64_t sys = static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  w.Section("Memory");
  w.Field("used_memory", static_cast<int64_t>(used));
  w.Field("used_memory_human", HumanBytes(used));
  w.Field("used_memory_rss", static_cast<int64_t>(rss));
  w.Field("used_memory_rss_human", HumanBytes(rss));
  w.Field("used_memory_peak", static_cast<int64_t>(st.memory_peak));
  w.Field("used_memory_peak_human", HumanBytes(st.memory_peak));
  w.Field("used_memory_peak_perc", Percent(used, st.memory_peak));
  w.Field("used_memory_overhead", static_cast<int64_t>(overhead));
  w.Field("used_memory_startup", static_cast<int64_t>(startup));
  w.Field("used_memory_dataset", static_cast<int64_t>(used - overhead));
  w.Field("used_memory_dataset_perc", Percent(used - overhead, used - startup));
  w.Field("allocator_allocated", static_cast<int64_t>(used));
  w.Field("allocator_active", static_cast<int64_t>(used));
  w.Field("allocator_resident", static_cast<int64_t>(rss));
  w.Field("total_system_memory", sys);
  w.Field("total_system_memory_human", HumanBytes(sys));
  w.Field("used_memory_lua", lua);
  w.Field("used_memory_vm_eval", lua);
  w.Field("used_memory_lua_human", HumanBytes(lua));
  w.Field("used_memory_scripts_eval", 0);
  w.Field("number_of_cached_scripts",
          scripts ? static_cast<int64_t>(scripts->script_count()) : 0);
  w.Field("number_of_functions",
          scripts ? static_cast<int64_t>(scripts->functions().function_count()) : 0);
  w.Field("number_of_libraries",
          scripts ? static_cast<int64_t>(scripts->functions().libraries().size()) : 0);
  w.Field("used_memory_vm_functions", 0);
  w.Field("used_memory_vm_total", lua);
  w.Field("used_memory_vm_total_human", HumanBytes(lua));
  w.Field("used_memory_functions", 0);
  w.Field("used_memory_scripts", 0);
  w.Field("used_memory_scripts_human", "0B");
  w.Field("maxmemory", s.config().maxmemory);
  w.Field("maxmemory_human", HumanBytes(s.config().maxmemory));
  w.Field("maxmemory_policy", s.config().maxmemory_policy);
  const double frag = used ? static_cast<double>(rss) / used : 0.0;
  w.Field("allocator_frag_ratio", "1.00");
  w.Field("allocator_frag_bytes", 0);
  w.Field("allocator_rss_ratio", Fixed(frag));
  w.Field("allocator_rss_bytes", static_cast<int64_t>(rss) - static_cast<int64_t>(used));
  w.Field("rss_overhead_ratio", "1.00");
  w.Field("rss_overhead_bytes", 0);
  w.Field("mem_fragmentation_ratio", Fixed(frag));
  w.Field("mem_fragmentation_bytes", static_cast<int64_t>(rss) - static_cast<int64_t>(used));
  w.Field("mem_not_counted_for_evict", ReplicaBufferBytes(s));
  w.Field("mem_replication_backlog", 0);
  // What the replicas' links hold unsent (rankd keeps no shared buffer).
  const int64_t repl_buffers = ReplicaBufferBytes(s);
  w.Field("mem_total_replication_buffers", repl_buffers);
  w.Field("mem_clients_slaves", repl_buffers);
  w.Field("mem_clients_normal", static_cast<int64_t>(clients));
  Cluster* cluster = Cluster::Of(s);
  w.Field("mem_cluster_links", cluster ? static_cast<int64_t>(cluster->bus().LinksMemory()) : 0);
  w.Field("mem_aof_buffer", 0);
  w.Field("mem_allocator", AllocatorName());
  w.Field("active_defrag_running", 0);
  w.Field("lazyfree_pending_objects", static_cast<int64_t>(s.lazy_free().pending_objects()));
  w.Field("lazyfreed_objects", static_cast<int64_t>(s.lazy_free().freed_objects() - st.lazyfreed_at_reset));
}

// Redis 7.0's persistence fields with the values it shows when no save,
// fork or module is running; the persistence layer supplies what it knows.
constexpr std::pair<std::string_view, std::string_view> kPersistenceDefaults[] = {
    {"loading", "0"}, {"async_loading", "0"}, {"current_cow_peak", "0"},
    {"current_cow_size", "0"}, {"current_cow_size_age", "0"}, {"current_fork_perc", "0.00"},
    {"current_save_keys_processed", "0"}, {"current_save_keys_total", "0"},
    {"rdb_changes_since_last_save", "0"}, {"rdb_bgsave_in_progress", "0"},
    {"rdb_last_save_time", "0"}, {"rdb_last_bgsave_status", "ok"},
    {"rdb_last_bgsave_time_sec", "-1"}, {"rdb_current_bgsave_time_sec", "-1"},
    {"rdb_saves", "0"}, {"rdb_last_cow_size", "0"}, {"rdb_last_load_keys_expired", "0"},
    {"rdb_last_load_keys_loaded", "0"}, {"aof_enabled", "0"}, {"aof_rewrite_in_progress", "0"},
    {"aof_rewrite_scheduled", "0"}, {"aof_last_rewrite_time_sec", "-1"},
    {"aof_current_rewrite_time_sec", "-1"}, {"aof_last_bgrewrite_status", "ok"},
    {"aof_rewrites", "0"}, {"aof_rewrites_consecutive_failures", "0"},
    {"aof_last_write_status", "ok"}, {"aof_last_cow_size", "0"},
    {"module_fork_in_progress", "0"}, {"module_fork_last_cow_size", "0"}};

void PersistenceSection(Server& s, InfoWriter& w) {
  w.Section("Persistence");
  std::vector<std::pair<std::string, std::string>> given = PersistInfoFields(s);
  auto is_given = [&](std::string_view name) {
    return std::any_of(given.begin(), given.end(), [&](auto& f) { return f.first == name; });
  };
  size_t next = 0;  // kPersistenceDefaults[0, next) are written or given
  auto defaults_before = [&](size_t end) {
    for (; next < end; next++) {
      auto [name, value] = kPersistenceDefaults[next];
      if (!is_given(name)) w.Field(name, value);
    }
  };
  for (const auto& [name, value] : given) {
    const auto* it = std::find_if(std::begin(kPersistenceDefaults), std::end(kPersistenceDefaults),
                                  [&](auto& d) { return d.first == name; });
    size_t pos = it - std::begin(kPersistenceDefaults);
    if (it != std::end(kPersistenceDefaults) && pos >= next) defaults_before(pos + 1);
    w.Field(name, value);
  }
  defaults_before(std::size(kPersistenceDefaults));
}

void StatsSection(Server& s, InfoWriter& w) {
  ServerStats& st = s.stats();
  uint64_t expired = 0;
  uint64_t expired_members = 0;
  for (int i = 0; i < s.db_count(); i++) {
    expired += s.db(i).expired_count();
    expired_members += s.db(i).expired_members();
  }
  auto n = [](uint64_t v) { return static_cast<int64_t>(v); };
  w.Section("Stats");
  w.Field("total_connections_received", n(st.total_connections));
  w.Field("total_commands_processed", n(st.total_commands));
  w.Field("instantaneous_ops_per_sec", static_cast<int64_t>(st.ops_per_sec));
  w.Field("total_net_input_bytes", n(st.net_input_bytes));
  w.Field("total_net_output_bytes", n(st.net_output_bytes));
  w.Field("total_net_repl_input_bytes", 0);
  w.Field("total_net_repl_output_bytes", 0);
  for (auto name : {"instantaneous_input_kbps", "instantaneous_output_kbps",
                    "instantaneous_input_repl_kbps", "instantaneous_output_repl_kbps"}) {
    w.Field(name, "0.00");
  }
  w.Field("rejected_connections", n(st.rejected_connections));
  w.Field("sync_full", s.replication().sync_full());
  w.Field("sync_partial_ok", s.replication().sync_partial_ok());
  w.Field("sync_partial_err", s.replication().sync_partial_err());
  w.Field("expired_keys", n(expired));
  w.Field("expired_members", n(expired_members));  // rankd: member expiry
  w.Field("expired_stale_perc", "0.00");
  w.Field("expired_time_cap_reached_count", 0);
  w.Field("expire_cycle_cpu_milliseconds", 0);
  w.Field("evicted_keys", n(s.evictor().evicted_keys()));
  w.Field("evicted_clients", n(st.evicted_clients));
  w.Field("total_eviction_exceeded_time", 0);
  w.Field("current_eviction_exceeded_time", 0);
  w.Field("keyspace_hits", n(st.keyspace_hits));
  w.Field("keyspace_misses", n(st.keyspace_misses));
  w.Field("pubsub_channels", static_cast<int64_t>(s.pubsub().NumNames(PubSub::kChannel)));
  w.Field("pubsub_patterns", static_cast<int64_t>(s.pubsub().NumPatterns()));
  w.Field("pubsubshard_channels", static_cast<int64_t>(s.pubsub().NumNames(PubSub::kShard)));
  w.Field("latest_fork_usec", st.latest_fork_usec);
  w.Field("total_forks", n(st.total_forks));
  w.Field("migrate_cached_sockets", static_cast<int64_t>(MigrateCachedSockets()));
  for (auto name : {"slave_expires_tracked_keys",
                    "active_defrag_hits", "active_defrag_misses", "active_defrag_key_hits",
                    "active_defrag_key_misses", "total_active_defrag_time",
                    "current_active_defrag_time"}) {
    w.Field(name, 0);
  }
  w.Field("tracking_total_keys", static_cast<int64_t>(s.tracking().table_keys()));
  w.Field("tracking_total_items", static_cast<int64_t>(s.tracking().table_items()));
  w.Field("tracking_total_prefixes", static_cast<int64_t>(s.tracking().prefixes()));
  w.Field("unexpected_error_replies", static_cast<int64_t>(UnexpectedErrorReplies()));
  w.Field("total_error_replies", n(st.errors.total));
  w.Field("dump_payload_sanitizations", 0);
  w.Field("total_reads_processed", n(st.total_commands));
  w.Field("total_writes_processed", n(st.total_commands));
  for (auto name : {"io_threaded_reads_processed", "io_threaded_writes_processed",
                    "reply_buffer_shrinks", "reply_buffer_expands"}) {
    w.Field(name, 0);
  }
}

void ReplicationSection(Server& s, InfoWriter& w) {
  Replication& repl = s.replication();
  const int64_t offset = static_cast<int64_t>(repl.offset());
  w.Section("Replication");
  w.Field("role", repl.is_replica() ? "slave" : "master");
  if (repl.is_replica()) {
    w.Field("master_host", repl.master_host());
    w.Field("master_port", repl.master_port());
    w.Field("master_link_status", repl.link_up() ? "up" : "down");
    w.Field("master_last_io_seconds_ago", repl.last_io_seconds_ago());
    w.Field("master_sync_in_progress", repl.sync_in_progress() ? 1 : 0);
    w.Field("slave_read_repl_offset", static_cast<int64_t>(repl.read_offset()));
    w.Field("slave_repl_offset", offset);
    if (!repl.link_up()) w.Field("master_link_down_since_seconds", repl.link_down_seconds());
    w.Field("slave_priority", s.config().replica_priority);
    w.Field("slave_read_only", s.config().replica_read_only ? 1 : 0);
    w.Field("replica_announced", 1);
  }
  w.Field("connected_slaves", static_cast<int64_t>(repl.replicas().size()));
  if (s.config().min_replicas_to_write > 0 && s.config().min_replicas_max_lag > 0) {
    w.Field("min_slaves_good_slaves", repl.GoodReplicas());
  }
  const int64_t now = MonoMs();
  int n = 0;
  for (const ReplicaInfo& r : repl.replicas()) {
    w.Field("slave" + std::to_string(n++),
            "ip=" + r.ip + ",port=" + std::to_string(r.port) + ",state=" +
                std::string(r.state_name()) + ",offset=" + std::to_string(r.ack_offset) +
                ",lag=" + std::to_string((now - r.last_ack_ms) / 1000));
  }
  w.Field("master_failover_state", repl.failover_state_name());
  w.Field("master_replid", repl.replid());
  w.Field("master_replid2", repl.replid2());
  w.Field("master_repl_offset", offset);
  w.Field("second_repl_offset", repl.second_offset());
  const ReplBacklog* backlog = repl.backlog();
  w.Field("repl_backlog_active", backlog ? 1 : 0);
  w.Field("repl_backlog_size", s.config().repl_backlog_size);
  w.Field("repl_backlog_first_byte_offset",
          backlog ? static_cast<int64_t>(backlog->first_offset()) : 0);
  w.Field("repl_backlog_histlen", backlog ? backlog->histlen() : 0);
}

void CpuSection(InfoWriter& w) {
  auto seconds = [](const timeval& t) {
    char buf[32];
    snprintf(buf, sizeof(buf), "%ld.%06ld", static_cast<long>(t.tv_sec),
             static_cast<long>(t.tv_usec));
    return std::string(buf);
  };
  rusage self, children, thread;
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &children);
  getrusage(RUSAGE_THREAD, &thread);
  w.Section("CPU");
  w.Field("used_cpu_sys", seconds(self.ru_stime));
  w.Field("used_cpu_user", seconds(self.ru_utime));
  w.Field("used_cpu_sys_children", seconds(children.ru_stime));
  w.Field("used_cpu_user_children", seconds(children.ru_utime));
  w.Field("used_cpu_sys_main_thread", seconds(thread.ru_stime));
  w.Field("used_cpu_user_main_thread", seconds(thread.ru_utime));
}

void CommandStatsSection(Server& s, InfoWriter& w) {
  w.Section("Commandstats");
  for (auto& [spec, stat] : s.stats().per_command) {
    char buf[200];
    snprintf(buf, sizeof(buf),
             "calls=%llu,usec=%llu,usec_per_call=%.2f,rejected_calls=%llu,failed_calls=%llu",
             static_cast<unsigned long long>(stat.calls),
             static_cast<unsigned long long>(stat.usec),
             stat.calls ? static_cast<double>(stat.usec) / stat.calls : 0.0,
             static_cast<unsigned long long>(stat.rejected),
             static_cast<unsigned long long>(stat.failed));
    w.Field("cmdstat_" + stat.name, buf);
  }
}

void ErrorStatsSection(Server& s, InfoWriter& w) {
  w.Section("Errorstats");
  for (const auto& [code, count] : s.stats().errors.by_code) {
    w.Field("errorstat_" + code, "count=" + FormatInt64(static_cast<int64_t>(count)));
  }
}

void KeyspaceSection(Server& s, InfoWriter& w) {
  w.Section("Keyspace");
  for (int i = 0; i < s.db_count(); i++) {
    Database& db = s.db(i);
    if (db.size() == 0) continue;
    w.Field("db" + FormatInt64(i), "keys=" + FormatInt64(static_cast<int64_t>(db.size())) +
                                       ",expires=" +
                                       FormatInt64(static_cast<int64_t>(db.expires_size())) +
                                       ",avg_ttl=0");
  }
}

}  // namespace

void InfoCmd(CommandContext& ctx) {
  // Redis 7.0: no argument or "default" is these; "all" adds commandstats and
  // latencystats; "everything" adds module-generated sections (none here).
  static constexpr std::string_view kDefault[] = {
      "server", "clients", "memory", "persistence", "stats", "replication",
      "cpu", "modules", "errorstats", "cluster", "keyspace"};
  std::vector<std::string> wanted;
  bool all = false;
  for (size_t i = 1; i < ctx.argc(); i++) {
    std::string s(ctx.arg(i));
    for (char& ch : s) ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
    if (s == "all" || s == "everything") {
      all = true;
    } else if (s == "default") {
      wanted.insert(wanted.end(), std::begin(kDefault), std::end(kDefault));
    } else {
      wanted.push_back(s);
    }
  }
  if (ctx.argc() == 1) wanted.assign(std::begin(kDefault), std::end(kDefault));
  auto want = [&](std::string_view name) {
    return all || std::find(wanted.begin(), wanted.end(), name) != wanted.end();
  };
  Server& s = ctx.server;
  InfoWriter w;
  if (want("server")) ServerSection(s, w);
  if (want("clients")) ClientsSection(s, w);
  if (want("memory")) MemorySection(s, w);
  if (want("persistence")) PersistenceSection(s, w);
  if (want("stats")) StatsSection(s, w);
  if (want("replication")) ReplicationSection(s, w);
  if (want("cpu")) CpuSection(w);
  if (want("modules")) w.Section("Modules");
  if (want("commandstats")) CommandStatsSection(s, w);
  if (want("errorstats")) ErrorStatsSection(s, w);
  if (want("latencystats")) LatencyStatsSection(s, w);
  if (want("cluster")) {
    w.Section("Cluster");
    w.Field("cluster_enabled", s.cluster() ? 1 : 0);
  }
  if (want("keyspace")) KeyspaceSection(s, w);
  // Named only (see info_writer.h): not part of all / everything.
  if (std::find(wanted.begin(), wanted.end(), "leaderboards") != wanted.end()) {
    LeaderboardsInfoSection(s, w);
  }
  ctx.reply.Verbatim(w.text());
}

}  // namespace rankd
