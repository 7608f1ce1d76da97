// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The Lua debugger's session: the hook that stops a script, and the
// commands served while it is stopped (script_debugger.h). As elsewhere in
// the scripting layer, Lua raises errors with longjmp: Hook raises only
// after the C++ frames that built strings have returned.

#include "scripting/script_debugger.h"

extern "C" {
#include <lauxlib.h>
#include <lua.h>
}

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/clock.h"
#include "base/numbers.h"
#include "scripting/script_lua.h"

namespace rankd {
namespace {

constexpr size_t kMaxBreakpoints = 64;
constexpr size_t kMaxInput = size_t{1} << 20;  // a client sending more is cut off
constexpr int kMaxArgs = 1024, kMaxArgLen = 1024;

bool Is(const std::string& a, const char* s, const char* l) {
  return strcasecmp(a.c_str(), s) == 0 || strcasecmp(a.c_str(), l) == 0;
}

}  // namespace

LuaDebugger::LuaDebugger(DebugChannel* channel, std::string_view source, int64_t busy_ms)
    : channel_(channel), busy_ms_(busy_ms > 0 ? busy_ms : 5000), last_stop_ms_(MonoMs()) {
  while (!source.empty() && (source.back() == '\n' || source.back() == '\r')) {
    source.remove_suffix(1);
  }
  size_t start = 0;
  for (;;) {
    size_t nl = source.find('\n', start);
    src_.emplace_back(source.substr(start, nl == std::string_view::npos ? nl : nl - start));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
}

void LuaDebugger::Hook(lua_State* L, lua_Debug* ar) {
  LuaDebugger* d = SandboxOf(L)->debugger();
  if (!d || d->OnEvent(L, ar) == Outcome::kResume) return;
  lua_pushlstring(L, d->raise_.data(), d->raise_.size());
  lua_error(L);
}

LuaDebugger::Outcome LuaDebugger::OnEvent(lua_State* L, lua_Debug* ar) {
  lua_getstack(L, 0, ar);
  lua_getinfo(L, "Sl", ar);
  current_line_ = ar->currentline;
  bool bp = IsBreakpoint(current_line_) || luabp_;
  if (strstr(ar->short_src, "user_script") == nullptr) return Outcome::kResume;
  bool timeout = false;
  if (ar->event == LUA_HOOKCOUNT && !step_ && !bp) {
    if (MonoMs() - last_stop_ms_ < busy_ms_) return Outcome::kResume;
    timeout = true;
    step_ = true;
  }
  if (!step_ && !bp) return Outcome::kResume;
  const char* reason = bp ? (luabp_ ? "redis.breakpoint() called" : "break point")
                          : timeout ? "timeout reached, infinite loop?" : "step over";
  step_ = false;
  luabp_ = false;
  char head[128];
  snprintf(head, sizeof(head), "* Stopped at %d, stop reason = %s", current_line_, reason);
  Log(head);
  LogSourceLine(current_line_);
  SendLogs();
  bool gone = false;
  Outcome out = Repl(L, &gone);
  if (out == Outcome::kResume && gone && timeout) {
    // Nobody will ever continue it: stop the endless script.
    raise_ = "timeout during Lua debugging with client closing connection";
    return Outcome::kRaise;
  }
  last_stop_ms_ = MonoMs();
  return out;
}

LuaDebugger::Outcome LuaDebugger::Repl(lua_State* L, bool* gone) {
  for (;;) {
    std::vector<std::string> argv;
    int parsed;
    while ((parsed = ParseCommand(&argv)) == 0) {
      if (!channel_->Receive(&in_)) {
        // The script goes on by itself to its end.
        step_ = false;
        breakpoints_.clear();
        *gone = true;
        return Outcome::kResume;
      }
      if (in_.size() > kMaxInput) {
        in_.clear();
        raise_ = "max client buffer reached";
        return Outcome::kRaise;
      }
    }
    if (parsed < 0) {
      raise_ = "protocol error";
      return Outcome::kRaise;
    }
    const std::string& cmd = argv[0];
    if (Is(cmd, "h", "help")) {
      Help();
    } else if (Is(cmd, "s", "step") || Is(cmd, "n", "next")) {
      step_ = true;
      return Outcome::kResume;
    } else if (Is(cmd, "c", "continue")) {
      return Outcome::kResume;
    } else if (Is(cmd, "t", "trace")) {
      Trace(L);
    } else if (Is(cmd, "m", "maxlen")) {
      Maxlen(argv);
    } else if (Is(cmd, "b", "break")) {
      Break(argv);
    } else if (Is(cmd, "e", "eval")) {
      Eval(L, argv);
    } else if (Is(cmd, "a", "abort")) {
      raise_ = "script aborted for user request";
      return Outcome::kRaise;
    } else if (argv.size() > 1 && Is(cmd, "r", "redis")) {
      Redis(L, argv);
    } else if (Is(cmd, "p", "print")) {
      if (argv.size() == 2) {
        Print(L, argv[1]);
      } else {
        PrintAll(L);
      }
    } else if (Is(cmd, "l", "list")) {
      int around = current_line_, ctx = 5;
      if (argv.size() > 1 && atoi(argv[1].c_str()) > 0) around = atoi(argv[1].c_str());
      if (argv.size() > 2) ctx = atoi(argv[2].c_str());
      List(around, ctx);
    } else if (Is(cmd, "w", "whole")) {
      List(1, 1000000);
    } else {
      Log("<error> Unknown Redis Lua debugger command or wrong number of arguments.");
    }
    SendLogs();
  }
}

// Redis's debugger reads "*<n>\r\n" then n "$<len>\r\n<bytes>\r\n"; it is
// lenient (skips to the first '*') but takes 1..1024 arguments of 1..1024
// bytes only.
int LuaDebugger::ParseCommand(std::vector<std::string>* argv) {
  argv->clear();
  if (in_.empty()) return 0;
  size_t p = in_.find('*');
  if (p == std::string::npos) return -1;
  size_t eol = in_.find("\r\n", p);
  if (eol == std::string::npos) return 0;
  int argc = atoi(in_.c_str() + p + 1);
  if (argc <= 0 || argc > kMaxArgs) return -1;
  p = eol + 2;
  while (static_cast<int>(argv->size()) < argc) {
    if (p >= in_.size()) return 0;
    if (in_[p] != '$') return -1;
    eol = in_.find("\r\n", p);
    if (eol == std::string::npos) return 0;
    int len = atoi(in_.c_str() + p + 1);
    if (len <= 0 || len > kMaxArgLen) return -1;
    p = eol + 2;
    if (p + len + 2 > in_.size()) return 0;
    argv->emplace_back(in_, p, len);
    p += len;
    if (in_[p] != '\r' || in_[p + 1] != '\n') return -1;
    p += 2;
  }
  in_.clear();  // as Redis: what followed the command in the same read is dropped
  return 1;
}

void LuaDebugger::SendLogs() {
  std::string proto = "*" + std::to_string(logs_.size()) + "\r\n";
  for (std::string& line : logs_) {
    std::replace(line.begin(), line.end(), '\r', ' ');
    std::replace(line.begin(), line.end(), '\n', ' ');
    proto += "+" + line + "\r\n";
  }
  logs_.clear();
  channel_->Send(proto);  // a failed send shows on the next read
}

void LuaDebugger::EndSession() {
  Log("<endsession>");
  SendLogs();
}

void LuaDebugger::LogWithMaxLen(std::string line) {
  bool trimmed = false;
  if (maxlen_ && line.size() > maxlen_) {
    line.resize(maxlen_);
    line += " ...";
    trimmed = true;
  }
  Log(std::move(line));
  if (trimmed && !maxlen_hint_sent_) {
    maxlen_hint_sent_ = true;
    Log("<hint> The above reply was trimmed. Use 'maxlen 0' to disable trimming.");
  }
}

void LuaDebugger::LogCommand(std::span<const std::string_view> args) {
  std::string line = "<redis>";
  for (size_t i = 0; i < args.size(); i++) {
    if (i == 10) {
      line += " ... (" + std::to_string(args.size() - i - 1) + " more)";
      break;
    }
    line += " ";
    line += args[i];
  }
  Log(std::move(line));
}

void LuaDebugger::LogReply(std::string_view resp) { LogWithMaxLen("<reply> " + DebugReplyText(resp)); }

bool LuaDebugger::IsBreakpoint(int line) const {
  return std::find(breakpoints_.begin(), breakpoints_.end(), line) != breakpoints_.end();
}

void LuaDebugger::LogSourceLine(int line) {
  const bool current = line == current_line_, bp = IsBreakpoint(line);
  const char* prefix = current && bp ? "->#" : current ? "-> " : bp ? "  #" : "   ";
  const char* text = line >= 1 && line <= static_cast<int>(src_.size())
                         ? src_[line - 1].c_str()
                         : "<out of range source code line>";
  char num[16];
  snprintf(num, sizeof(num), "%-3d", line);
  Log(std::string(prefix) + num + " " + text);
}

void LuaDebugger::List(int around, int context) {
  for (int j = 1; j <= static_cast<int>(src_.size()); j++) {
    if (around != 0 && std::abs(around - j) > context) continue;
    LogSourceLine(j);
  }
}

void LuaDebugger::Break(const std::vector<std::string>& argv) {
  if (argv.size() == 1) {
    if (breakpoints_.empty()) {
      Log("No breakpoints set. Use 'b <line>' to add one.");
      return;
    }
    Log(std::to_string(breakpoints_.size()) + " breakpoints set:");
    for (int line : breakpoints_) LogSourceLine(line);
    return;
  }
  for (size_t j = 1; j < argv.size(); j++) {
    int64_t line = 0;
    if (!ParseInt64(argv[j], &line)) {
      Log("Invalid argument:'" + argv[j] + "'");
    } else if (line == 0) {
      breakpoints_.clear();
      Log("All breakpoints removed.");
    } else if (line > 0) {
      if (breakpoints_.size() == kMaxBreakpoints) {
        Log("Too many breakpoints set.");
      } else if (line <= static_cast<int64_t>(src_.size()) && !IsBreakpoint(line)) {
        breakpoints_.push_back(static_cast<int>(line));
        List(static_cast<int>(line), 1);
      } else {
        Log("Wrong line number.");
      }
    } else {
      auto it = std::find(breakpoints_.begin(), breakpoints_.end(), -line);
      if (it == breakpoints_.end()) {
        Log("No breakpoint in the specified line.");
      } else {
        breakpoints_.erase(it);
        Log("Breakpoint removed.");
      }
    }
  }
}

void LuaDebugger::Maxlen(const std::vector<std::string>& argv) {
  if (argv.size() == 2) {
    int v = atoi(argv[1].c_str());
    maxlen_hint_sent_ = true;
    if (v != 0 && v <= 60) v = 60;
    maxlen_ = static_cast<size_t>(v);
  }
  Log(maxlen_ ? "<value> replies are truncated at " + std::to_string(static_cast<int>(maxlen_)) +
                    " bytes."
              : std::string("<value> replies are unlimited."));
}

}  // namespace rankd
