// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// LuaSandbox: one Lua 5.1 state set up as Redis 7.0 sets up its scripting
// engine, and the code that runs one script in it.
//
// The state holds the libraries Redis loads (base, table, string, math,
// struct and cmsgpack (script_libs.h), plus cjson and bit when Debian's
// modules are installed; os, io, print, require,
// loadfile, dofile and debug are removed), the `redis` API table
// (call/pcall/error_reply/status_reply/sha1hex/log/setresp/set_repl/...),
// and a protected global table: reading an unknown global raises "Script
// attempted to access nonexistent global variable 'x'"; the globals and
// every table reachable from them are read-only (script_readonly.h), so
// assigning any of them raises "Attempt to modify a readonly table". Code is
// only ever compiled from text (no bytecode), as in Redis. math.random is Redis's own 48-bit
// generator, reseeded with 0 before every run so scripts are deterministic.
//
// Commands called from a script go to a ScriptHost, which enforces the rules
// for commands in scripts and runs them. Not thread-safe: one owner thread.

#pragma once

#include <cstdint>
#include <span>
#include <optional>
#include <string>
#include <string_view>

#include "net/reply.h"

struct lua_State;

namespace rankd {

class LuaDebugger;

// What a running script reaches through redis.call and its run-time hook.
class ScriptHost {
 public:
  virtual ~ScriptHost() = default;
  // Runs `args` (args[0] is the command name) for the running script and
  // writes exactly one reply to `out`, encoded in out.version() (the
  // script's redis.setresp choice). Refusals (unknown command, wrong
  // arity, not allowed from scripts, writes from read-only scripts) are
  // written as error replies with Redis's texts.
  virtual void Call(std::span<const std::string_view> args, ReplyBuilder& out) = 0;
  // redis.acl_check_cmd(args...): whether the script's caller may run
  // `args` under its ACL user, without running it; nullopt when `args`
  // names no command.
  virtual std::optional<bool> AclAllows(std::span<const std::string_view> args) = 0;
  // Called about every 100,000 Lua instructions while a script runs (the
  // busy-script hook). Returns true if the script must stop now (SCRIPT
  // KILL); the script then fails with "ERR Script killed by user with
  // SCRIPT KILL...".
  virtual bool Interrupt() { return false; }
  // redis.log(level, msg) with level 0..3 (debug, verbose, notice, warning).
  virtual void Log(int level, std::string_view msg) {}
  // redis.set_repl(flags): where the effects of the script's next calls
  // go, as Redis's REPL_* bits (1: the append-only file, 2: replicas).
  virtual void SetReplication(int flags) {}
};

class LuaSandbox {
 public:
  // Which chunk name and globals: "@user_script" for EVAL scripts,
  // "@user_function" for FUNCTION libraries.
  enum class Kind { kEval, kFunction };

  LuaSandbox(ScriptHost* host, Kind kind);
  ~LuaSandbox();
  LuaSandbox(const LuaSandbox&) = delete;
  LuaSandbox& operator=(const LuaSandbox&) = delete;

  lua_State* state() const { return L_; }
  ScriptHost* host() const { return host_; }

  // Compiles `code`. On success pushes the function onto the stack and
  // returns true; on failure sets *error to Lua's message (e.g.
  // "user_script:1: unexpected symbol near '<eof>'") and pushes nothing.
  bool Compile(std::string_view code, std::string* error);

  // Calls the function at the top of the stack (popping it) as a script
  // run named `name` (the sha for EVAL, the function name for FCALL) and
  // writes its reply or its error to `out`. kEval scripts see KEYS and ARGV
  // globals and get no arguments; kFunction ones are called fn(keys, args).
  void Run(std::string_view name, std::span<const std::string_view> keys,
           std::span<const std::string_view> args, ReplyBuilder& out);

  // True while Run() is executing a script.
  bool running() const { return running_; }

  // Formats a Lua error object (a table {err=, source=, line=} or a
  // string) into the reply text Redis 7.0 sends, e.g.
  // "ERR user_script:1: boom script: <sha>, on @user_script:1.". Pops it.
  // *counted: the error came from a redis.call already counted in INFO
  // errorstats (script_resp.h kErrorCountedField).
  std::string PopErrorText(std::string_view name, bool* counted);

  // --- Used by the C functions of the redis table (script_lua.cc). ---
  int resp() const { return resp_; }
  void set_resp(int v) { resp_ = v; }

  // The Lua debugger of the run in progress (script_debugger.h), or
  // nullptr. While set, Run() installs the debugger's hook instead of the
  // busy-script one.
  LuaDebugger* debugger() const { return debugger_; }
  void set_debugger(LuaDebugger* d) { debugger_ = d; }

 private:
  void OpenLibraries();
  void ProtectGlobals();

  lua_State* L_ = nullptr;
  ScriptHost* const host_;
  const Kind kind_;
  int resp_ = 2;
  bool running_ = false;
  LuaDebugger* debugger_ = nullptr;
};

// Redis's redis.call argument and error helpers, shared with FUNCTION LOAD.
// Pushes {err="<CODE> <msg>"}: a leading "-CODE" in `msg` is split off as the
// code, otherwise the code is "ERR" (Redis luaPushError).
void PushLuaError(lua_State* L, std::string_view msg);

// Raises the error object at the top of the stack. Never returns.
[[noreturn]] void RaiseLuaError(lua_State* L);

// The LuaSandbox that owns `L`.
LuaSandbox* SandboxOf(lua_State* L);

}  // namespace rankd
