// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// INFO [section ...]: Redis's sections and field names, so monitoring tools
// and client libraries that parse INFO keep working.

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "base/clock.h"
#include "base/memory.h"
#include "base/numbers.h"
#include "commands/persist_family.h"
#include "commands/server_handlers.h"
#include "server/server.h"

namespace rankd {
namespace {

class InfoWriter {
 public:
  void Section(std::string_view name) {
    if (!out_.empty()) out_ += "\r\n";
    out_ += "# ";
    out_ += name;
    out_ += "\r\n";
  }
  void Field(std::string_view name, std::string_view value) {
    out_.append(name);
    out_ += ':';
    out_.append(value);
    out_ += "\r\n";
  }
  void Field(std::string_view name, int64_t v) { Field(name, FormatInt64(v)); }
  std::string& text() { return out_; }

 private:
  std::string out_;
};

std::string HumanBytes(size_t n) {
  char buf[32];
  if (n < 1024) {
    snprintf(buf, sizeof(buf), "%zuB", n);
  } else if (n < 1024 * 1024) {
    snprintf(buf, sizeof(buf), "%.2fK", n / 1024.0);
  } else if (n < 1024ULL * 1024 * 1024) {
    snprintf(buf, sizeof(buf), "%.2fM", n / (1024.0 * 1024));
  } else {
    snprintf(buf, sizeof(buf), "%.2fG", n / (1024.0 * 1024 * 1024));
  }
  return buf;
}

void ServerSection(Server& s, InfoWriter& w) {
  utsname u;
  uname(&u);
  int64_t uptime = (MonoMs() - s.stats().start_mono_ms) / 1000;
  w.Section("Server");
  w.Field("redis_version", "7.0.15");
  w.Field("rankd_version", "0.1.0");
  w.Field("redis_mode", "standalone");
  w.Field("os", std::string(u.sysname) + " " + u.release + " " + u.machine);
  w.Field("arch_bits", 64);
  w.Field("multiplexing_api", "epoll");
  w.Field("process_id", getpid());
  w.Field("tcp_port", s.port());
  w.Field("server_time_usec", WallUs());
  w.Field("uptime_in_seconds", uptime);
  w.Field("uptime_in_days", uptime / 86400);
  w.Field("hz", s.config().hz);
  w.Field("executable", "rankd");
}

void ClientsSection(Server& s, InfoWriter& w) {
  int64_t blocked = 0;
  s.ForEachClient([&](Client& c) { blocked += c.blocked.active; });
  w.Section("Clients");
  w.Field("connected_clients", static_cast<int64_t>(s.net().size()));
  w.Field("maxclients", s.config().maxclients);
  w.Field("blocked_clients", blocked);
}

void MemorySection(Server& s, InfoWriter& w) {
  size_t used = AllocatedBytes(), rss = ResidentBytes();
  w.Section("Memory");
  w.Field("used_memory", static_cast<int64_t>(used));
  w.Field("used_memory_human", HumanBytes(used));
  w.Field("used_memory_rss", static_cast<int64_t>(rss));
  w.Field("used_memory_rss_human", HumanBytes(rss));
  w.Field("maxmemory", s.config().maxmemory);
  w.Field("maxmemory_human", HumanBytes(static_cast<size_t>(s.config().maxmemory)));
  w.Field("maxmemory_policy", s.config().maxmemory_policy);
  char ratio[32];
  snprintf(ratio, sizeof(ratio), "%.2f", used ? static_cast<double>(rss) / used : 0.0);
  w.Field("mem_fragmentation_ratio", ratio);
  w.Field("mem_not_counted_for_evict", 0);
  w.Field("mem_allocator", AllocatorName());
}

void PersistenceSection(Server& s, InfoWriter& w) {
  w.Section("Persistence");
  for (const auto& [name, value] : PersistInfoFields(s)) w.Field(name, value);
}

void StatsSection(Server& s, InfoWriter& w) {
  ServerStats& st = s.stats();
  uint64_t expired = 0;
  for (int i = 0; i < s.db_count(); i++) expired += s.db(i).expired_count();
  w.Section("Stats");
  w.Field("total_connections_received", static_cast<int64_t>(st.total_connections));
  w.Field("total_commands_processed", static_cast<int64_t>(st.total_commands));
  w.Field("instantaneous_ops_per_sec", static_cast<int64_t>(st.ops_per_sec));
  w.Field("total_net_input_bytes", static_cast<int64_t>(st.net_input_bytes));
  w.Field("total_net_output_bytes", static_cast<int64_t>(st.net_output_bytes));
  w.Field("rejected_connections", static_cast<int64_t>(st.rejected_connections));
  w.Field("expired_keys", static_cast<int64_t>(expired));
  w.Field("evicted_keys", static_cast<int64_t>(s.evictor().evicted_keys()));
  w.Field("keyspace_hits", static_cast<int64_t>(st.keyspace_hits));
  w.Field("keyspace_misses", static_cast<int64_t>(st.keyspace_misses));
}

void ReplicationSection(InfoWriter& w) {
  w.Section("Replication");
  w.Field("role", "master");
  w.Field("connected_slaves", 0);
}

void CpuSection(InfoWriter& w) {
  rusage self;
  getrusage(RUSAGE_SELF, &self);
  char buf[32];
  w.Section("CPU");
  snprintf(buf, sizeof(buf), "%ld.%06ld", self.ru_stime.tv_sec, static_cast<long>(self.ru_stime.tv_usec));
  w.Field("used_cpu_sys", buf);
  snprintf(buf, sizeof(buf), "%ld.%06ld", self.ru_utime.tv_sec, static_cast<long>(self.ru_utime.tv_usec));
  w.Field("used_cpu_user", buf);
}

void CommandStatsSection(Server& s, InfoWriter& w) {
  w.Section("Commandstats");
  for (auto& [spec, stat] : s.stats().per_command) {
    const std::string& name = stat.name;
    uint64_t calls = stat.calls, us = stat.usec;
    char buf[160];
    snprintf(buf, sizeof(buf), "calls=%llu,usec=%llu,usec_per_call=%.2f,rejected_calls=0,failed_calls=0",
             static_cast<unsigned long long>(calls), static_cast<unsigned long long>(us),
             calls ? static_cast<double>(us) / calls : 0.0);
    w.Field("cmdstat_" + name, buf);
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
  static constexpr std::string_view kDefault[] = {"server",      "clients", "memory",
                                                  "persistence", "stats",   "replication",
                                                  "cpu",         "keyspace"};
  std::vector<std::string> wanted;
  bool all = false;
  for (size_t i = 1; i < ctx.argc(); i++) {
    std::string s(ctx.arg(i));
    for (char& ch : s) ch = static_cast<char>(tolower(ch));
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
  if (want("replication")) ReplicationSection(w);
  if (want("cpu")) CpuSection(w);
  if (want("commandstats")) CommandStatsSection(s, w);
  if (want("keyspace")) KeyspaceSection(s, w);
  ctx.reply.Verbatim(w.text());
}

}  // namespace rankd
