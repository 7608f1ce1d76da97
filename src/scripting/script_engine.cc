// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "scripting/script_engine.h"

extern "C" {
#include <lauxlib.h>
#include <lua.h>
}

#include <algorithm>
#include <cctype>
#include <optional>
#include <unordered_map>

#include "base/clock.h"
#include "base/key_slot.h"
#include "base/logging.h"
#include "base/split.h"
#include "net/split_args.h"
#include "scripting/script_sha1.h"
#include "server/command.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {

extern const std::string_view kBusyFunction =
    "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";

namespace {

// A script or function flagged no-cluster, on a cluster node.
constexpr std::string_view kNoCluster = "ERR Can not run script on cluster, 'no-cluster' flag is set.";

// Parses "#!lua [flags=a,b]" (Redis evalExtractShebangFlags). Returns "" or
// the error; *body_offset is where the code starts (the newline is kept so
// line numbers match the original text).
std::string ParseShebang(std::string_view body, ScriptFlags* flags_out, size_t* body_offset) {
  ScriptFlags& out = *flags_out;
  out = ScriptFlags{};
  *body_offset = 0;
  if (body.substr(0, 2) != "#!") return "";
  size_t eol = body.find('\n');
  if (eol == std::string_view::npos) return "ERR Invalid script shebang";
  *body_offset = eol;
  std::optional<std::vector<std::string>> parts = SplitArgs(body.substr(0, eol));
  if (!parts || parts->empty()) return "ERR Invalid engine in script shebang";
  if ((*parts)[0] != "#!lua") return "ERR Unexpected engine in script shebang: " + (*parts)[0];
  out.shebang = true;
  for (size_t i = 1; i < parts->size(); i++) {
    std::string_view part = (*parts)[i];
    if (part.substr(0, 6) != "flags=") return "ERR Unknown lua shebang option: " + std::string(part);
    std::string_view flags = part.substr(6);
    // "flags=" is no flag; otherwise every comma-separated name must be one.
    for (size_t a = 0; !flags.empty() && a <= flags.size();) {
      size_t b = std::min(flags.find(',', a), flags.size());
      std::string_view f = flags.substr(a, b - a);
      if (f == "no-writes") {
        out.no_writes = true;
      } else if (f == "allow-oom") {
        out.allow_oom = true;
      } else if (f == "allow-stale") {
        out.allow_stale = true;
      } else if (f == "no-cluster") {
        out.no_cluster = true;
      } else if (f == "allow-cross-slot-keys") {
        out.allow_cross_slot = true;
      } else {
        return "ERR Unexpected flag in script shebang: " + std::string(f);
      }
      a = b + 1;
    }
  }
  return "";
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

ScriptEngine::ScriptEngine(Server* server)
    : server_(server),
      eval_(std::make_unique<LuaSandbox>(this, LuaSandbox::Kind::kEval)),
      functions_(this) {
  client_.authenticated = true;
  client_.name = "lua";
  // One pass over the network without timers, as Redis's
  // processEventsWhileBlocked: no cron (active expiry) runs inside a script.
  poll_events_ = [this] { server_->loop().ProcessFileEvents(0); };
}

ScriptEngine::~ScriptEngine() { ReapDebugSessions(/*kill=*/true); }

ScriptEngine& ScriptEngine::Of(Server& server) {
  if (!server.scripts()) server.set_scripts(std::make_unique<ScriptEngine>(&server));
  return static_cast<ScriptEngine&>(*server.scripts());
}

std::string ScriptEngine::LoadScript(std::string_view body, std::string* sha) {
  *sha = Sha1Hex(body);
  if (scripts_.count(*sha)) return "";
  Script script;
  size_t offset = 0;
  std::string err = ParseShebang(body, &script, &offset);
  if (!err.empty()) return err;
  std::string error;
  if (!eval_->Compile(body.substr(offset), &error)) {
    return "ERR Error compiling script (new function): " + error;
  }
  script.ref = luaL_ref(eval_->state(), LUA_REGISTRYINDEX);
  scripts_[*sha] = script;
  return "";
}

bool ScriptEngine::ScriptExists(std::string_view sha) const {
  return scripts_.count(Lower(sha)) > 0;
}

void ScriptEngine::FlushScripts() {
  // A fresh Lua state, as Redis 7.0's scriptingReset: nothing a script left
  // behind (cjson settings, garbage, metatables of its own tables) survives.
  scripts_.clear();
  eval_ = std::make_unique<LuaSandbox>(this, LuaSandbox::Kind::kEval);
}

template <class Body>
void ScriptEngine::Execute(Client& caller, Run run, Body body) {
  client_.db_index = caller.db_index;
  client_.user = caller.user;  // every redis.call is checked as the caller
  run.caller = &caller;
  run.start_ms = MonoMs();
  run_ = std::move(run);
  in_run_ = true;
  run_count_++;
  body(*caller.reply);
  in_run_ = false;
  if (busy_) {
    LOG_WARNING("Slow script finished after %lld ms",
                static_cast<long long>(MonoMs() - run_.start_ms));
    if (caller.conn) caller.conn->Resume();
  }
  busy_ = false;
  run_ = Run{};
  // A SHUTDOWN served while busy stopped only the nested loop pass.
  if (shutdown_pending_) server_->RequestShutdown(Server::ShutdownSave::kNoSave);  // NOSAVE
  shutdown_pending_ = false;
}

void ScriptEngine::Eval(Client& caller, std::string_view script_or_sha, bool by_sha,
                        bool read_only, std::span<const std::string_view> keys,
                        std::span<const std::string_view> args) {
  if (!debug_children_.empty()) ReapDebugSessions(false);
  if (auto it = debug_modes_.find(caller.id); it != debug_modes_.end() && caller.conn) {
    if (by_sha) return caller.reply->Error("ERR Please use EVAL instead of EVALSHA for debugging");
    DebugMode mode = it->second;
    debug_modes_.erase(it);
    return EvalDebugged(caller, mode, script_or_sha, read_only, keys, args);
  }
  EvalNow(caller, script_or_sha, by_sha, read_only, keys, args);
}

// A script that declared its flags may write unless it said no-writes, so
// under maxmemory it is refused before it starts unless it said allow-oom
// (Redis 7.0 gives such a script the deny-oom flag), whatever it does.
bool ScriptEngine::DeniedForOom(const Client& caller, bool no_writes, bool allow_oom) const {
  return !no_writes && !allow_oom && !caller.obeyed && server_->config().maxmemory > 0 &&
         server_->oom_before_command();
}

void ScriptEngine::EvalNow(Client& caller, std::string_view script_or_sha, bool by_sha,
                           bool read_only, std::span<const std::string_view> keys,
                           std::span<const std::string_view> args) {
  ReplyBuilder& out = *caller.reply;
  std::string sha;
  if (by_sha) {
    sha = Lower(script_or_sha);
    if (!scripts_.count(sha)) return out.Error("NOSCRIPT No matching script. Please use EVAL.");
  } else {
    std::string err = LoadScript(script_or_sha, &sha);
    if (!err.empty()) return out.Error(err);
  }
  const Script& script = scripts_[sha];
  if (script.shebang && script.no_cluster && server_->cluster()) return out.Error(kNoCluster);
  if (script.shebang && DeniedForOom(caller, script.no_writes, script.allow_oom)) {
    return out.Error(err::kOom);
  }
  if (read_only && script.shebang && !script.no_writes) {
    return out.Error("ERR Can not execute a script with write flag using *_ro command.");
  }
  Run run;
  run.read_only = read_only || script.no_writes;
  run.allow_oom = script.allow_oom;
  // Scripts without a shebang keep EVAL's old freedom (Redis 7.0).
  run.allow_cross_slot = !script.shebang || script.allow_cross_slot;
  run.name = sha;
  if (!keys.empty()) run.cluster_slot = KeySlot(keys[0]);
  int ref = script.ref;
  Execute(caller, std::move(run), [&](ReplyBuilder& reply) {
    lua_rawgeti(eval_->state(), LUA_REGISTRYINDEX, ref);
    eval_->Run(sha, keys, args, reply);
  });
}

void ScriptEngine::FCall(Client& caller, std::span<const std::string_view> command,
                         bool read_only, std::span<const std::string_view> keys,
                         std::span<const std::string_view> args) {
  std::string_view name = command[1];
  const FunctionLibraries::Function* fn = functions_.Find(name);
  if (!fn) return caller.reply->Error("ERR Function not found");
  if (fn->no_cluster && server_->cluster()) return caller.reply->Error(kNoCluster);
  if (DeniedForOom(caller, fn->no_writes, fn->allow_oom)) return caller.reply->Error(err::kOom);
  if (read_only && !fn->no_writes) {
    return caller.reply->Error("ERR Can not execute a script with write flag using *_ro command.");
  }
  Run run;
  run.read_only = read_only || fn->no_writes;
  run.allow_oom = fn->allow_oom;
  run.allow_cross_slot = fn->allow_cross_slot;
  run.is_function = true;
  run.name = fn->name;
  if (!keys.empty()) run.cluster_slot = KeySlot(keys[0]);
  run.command.assign(command.begin(), command.end());
  Execute(caller, std::move(run), [&](ReplyBuilder& reply) { functions_.Call(*fn, keys, args, reply); });
}

void ScriptEngine::Call(std::span<const std::string_view> args, ReplyBuilder& out) {
  // Its error (a refusal below or the command's own) counts in INFO
  // errorstats now, as Redis counts it; the script passing it on does not
  // count it again (scripting/script_resp.h kErrorCounted).
  out.set_error_counts(&server_->stats().errors);
  const CommandSpec* spec = server_->FindCommand(args[0]);
  if (!spec) return out.Error("ERR Unknown Redis command called from script");
  if (!ArityAccepts(spec->arity, args.size())) {
    return out.Error("ERR Wrong number of args calling Redis command from script");
  }
  uint32_t flags = spec->flags;
  if (args.size() > 1) {  // a container's subcommand has flags of its own (CLUSTER RESET)
    for (const CommandSpec& sub : spec->subcommands) {
      if (EqualsIgnoreCase(sub.name, args[1])) flags |= sub.flags & kNoScript;
    }
  }
  if ((flags & kNoScript) && !server_->script_deny_disabled()) {  // BZMPOP / BLMPOP run, never blocking (Redis 7.0)
    return out.Error("ERR This Redis command is not allowed from script");
  }
  if ((spec->flags & (kWrite | kMayReplicate)) && run_.read_only) {  // PUBLISH too, as Redis 7.0
    return out.Error("ERR Write commands are not allowed from read-only scripts.");
  }
  // Redis scriptVerifyOOM: out of memory when the script started, a
  // deny-oom command is refused until the script has written something.
  if ((spec->flags & kDenyOom) && !run_.wrote && !run_.allow_oom && server_->config().maxmemory > 0 &&
      server_->oom_before_command()) {
    return out.Error(err::kOom);
  }
  // On a stale replica a script runs only the commands allowed there
  // (Redis scriptVerifyAllowStale).
  if (!(spec->flags & kStale) &&
      !server_->replication().Refusal(client_, false, true).empty()) {
    return out.Error("ERR Can not execute the command on a stale replica. The replica link is "
                     "down and replica-serve-stale-data is set to 'no'.");
  }
  if (ClusterRouter* cluster = server_->cluster()) {
    std::string refusal = cluster->ScriptAccess(
        *run_.caller, args, run_.allow_cross_slot ? nullptr : &run_.cluster_slot);
    if (!refusal.empty()) return out.Error(refusal);
  }
  // Redis scriptVerifyWriteCommandAllow: a write is refused on a read-only
  // replica or without min-replicas-to-write, unless the caller is one
  // replication obeys or the script already wrote: it must then be able to
  // finish, whatever the replication state became meanwhile.
  if ((spec->flags & kWrite) && !run_.wrote) {
    std::string_view refusal = server_->replication().Refusal(*run_.caller, true, false);
    if (!refusal.empty()) return out.Error(refusal);
    run_.wrote = true;
  }
  client_.reply = &out;
  server_->Execute(client_, args, /*no_block=*/true);
  client_.reply = nullptr;
}

std::optional<bool> ScriptEngine::AclAllows(std::span<const std::string_view> args) {
  return server_->AclAllows(client_.user, args);  // the caller's user (Execute)
}

bool ScriptEngine::Interrupt() {
  if (!in_run_) return false;
  if (!busy_) {
    int64_t elapsed = MonoMs() - run_.start_ms;
    int64_t limit = server_->config().busy_reply_threshold;
    if (limit <= 0 || elapsed < limit) return run_.kill;
    busy_ = true;
    // The caller's next pipelined commands wait for the script's reply.
    if (run_.caller && run_.caller->conn) run_.caller->conn->Pause();
    LOG_WARNING("Slow script detected: still in execution after %lld milliseconds. "
                "You can try killing the script using the %s command. Script name is: %s.",
                static_cast<long long>(elapsed), run_.is_function ? "FUNCTION KILL" : "SCRIPT KILL",
                run_.name.c_str());
  }
  if (poll_events_) poll_events_();
  return run_.kill;
}

void ScriptEngine::Log(int level, std::string_view msg) {
  std::string text(msg);
  switch (level) {
    case 3: LOG_WARNING("%s", text.c_str()); break;
    case 2: LOG_NOTICE("%s", text.c_str()); break;
    case 1: LOG_VERBOSE("%s", text.c_str()); break;
    default: LOG_DEBUG("%s", text.c_str()); break;
  }
}

std::string ScriptEngine::Kill(bool function) {
  if (!in_run_ || !busy_) return "NOTBUSY No scripts in execution right now.";
  if (run_.wrote) {
    return "UNKILLABLE Sorry the script already executed write commands against the dataset. "
           "You can either wait the script termination or kill the server in a hard way using "
           "the SHUTDOWN NOSAVE command.";
  }
  if (function != run_.is_function) {
    return std::string(function ? err::kBusy : kBusyFunction);
  }
  run_.kill = true;
  return "";
}

bool ScriptEngine::RunningFunction(std::string* name, std::vector<std::string>* command,
                                   int64_t* ms) const {
  if (!in_run_ || !run_.is_function) return false;
  *name = run_.name;
  *command = run_.command;
  *ms = MonoMs() - run_.start_ms;
  return true;
}

ScriptRuntime::DeclaredFlags ScriptEngine::Declared(std::span<const std::string_view> args) {
  DeclaredFlags d;
  if (args.size() < 2) return d;
  const std::string_view cmd = args[0];
  if (EqualsIgnoreCase(cmd, "fcall") || EqualsIgnoreCase(cmd, "fcall_ro")) {
    const FunctionLibraries::Function* fn = functions_.Find(args[1]);
    if (!fn) return d;  // "Function not found" when it runs
    return {true, !fn->no_writes, fn->allow_stale};
  }
  Script s;
  if (EqualsIgnoreCase(cmd, "eval") || EqualsIgnoreCase(cmd, "eval_ro")) {
    size_t offset = 0;
    if (!ParseShebang(args[1], &s, &offset).empty()) {
      return d;
    }
  } else if (EqualsIgnoreCase(cmd, "evalsha") || EqualsIgnoreCase(cmd, "evalsha_ro")) {
    auto it = scripts_.find(Lower(args[1]));
    if (it == scripts_.end()) return d;
    s = it->second;
  }
  if (!s.shebang) return d;
  return {true, !s.no_writes, s.allow_stale};
}

std::string ScriptEngine::BusyError(std::span<const std::string_view> args) {
  if (!busy_) return "";
  std::string_view cmd = args[0];
  std::string_view sub = args.size() > 1 ? args[1] : std::string_view();
  if ((EqualsIgnoreCase(cmd, "script") || EqualsIgnoreCase(cmd, "function")) &&
      (EqualsIgnoreCase(sub, "kill") || EqualsIgnoreCase(sub, "stats"))) {
    return "";
  }
  if (EqualsIgnoreCase(cmd, "shutdown") && args.size() > 1 && EqualsIgnoreCase(sub, "nosave")) {
    ForceKill();
    return "";
  }
  // Redis 7.0's allow-busy commands: connection and transaction control.
  for (std::string_view allowed : {"auth", "hello", "quit", "reset", "multi", "discard", "watch",
                                   "unwatch"}) {
    if (EqualsIgnoreCase(cmd, allowed)) return "";
  }
  std::vector<std::string> unused;
  std::string name;
  int64_t ms;
  return std::string(RunningFunction(&name, &unused, &ms) ? kBusyFunction : err::kBusy);
}

}  // namespace rankd
