// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// rankd entry point: `rankd [config-file] [--name value ...]`. Parses the
// configuration, moves into `dir`, starts the server and runs it until
// SHUTDOWN or SIGTERM/SIGINT. Persistence: the data set is loaded before the
// port opens and saved at exit when save points are configured (as Redis).
// `rankd --check-aof [--fix] <path>` checks persistence files instead
// (persist/check_tool.h).

#include <cstdlib>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <set>
#include <cstdlib>
#include <string_view>

#include "app/banner.h"
#include "app/daemon.h"
#include "app/options.h"
#include "base/crash_report.h"
#include "base/logging.h"
#include "base/numbers.h"
#include "base/proc_title.h"
#include "cluster/cluster.h"
#include "commands/families.h"
#include "durability/persist_manager.h"
#include "persist/check_tool.h"
#include "persist/env.h"
#include "server/server.h"
#include "server/shutdown.h"

// jemalloc's start-up options (read only when jemalloc is the allocator).
// A background thread returns freed pages to the OS after ~1 s instead of
// waiting for allocator activity: after a large load (a 1M-member ZADD run
// regrows the member index several times) RSS otherwise stays ~25% above
// what is allocated until the next burst of writes. Redis enables the same
// thread (jemalloc-bg-thread yes).
// oversize_threshold: blocks of 2 MiB and more (a big set's member index,
// which a load regrows ~10 times) come from jemalloc's dedicated arena,
// whose freed pages go back at once instead of after the decay: RSS right
// after loading 1M members is then ~40 B/element, the settled figure,
// instead of 45-50 (issue 16; bench/RESULTS.md).
extern "C" {
const char* malloc_conf =
    "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0,oversize_threshold:2097152";
}

namespace {

rankd::EventLoop* g_loop = nullptr;
char g_temp_rdb[64];  // "temp-<pid>.rdb": a foreground save's file, in `dir`

// SIGTERM / SIGINT: the server's cron starts the shutdown. A second SIGINT
// while one is pending (a slow final save) exits at once and removes the
// save's temporary file, as Redis does.
void OnSignal(int sig) {
  if (rankd::SignalShutdown(sig) && sig == SIGINT) {
    static const char kMsg[] = "You insist on shutting down the server, exiting now\n";
    (void)!write(STDOUT_FILENO, kMsg, sizeof(kMsg) - 1);
    unlink(g_temp_rdb);
    _exit(1);
  }
  if (g_loop) g_loop->Wake();
}

}  // namespace

namespace rankd {

// ACL users from `user` lines or the aclfile (Redis refuses both at once).
std::string LoadUsers(Server& server, const std::vector<std::vector<std::string>>& users) {
  const std::string& path = server.config().aclfile;
  if (!path.empty() && !users.empty()) {
    return "Configuring Redis with users defined in redis.conf and at the same setting an ACL "
           "file path is invalid. This setup is very likely to lead to configuration errors and "
           "security holes, please define either an ACL file or declare users directly in your "
           "redis.conf, but not both.";
  }
  if (!path.empty()) {
    std::ifstream in(path);
    if (!in) return "Error loading ACLs, opening file '" + path + "'";
    std::stringstream ss;
    ss << in.rdbuf();
    std::string error = server.acl().LoadText(ss.str());
    return error.empty() ? "" : "Error in user declaration '" + path + "': " + error;
  }
  std::set<std::string> seen;
  for (const auto& line : users) {
    if (!seen.insert(line[0]).second) {
      return "Error in user declaration '" + line[0] +
             "': Duplicate user found. A user can only be defined once in config files";
    }
    std::vector<std::string_view> rules(line.begin() + 1, line.end());
    // As Redis: a declared default user starts from "reset" (so without
    // &* unless acl-pubsub-default allchannels); other users start new.
    if (line[0] == "default") rules.insert(rules.begin(), "reset");
    std::string error = server.acl().SetUser(line[0], rules);
    if (!error.empty()) return "Error in user declaration '" + line[0] + "': " + error;
  }
  return "";
}

}  // namespace rankd

