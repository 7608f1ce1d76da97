// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The Lua debugger's commands that look into the stopped script or run
// something beside it: print, eval, redis, trace, help
// (script_debugger.h).

extern "C" {
#include <lauxlib.h>
#include <lua.h>
}

#include <cstring>

#include "scripting/script_debugger.h"

namespace rankd {

void LuaDebugger::LogTopValue(lua_State* L, std::string prefix) {
  LogWithMaxLen(prefix + DebugValueText(L, -1));
}

void LuaDebugger::Print(lua_State* L, const std::string& name) {
  lua_Debug ar;
  for (int level = 0; lua_getstack(L, level, &ar) != 0; level++) {
    const char* local;
    for (int i = 1; (local = lua_getlocal(L, &ar, i)) != nullptr; i++) {
      if (name == local) {
        LogTopValue(L, "<value> ");
        lua_pop(L, 1);
        return;
      }
      lua_pop(L, 1);
    }
  }
  // KEYS and ARGV are globals, and the two worth showing.
  if (name == "ARGV" || name == "KEYS") {
    lua_getglobal(L, name.c_str());
    LogTopValue(L, "<value> ");
    lua_pop(L, 1);
  } else {
    Log("No such variable.");
  }
}

void LuaDebugger::PrintAll(lua_State* L) {
  lua_Debug ar;
  int shown = 0;
  if (lua_getstack(L, 0, &ar) != 0) {
    const char* local;
    for (int i = 1; (local = lua_getlocal(L, &ar, i)) != nullptr; i++) {
      if (!strstr(local, "(*temporary)")) {
        LogTopValue(L, std::string("<value> ") + local + " = ");
        shown++;
      }
      lua_pop(L, 1);
    }
  }
  if (shown == 0) Log("No local variables in the current context.");
}

// The code runs as an expression first ("return <code>"), then as a
// statement; either way in its own call frame.
void LuaDebugger::Eval(lua_State* L, const std::vector<std::string>& argv) {
  std::string code;
  for (size_t i = 1; i < argv.size(); i++) {
    if (i > 1) code += " ";
    code += argv[i];
  }
  std::string expr = "return " + code;
  if (luaL_loadbuffer(L, expr.data(), expr.size(), "@ldb_eval")) {
    lua_pop(L, 1);
    if (luaL_loadbuffer(L, code.data(), code.size(), "@ldb_eval")) {
      Log(std::string("<error> ") + lua_tostring(L, -1));
      lua_pop(L, 1);
      return;
    }
  }
  if (lua_pcall(L, 0, 1, 0)) {
    const char* err = lua_tostring(L, -1);
    Log(std::string("<error> ") + (err ? err : "(error object is not a string)"));
    lua_pop(L, 1);
    return;
  }
  LogTopValue(L, "<retval> ");
  lua_pop(L, 1);
}

// Calls redis.call with the arguments while stepping, so the call logs
// its command and reply as a script's calls do.
void LuaDebugger::Redis(lua_State* L, const std::vector<std::string>& argv) {
  const int argc = static_cast<int>(argv.size());
  if (!lua_checkstack(L, argc + 1)) {
    Log("<reply> max lua stack reached");
    return;
  }
  lua_getglobal(L, "redis");
  lua_getfield(L, -1, "call");
  for (int i = 1; i < argc; i++) lua_pushlstring(L, argv[i].data(), argv[i].size());
  step_ = true;
  lua_pcall(L, argc - 1, 1, 0);
  step_ = false;
  lua_pop(L, 2);
}

void LuaDebugger::Trace(lua_State* L) {
  lua_Debug ar;
  int level = 0;
  for (; lua_getstack(L, level, &ar); level++) {
    lua_getinfo(L, "Snl", &ar);
    if (strstr(ar.short_src, "user_script") == nullptr) continue;
    Log(std::string(level == 0 ? "In " : "From ") + (ar.name ? ar.name : "top level") + ":");
    LogSourceLine(ar.currentline);
  }
  if (level == 0) Log("<error> Can't retrieve Lua stack.");
}

void LuaDebugger::Help() {
  static const char* const kLines[] = {
      "Redis Lua debugger help:",
      "[h]elp               This list.",
      "[s]tep               Run the current line, then stop.",
      "[n]ext               Same as step.",
      "[c]ontinue           Run until a breakpoint or the end.",
      "[l]ist               Show the source around the current line.",
      "[l]ist [line]        Show the source around [line] (0: the current one).",
      "[l]ist [line] [ctx]  Same, with [ctx] lines on each side.",
      "[w]hole              Show the whole source ('list 1 1000000').",
      "[p]rint              Show the local variables.",
      "[p]rint <var>        Show one variable (also the globals KEYS and ARGV).",
      "[b]reak              Show the breakpoints.",
      "[b]reak <line>       Set a breakpoint at <line>.",
      "[b]reak -<line>      Clear the breakpoint at <line>.",
      "[b]reak 0            Clear every breakpoint.",
      "[t]race              Show the call stack.",
      "[e]val <code>        Run Lua code in a call frame of its own.",
      "[r]edis <cmd>        Run a Redis command.",
      "[m]axlen [len]       Cut logged replies and values at len bytes (0: never).",
      "[a]bort              Stop the script with an error. In sync mode",
      "                     what it wrote so far stays written.",
      "",
      "Functions scripts can call for the debugger:",
      "redis.debug()        Log its arguments in the debugger console.",
      "redis.breakpoint()   Stop at the next line, as a breakpoint would.",
  };
  for (const char* line : kLines) Log(line);
}

}  // namespace rankd
