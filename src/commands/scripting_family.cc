// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Scripting commands: EVAL, EVALSHA, EVAL_RO, EVALSHA_RO, SCRIPT, FUNCTION,
// FCALL, FCALL_RO. Handlers parse arguments and reply; ScriptEngine
// (script_engine.h) runs the scripts. None of these is flagged kWrite: the
// writes a script makes are logged one by one as effects, never the script.

#include <string>
#include <vector>

#include "base/glob.h"
#include "base/numbers.h"
#include "commands/families.h"
#include "scripting/script_engine.h"
#include "server/errors.h"
#include "server/server.h"

namespace rankd {


namespace {

// Parses "<numkeys> key... arg..." starting at args[2] and runs `fn(keys,
// argv)`, or replies with Redis's numkeys error (`not_integer` when it is
// not a number: FCALL and EVAL word it differently).
template <class Fn>
void WithKeys(CommandContext& ctx, Fn fn, std::string_view not_integer = err::kNotInteger) {
  int64_t numkeys = 0;
  if (!ParseInt64(ctx.arg(2), &numkeys)) return ctx.reply.Error(not_integer);
  if (numkeys > static_cast<int64_t>(ctx.argc()) - 3) {
    return ctx.reply.Error("ERR Number of keys can't be greater than number of args");
  }
  if (numkeys < 0) return ctx.reply.Error("ERR Number of keys can't be negative");
  auto keys = ctx.args.subspan(3, numkeys);
  auto argv = ctx.args.subspan(3 + numkeys);
  fn(keys, argv);
}

void EvalGeneric(CommandContext& ctx, bool by_sha, bool read_only) {
  WithKeys(ctx, [&](auto keys, auto argv) {
    ScriptEngine::Of(ctx.server).Eval(ctx.client, ctx.arg(1), by_sha, read_only, keys, argv);
  });
}

void Eval(CommandContext& ctx) { EvalGeneric(ctx, false, false); }
void EvalSha(CommandContext& ctx) { EvalGeneric(ctx, true, false); }
void EvalRo(CommandContext& ctx) { EvalGeneric(ctx, false, true); }
void EvalShaRo(CommandContext& ctx) { EvalGeneric(ctx, true, true); }

// FCALL looks the function up before it reads numkeys, and words a bad
// numkeys differently from EVAL (Redis fcallCommandGeneric).
void FCallGeneric(CommandContext& ctx, bool read_only) {
  ScriptEngine& engine = ScriptEngine::Of(ctx.server);
  if (!engine.functions().Find(ctx.arg(1))) return ctx.reply.Error("ERR Function not found");
  WithKeys(
      ctx,
      [&](auto keys, auto argv) { engine.FCall(ctx.client, ctx.args, read_only, keys, argv); },
      "ERR Bad number of keys provided");
}

void FCall(CommandContext& ctx) { FCallGeneric(ctx, false); }
void FCallRo(CommandContext& ctx) { FCallGeneric(ctx, true); }

void Help(CommandContext& ctx, std::initializer_list<std::string_view> lines) {
  ctx.reply.ArrayHeader(lines.size());
  for (std::string_view l : lines) ctx.reply.SimpleString(l);
}

// "unknown subcommand or wrong number of arguments for 'FLUSH'. Try
// FUNCTION HELP." (Redis addReplySubcommandSyntaxError).
void SubcommandSyntaxError(CommandContext& ctx, std::string_view container) {
  ctx.reply.Error("ERR unknown subcommand or wrong number of arguments for '" +
                  std::string(ctx.arg(1).substr(0, 128)) + "'. Try " + std::string(container) +
                  " HELP.");
}

// SCRIPT and FUNCTION: the registry resolves the subcommand and checks its
// arity (kScriptSubcommands / kFunctionSubcommands), so each branch below
// only parses what a variadic subcommand takes.
void Script(CommandContext& ctx) {
  ScriptEngine& engine = ScriptEngine::Of(ctx.server);
  std::string_view sub = ctx.arg(1);
  size_t argc = ctx.argc();
  if (EqualsIgnoreCase(sub, "load")) {
    std::string sha;
    std::string err = engine.LoadScript(ctx.arg(2), &sha);
    return err.empty() ? ctx.reply.Bulk(sha) : ctx.reply.Error(err);
  }
  if (EqualsIgnoreCase(sub, "exists")) {
    ctx.reply.ArrayHeader(argc - 2);
    for (size_t i = 2; i < argc; i++) ctx.reply.Integer(engine.ScriptExists(ctx.arg(i)) ? 1 : 0);
    return;
  }
  if (EqualsIgnoreCase(sub, "flush")) {
    if (argc > 3 || (argc == 3 && !EqualsIgnoreCase(ctx.arg(2), "sync") &&
                     !EqualsIgnoreCase(ctx.arg(2), "async"))) {
      return ctx.reply.Error("ERR SCRIPT FLUSH only support SYNC|ASYNC option");
    }
    engine.FlushScripts();
    return ctx.reply.Ok();
  }
  if (EqualsIgnoreCase(sub, "kill")) {
    std::string err = engine.Kill(/*function=*/false);
    return err.empty() ? ctx.reply.Ok() : ctx.reply.Error(err);
  }
  if (EqualsIgnoreCase(sub, "debug")) {
    // Redis checks for replies still unsent first: a pipelined SCRIPT DEBUG,
    // or one inside EXEC (whose array header is pending), is refused.
    if (ctx.client.conn && ctx.client.conn->output_buffer_size() > 0) {
      return ctx.reply.Error(err::kScriptDebugPipeline);
    }
    std::string_view mode = ctx.arg(2);
    ScriptEngine::DebugMode m;
    if (EqualsIgnoreCase(mode, "no")) {
      m = ScriptEngine::DebugMode::kOff;
    } else if (EqualsIgnoreCase(mode, "yes")) {
      m = ScriptEngine::DebugMode::kFork;
    } else if (EqualsIgnoreCase(mode, "sync")) {
      m = ScriptEngine::DebugMode::kSync;
    } else {
      return ctx.reply.Error(err::kScriptDebugMode);
    }
    engine.SetDebugMode(ctx.client, m);
    return ctx.reply.Ok();
  }
  if (EqualsIgnoreCase(sub, "help")) {
    return Help(ctx, {
        "SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "DEBUG (YES|SYNC|NO)",
        "    Set the debug mode for subsequent scripts executed.",
        "EXISTS <sha1> [<sha1> ...]",
        "    Return information about the existence of the scripts in the script cache.",
        "FLUSH [ASYNC|SYNC]",
        "    Flush the Lua scripts cache. Very dangerous on replicas.",
        "    When called without the optional mode argument, the behavior is determined by the",
        "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
        "    * ASYNC: Asynchronously flush the scripts cache.",
        "    * SYNC: Synchronously flush the scripts cache.",
        "KILL",
        "    Kill the currently executing Lua script.",
        "LOAD <script>",
        "    Load a script into the scripts cache without executing it.",
        "HELP",
        "    Prints this help."});
  }
  ctx.reply.Error(UnknownSubcommandError(sub, "SCRIPT"));
}

void FunctionList(CommandContext& ctx, FunctionLibraries& fl) {
  bool with_code = false;
  std::string_view pattern;
  bool has_pattern = false;
  for (size_t i = 2; i < ctx.argc(); i++) {
    if (EqualsIgnoreCase(ctx.arg(i), "withcode") && !with_code) {
      with_code = true;
    } else if (EqualsIgnoreCase(ctx.arg(i), "libraryname") && !has_pattern) {
      if (i + 1 >= ctx.argc()) return ctx.reply.Error("ERR library name argument was not given");
      pattern = ctx.arg(++i), has_pattern = true;
    } else {
      return ctx.reply.Error("ERR Unknown argument " + std::string(ctx.arg(i)));
    }
  }
  size_t token = ctx.reply.DeferArray();
  size_t n = 0;
  for (const auto& [name, lib] : fl.libraries()) {
    if (has_pattern && !GlobMatch(pattern, name)) continue;
    n++;
    ctx.reply.MapHeader(with_code ? 4 : 3);
    ctx.reply.Bulk("library_name");
    ctx.reply.Bulk(name);
    ctx.reply.Bulk("engine");
    ctx.reply.Bulk("LUA");
    ctx.reply.Bulk("functions");
    ctx.reply.ArrayHeader(lib.functions.size());
    for (const auto& [fname, f] : lib.functions) {
      ctx.reply.MapHeader(3);
      ctx.reply.Bulk("name");
      ctx.reply.Bulk(fname);
      ctx.reply.Bulk("description");
      f.has_description ? ctx.reply.Bulk(f.description) : ctx.reply.Null();
      ctx.reply.Bulk("flags");
      ctx.reply.SetHeader(f.flags.size());
      for (const std::string& flag : f.flags) ctx.reply.SimpleString(flag);
    }
    if (with_code) {
      ctx.reply.Bulk("library_code");
      ctx.reply.Bulk(lib.code);
    }
  }
  ctx.reply.FinishArray(token, n);
}

void FunctionStats(CommandContext& ctx, ScriptEngine& engine) {
  ctx.reply.MapHeader(2);
  ctx.reply.Bulk("running_script");
  std::string name;
  std::vector<std::string> command;
  int64_t ms = 0;
  if (engine.RunningFunction(&name, &command, &ms)) {
    ctx.reply.MapHeader(3);
    ctx.reply.Bulk("name");
    ctx.reply.Bulk(name);
    ctx.reply.Bulk("command");
    ctx.reply.ArrayHeader(command.size());
    for (const std::string& a : command) ctx.reply.Bulk(a);
    ctx.reply.Bulk("duration_ms");
    ctx.reply.Integer(ms);
  } else {
    ctx.reply.Null();
  }
  ctx.reply.Bulk("engines");
  ctx.reply.MapHeader(1);
  ctx.reply.Bulk("LUA");
  ctx.reply.MapHeader(2);
  ctx.reply.Bulk("libraries_count");
  ctx.reply.Integer(static_cast<int64_t>(engine.functions().libraries().size()));
  ctx.reply.Bulk("functions_count");
  ctx.reply.Integer(static_cast<int64_t>(engine.functions().function_count()));
}

void Function(CommandContext& ctx) {
  ScriptEngine& engine = ScriptEngine::Of(ctx.server);
  FunctionLibraries& fl = engine.functions();
  std::string_view sub = ctx.arg(1);
  size_t argc = ctx.argc();
  if (EqualsIgnoreCase(sub, "load")) {
    // FUNCTION LOAD [REPLACE ...] code: every argument before the code must
    // be REPLACE (Redis functionLoadCommand).
    bool replace = false;
    for (size_t i = 2; i + 1 < argc; i++) {
      if (!EqualsIgnoreCase(ctx.arg(i), "replace")) {
        return ctx.reply.Error("ERR Unknown option given: " + std::string(ctx.arg(i)));
      }
      replace = true;
    }
    std::string name;
    std::string err = fl.Load(ctx.arg(argc - 1), replace, &name);
    if (!err.empty()) return ctx.reply.Error(err);
    ctx.server.Propagate(ctx.client, ctx.args);  // libraries are persisted
    return ctx.reply.Bulk(name);
  }
  if (EqualsIgnoreCase(sub, "delete")) {
    if (!fl.Delete(ctx.arg(2))) return ctx.reply.Error("ERR Library not found");
    ctx.server.Propagate(ctx.client, ctx.args);
    return ctx.reply.Ok();
  }
  if (EqualsIgnoreCase(sub, "flush")) {
    if (argc > 3) return SubcommandSyntaxError(ctx, "FUNCTION");
    if (argc == 3 && !EqualsIgnoreCase(ctx.arg(2), "sync") && !EqualsIgnoreCase(ctx.arg(2), "async")) {
      return ctx.reply.Error("ERR FUNCTION FLUSH only supports SYNC|ASYNC option");
    }
    fl.Flush();
    ctx.server.Propagate(ctx.client, ctx.args);
    return ctx.reply.Ok();
  }
  if (EqualsIgnoreCase(sub, "list")) return FunctionList(ctx, fl);
  if (EqualsIgnoreCase(sub, "stats")) return FunctionStats(ctx, engine);
  if (EqualsIgnoreCase(sub, "dump")) return ctx.reply.Bulk(fl.Dump());
  if (EqualsIgnoreCase(sub, "restore")) {
    if (argc > 4) return SubcommandSyntaxError(ctx, "FUNCTION");
    std::string err = fl.Restore(ctx.arg(2), argc == 4 ? ctx.arg(3) : "APPEND");
    if (!err.empty()) return ctx.reply.Error(err);
    ctx.server.Propagate(ctx.client, ctx.args);
    return ctx.reply.Ok();
  }
  if (EqualsIgnoreCase(sub, "kill")) {
    std::string err = engine.Kill(/*function=*/true);
    return err.empty() ? ctx.reply.Ok() : ctx.reply.Error(err);
  }
  if (EqualsIgnoreCase(sub, "help")) {
    return Help(ctx, {
        "FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "LOAD [REPLACE] <FUNCTION CODE>",
        "    Create a new library with the given library name and code.",
        "DELETE <LIBRARY NAME>",
        "    Delete the given library.",
        "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
        "    Return general information on all the libraries:",
        "    * Library name",
        "    * The engine used to run the Library",
        "    * Library description",
        "    * Functions list",
        "    * Library code (if WITHCODE is given)",
        "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
        "STATS",
        "    Return information about the current function running:",
        "    * Function name",
        "    * Command used to run the function",
        "    * Duration in MS that the function is running",
        "    If no function is running, return nil",
        "    In addition, returns a list of available engines.",
        "KILL",
        "    Kill the current running function.",
        "FLUSH [ASYNC|SYNC]",
        "    Delete all the libraries.",
        "    When called without the optional mode argument, the behavior is determined by the",
        "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
        "    * ASYNC: Asynchronously flush the libraries.",
        "    * SYNC: Synchronously flush the libraries.",
        "DUMP",
        "    Return a serialized payload representing the current libraries, can be restored using FUNCTION RESTORE command",
        "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
        "    Restore the libraries represented by the given payload, it is possible to give a restore policy to",
        "    control how to handle existing libraries (default APPEND):",
        "    * FLUSH: delete all existing libraries.",
        "    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.",
        "    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace the old",
        "      libraries with the new libraries (notice that even on this option there is a chance of failure",
        "      in case of functions name collision with another library).",
        "HELP",
        "    Prints this help."});
  }
  ctx.reply.Error(UnknownSubcommandError(sub, "FUNCTION"));
}

// Key positions: EVAL-style commands take numkeys at args[2]; the registry
// has no "keynum" spec, so first/last are 0 (COMMAND GETKEYS is not exact).
// Subcommands with Redis 7.0's arities and flags (the dispatcher checks the
// arity, so MULTI rejects a bad one at queue time).
constexpr CommandSpec kScriptSubcommands[] = {
    {"debug", 3, kNoScript, 0, 0, 0, &Script},
    {"load", 3, kNoScript | kStale, 0, 0, 0, &Script},
    {"exists", -3, kNoScript, 0, 0, 0, &Script},
    {"flush", -2, kNoScript, 0, 0, 0, &Script},
    {"kill", 2, kNoScript, 0, 0, 0, &Script},
    {"help", 2, kLoading | kStale, 0, 0, 0, &Script},
};
constexpr CommandSpec kFunctionSubcommands[] = {
    {"load", -3, kNoScript | kWrite | kDenyOom, 0, 0, 0, &Function},
    {"delete", 3, kNoScript | kWrite, 0, 0, 0, &Function},
    {"flush", -2, kNoScript | kWrite, 0, 0, 0, &Function},
    {"list", -2, kNoScript, 0, 0, 0, &Function},
    {"stats", 2, kNoScript, 0, 0, 0, &Function},
    {"dump", 2, kNoScript, 0, 0, 0, &Function},
    {"restore", -3, kNoScript | kWrite | kDenyOom, 0, 0, 0, &Function},
    {"kill", 2, kNoScript, 0, 0, 0, &Function},
    {"help", 2, kLoading | kStale, 0, 0, 0, &Function},
};

constexpr CommandSpec kScriptingCommands[] = {
    // name        arity flags                        first last step handler
    {"eval", -3, kNoScript | kMayReplicate | kSkipMonitor, 0, 0, 0, &Eval},
    {"evalsha", -3, kNoScript | kMayReplicate | kSkipMonitor, 0, 0, 0, &EvalSha},
    {"eval_ro", -3, kNoScript | kReadOnly | kSkipMonitor, 0, 0, 0, &EvalRo},
    {"evalsha_ro", -3, kNoScript | kReadOnly | kSkipMonitor, 0, 0, 0, &EvalShaRo},
    {"fcall", -3, kNoScript | kMayReplicate | kSkipMonitor, 0, 0, 0, &FCall},
    {"fcall_ro", -3, kNoScript | kReadOnly | kSkipMonitor, 0, 0, 0, &FCallRo},
    {"script", -2, kNoScript, 0, 0, 0, &Script, kScriptSubcommands},
    {"function", -2, kNoScript, 0, 0, 0, &Function, kFunctionSubcommands},
};

}  // namespace

std::span<const CommandSpec> ScriptingCommands() { return kScriptingCommands; }

}  // namespace rankd