int main(int argc, char** argv) {
  using namespace rankd;
  if (argc >= 2 && std::string_view(argv[1]) == "--check-aof") {
    return RunCheckTool(Env::Default(), argc - 1, argv + 1, stdout);
  }
  StartupOptions opts;
  std::string error = ParseCommandLine(argc, argv, &opts);
  if (!error.empty()) {
    fprintf(stderr, "rankd: %s\n", error.c_str());
    return 1;
  }
  if (opts.show_version) {
    printf("rankd v=0.1.0 (Redis protocol 7.0 compatible)\n");
    return 0;
  }
  if (opts.show_help) {
    printf("Usage: rankd [/path/to/rankd.conf] [--name value ...]\n"
           "Example: rankd --port 6380 --dir ./data --appendonly yes\n"
           "Options are named as in redis.conf; see docs/configuration.md.\n");
    return 0;
  }
  Config config;
  ConfigTable table(&config);
  StartupDirectives directives;
  error = ApplyStartupOptions(opts, &table, &directives);
  if (!opts.config_file.empty()) {
    char* path = realpath(opts.config_file.c_str(), nullptr);
    config.config_file = path ? path : opts.config_file;
    free(path);
  }
  if (!error.empty()) {
    fprintf(stderr, "rankd: %s\n", error.c_str());
    return 1;
  }
  LogLevel level;
  if (ParseLogLevel(config.loglevel, &level)) SetLogLevel(level);
  if (!SetLogFile(config.logfile)) {
    fprintf(stderr, "rankd: can't open the log file '%s'\n", config.logfile.c_str());
    return 1;
  }
  InstallCrashHandlers("0.1.0");
  for (const std::string& w : CompatWarnings(config)) LOG_WARNING("WARNING: %s", w.c_str());
  // A relative load-redis-rdb path names a file from where rankd started.
  if (!config.load_redis_rdb.empty() && config.load_redis_rdb[0] != '/') {
    char cwd[4096];
    if (getcwd(cwd, sizeof(cwd))) config.load_redis_rdb = std::string(cwd) + "/" + config.load_redis_rdb;
  }
  if (chdir(config.dir.c_str()) != 0) {
    fprintf(stderr, "rankd: can't chdir to '%s': %m\n", config.dir.c_str());
    return 1;
  }
  if (config.daemonize && !Daemonize()) {
    fprintf(stderr, "rankd: can't daemonize: %m\n");
    return 1;
  }
  if (!config.pidfile.empty()) {
    error = WritePidFile(config.pidfile);
    if (!error.empty()) LOG_WARNING("Failed to write PID file: %s", error.c_str());
  }

  Server server(config);
  RegisterAllCommands(server);
  for (auto& [from, to] : directives.renames) {
    error = server.RenameCommand(from, to);
    if (!error.empty()) {
      fprintf(stderr, "rankd: rename-command %s: %s\n", from.c_str(), error.c_str());
      return 1;
    }
  }
  error = LoadUsers(server, directives.users);
  if (!error.empty()) {
    fprintf(stderr, "rankd: %s\n", error.c_str());
    return 1;
  }
  // As Redis: the listeners are bound and the banner written before the
  // data set loads, so tools that wait for the banner's " PID: " line then
  // read the load's outcome from the log, and clients that connect during
  // the load wait in the listen backlog until it ends (the event loop runs
  // after it).
  // From here on argv's memory holds the process title (Start sets it).
  ProcTitleInit(argc, argv);
  Status s = server.Start();
  if (!s.ok()) {
    LOG_WARNING("Could not start: %s", s.message().c_str());
    return 1;
  }
  LogBanner(server.config(), server.port());
  if (auto it = server.config().compat_bools.find("cluster-enabled");
      it != server.config().compat_bools.end() && it->second) {
    s = Cluster::Start(server);
    if (!s.ok()) {
      LOG_WARNING("%s", s.message().c_str());
      return 1;
    }
  }
  PersistManager persist(&server, Env::Default());
  s = persist.Start();
  if (!s.ok()) {
    LOG_WARNING("Fatal error loading the DB: %s. Exiting.", s.message().c_str());
    return 1;
  }
  // replicaof in the configuration: a replica from the start, as Redis: it
  // offers the history its snapshot restored (PSYNC replid offset+1), else
  // none (PSYNC ? -1).
  const std::vector<std::string>& replicaof = server.config().replicaof;
  if (replicaof.size() == 2 && !EqualsIgnoreCase(replicaof[0], "no")) {
    int64_t port = 0;
    ParseInt64(replicaof[1], &port);
    server.replication().ReplicaOf(replicaof[0], port,
                                   /*own_history=*/server.replication().restored_history());
  } else {
    server.config().replicaof.clear();
  }
  g_loop = &server.loop();
  signal(SIGPIPE, SIG_IGN);
  struct sigaction sa = {};
  sa.sa_handler = OnSignal;
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  snprintf(g_temp_rdb, sizeof(g_temp_rdb), "temp-%d.rdb", static_cast<int>(getpid()));
  server.shutdown().finish_persistence = [&persist](bool save, bool force) {
    return persist.Shutdown(save, force).ok();
  };
  LOG_NOTICE("rankd 0.1.0 started, pid=%d, port=%d", static_cast<int>(getpid()), server.port());
  LOG_NOTICE("Ready to accept connections tcp");
  if (!server.config().unixsocket.empty()) {
    LOG_NOTICE("The server is now ready to accept connections at %s",
               server.config().unixsocket.c_str());
  }
  server.Run();
  // A SHUTDOWN NOSAVE during a busy script stops the loop directly
  // (RequestShutdown); every other shutdown finished its persistence in the
  // loop (ShutdownCoordinator::Prepare).
  if (!server.shutdown().finished()) {
    const Server::ShutdownSave mode = server.shutdown_save();
    s = persist.Shutdown(mode == Server::ShutdownSave::kSave ||
                             (mode == Server::ShutdownSave::kDefault &&
                              !server.config().save.empty()),
                         true);
  }
  if (!config.pidfile.empty()) unlink(config.pidfile.c_str());
  LOG_NOTICE("rankd is now ready to exit, bye bye...");
  return s.ok() ? 0 : 1;
}
