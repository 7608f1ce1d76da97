// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// ScriptEngine: the server's scripting state, one per Server. It owns the
// EVAL sandbox and its script cache (sha -> compiled function), the FUNCTION
// libraries, and the client scripts run their commands as, and it is the
// ScriptHost that applies Redis 7.0's rules to commands called from scripts:
//
//   unknown command        -> "ERR Unknown Redis command called from script"
//   wrong arity            -> "ERR Wrong number of args calling Redis command from script"
//   noscript               -> "ERR This Redis command is not allowed from script"
//   write from a read-only -> "ERR Write commands are not allowed from read-only scripts."
//   script (EVAL_RO, FCALL_RO, #!lua flags=no-writes)
//
// Commands run through Server::Execute, so each write a script makes is
// logged as its own effect (Server::Call) and the script itself is not.
// A script client starts in the caller's database; SELECT inside a script
// does not change the caller's (Redis 7.0).
//
// Busy scripts: past busy-reply-threshold (lua-time-limit) ms the engine
// marks itself busy; SCRIPT KILL / FUNCTION KILL set a kill request that
// the Lua hook honours unless the script has written (UNKILLABLE).

#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "scripting/script_functions.h"
#include "scripting/script_lua.h"
#include "server/client.h"
#include "server/server.h"

namespace rankd {

class Server;

// What a script's "#!lua flags=..." line declares.
struct ScriptFlags {
  bool shebang = false;           // starts with "#!lua"
  bool no_writes = false;         // flags=no-writes
  bool allow_oom = false;         // flags=allow-oom
  bool allow_stale = false;       // flags=allow-stale
  bool no_cluster = false;        // flags=no-cluster: refused on a cluster node
  bool allow_cross_slot = false;  // flags=allow-cross-slot-keys
};

// -BUSY for clients while a FUNCTION runs too long (err::kBusy is EVAL's).
extern const std::string_view kBusyFunction;

class ScriptEngine : public ScriptHost, public ScriptRuntime {
 public:
  explicit ScriptEngine(Server* server);
  ~ScriptEngine() override;
  ScriptEngine(const ScriptEngine&) = delete;
  ScriptEngine& operator=(const ScriptEngine&) = delete;

  // The engine of `server`, created on first use.
  static ScriptEngine& Of(Server& server);

  // ScriptRuntime: while busy, -BUSY for everything but Redis's allow-busy
  // commands (SHUTDOWN NOSAVE also stops the script).
  std::string BusyError(std::span<const std::string_view> args) override;
  DeclaredFlags Declared(std::span<const std::string_view> args) override;

  // EVAL / EVALSHA / EVAL_RO / EVALSHA_RO. `script_or_sha` is the body
  // (EVAL) or a sha (EVALSHA, any case). Writes the reply to caller.reply.
  void Eval(Client& caller, std::string_view script_or_sha, bool by_sha, bool read_only,
            std::span<const std::string_view> keys, std::span<const std::string_view> args);
  // SCRIPT DEBUG YES|SYNC|NO: the next EVAL of the client runs under the
  // Lua debugger, in a forked copy of the server (kFork, YES) or holding
  // the server (kSync, SYNC).
  enum class DebugMode { kOff, kFork, kSync };
  void SetDebugMode(const Client& caller, DebugMode mode) {
    if (mode == DebugMode::kOff) {
      debug_modes_.erase(caller.id);
    } else {
      debug_modes_[caller.id] = mode;
    }
  }
  // FCALL / FCALL_RO. `command` is the whole command as the client sent it
  // (FUNCTION STATS shows it).
  void FCall(Client& caller, std::span<const std::string_view> command, bool read_only,
             std::span<const std::string_view> keys, std::span<const std::string_view> args);

  // SCRIPT LOAD: compiles and caches `body`. Returns "" and sets *sha, or
  // the error text.
  std::string LoadScript(std::string_view body, std::string* sha);
  bool ScriptExists(std::string_view sha) const;
  // SCRIPT FLUSH: forgets every script and starts a new EVAL Lua state.
  // REQUIRES: no script runs (SCRIPT is noscript and refused while busy).
  void FlushScripts();

  FunctionLibraries& functions() { return functions_; }
  // INFO memory: EVAL scripts cached, and the EVAL Lua state (its memory).
  size_t script_count() const { return scripts_.size(); }
  lua_State* eval_state() const { return eval_->state(); }

  // --- Busy scripts ---
  // True while a script runs past busy-reply-threshold.
  bool busy() const { return busy_; }
  // Scripts and functions started so far: persistence tells the effects of
  // the running script from earlier ones with it.
  uint64_t run_count() const { return run_count_; }
  // SCRIPT KILL / FUNCTION KILL. Returns "" if the kill was requested, or
  // the error ("NOTBUSY ...", "UNKILLABLE ..."). `function` tells FUNCTION
  // KILL from SCRIPT KILL (each kills only its own kind).
  std::string Kill(bool function);
  // FUNCTION STATS running_script: name, command and elapsed ms, or false
  // when no function runs.
  bool RunningFunction(std::string* name, std::vector<std::string>* command,
                       int64_t* ms) const;

  // Replaces what the busy hook calls to serve other clients while a slow
  // script runs: by default one non-blocking pass of the server's loop.
  void set_event_poller(std::function<void()> fn) { poll_events_ = std::move(fn); }
  // SHUTDOWN NOSAVE while busy: the script stops even if it wrote, and the
  // shutdown is requested again once it has returned.
  void ForceKill() {
    run_.kill = true;
    shutdown_pending_ = true;
  }

  // ScriptHost.
  void Call(std::span<const std::string_view> args, ReplyBuilder& out) override;
  std::optional<bool> AclAllows(std::span<const std::string_view> args) override;
  bool Interrupt() override;
  void Log(int level, std::string_view msg) override;
  void SetReplication(int flags) override;

 private:
  // Why the running script may not call `args` (spec found), or empty;
  // marks the run as having written when a write is let through.
  std::string Refusal(const CommandSpec& spec, std::span<const std::string_view> args);
  void CountRejected(const CommandSpec& spec, std::span<const std::string_view> args);
  struct Run {
    Client* caller = nullptr;
    bool read_only = false;
    bool allow_oom = false;  // flag allow-oom: deny-oom commands run past maxmemory
    bool wrote = false;
    bool is_function = false;
    bool kill = false;
    // Cluster mode: the slot the script's keys hash to so far (its declared
    // keys' first; -1: none yet), ClusterRouter::ScriptAccess; commands on
    // keys of another slot are refused unless allow_cross_slot (EVAL without
    // a shebang, flag allow-cross-slot-keys).
    int cluster_slot = -1;
    bool allow_cross_slot = false;
    int64_t start_ms = 0;
    std::string name;
    std::vector<std::string> command;
  };
  // EVAL under the Lua debugger (script_debug.cc): a SYNC session holds
  // the server and talks to the client directly; a YES session does the
  // same in a fork()ed copy of the server while the server closes the
  // client. The connection is closed once the session ends.
  void EvalDebugged(Client& caller, DebugMode mode, std::string_view script, bool read_only,
                    std::span<const std::string_view> keys,
                    std::span<const std::string_view> args);
  // Waits for forked debugging sessions that ended (kill: ends them all).
  void ReapDebugSessions(bool kill);
  void EvalNow(Client& caller, std::string_view script_or_sha, bool by_sha, bool read_only,
               std::span<const std::string_view> keys, std::span<const std::string_view> args);
  bool DeniedForOom(const Client& caller, bool no_writes, bool allow_oom) const;
  // Sets up run_ and the script client for `caller`, runs `body`, clears.
  template <class Body>
  void Execute(Client& caller, Run run, Body body);

  Server* const server_;
  std::unique_ptr<LuaSandbox> eval_;  // replaced by SCRIPT FLUSH
  FunctionLibraries functions_;
  struct Script : ScriptFlags {
    int ref = 0;  // Lua registry reference of the compiled body
  };
  absl::flat_hash_map<std::string, Script> scripts_;  // by lower-case sha
  Client client_;   // the script client
  Run run_;         // the running script
  bool in_run_ = false;
  uint64_t run_count_ = 0;
  bool busy_ = false;
  bool shutdown_pending_ = false;
  std::function<void()> poll_events_;
  std::vector<int> debug_children_;  // pids of forked debugging sessions
  // SCRIPT DEBUG YES / SYNC by client id, until the client's next EVAL
  // (its session ends with the connection) or SCRIPT DEBUG NO.
  absl::flat_hash_map<uint64_t, DebugMode> debug_modes_;
};

}  // namespace rankd
