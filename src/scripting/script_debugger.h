// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// LuaDebugger: Redis's Lua debugger (LDB, `redis-cli --ldb`), one session
// per EVAL run after SCRIPT DEBUG YES|SYNC. While the script runs, a line
// hook stops it (the first line, a breakpoint, redis.breakpoint(), a step,
// or a count hook past the busy time: "timeout reached, infinite loop?"),
// sends what the session logged and reads debugger commands from the
// client, until one resumes the script:
//
//   step/next, continue, list [line [ctx]], whole, print [var],
//   break [line|-line|0], trace, eval <code>, redis <cmd...>,
//   maxlen [len], abort, help
//
// The wire protocol is Redis's: the client sends commands as RESP arrays;
// each answer is an array of simple strings, one per log line, tagged
// "<reply>", "<value>", "<retval>", "<error>", "<redis>", "<debug>",
// "<hint>"; the session ends with "<endsession>", then the EVAL's own
// reply, and the connection is closed. The I/O goes through a
// DebugChannel that talks to the client's socket directly while the
// server's event loop waits (script_debug.cc): plain TCP and Unix-socket
// connections only, not TLS (docs/scripting.md).

#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

struct lua_State;
struct lua_Debug;

namespace rankd {

class DebugChannel {
 public:
  virtual ~DebugChannel() = default;
  // Sends `bytes` now. False when the client is gone.
  virtual bool Send(std::string_view bytes) = 0;
  // Waits for input and appends it to *buf. False at the client's close.
  virtual bool Receive(std::string* buf) = 0;
};

class LuaDebugger {
 public:
  // `source` is the script's text (lines listed by `list`); `busy_ms` the
  // time without a stop after which the script is stopped (0: 5000).
  LuaDebugger(DebugChannel* channel, std::string_view source, int64_t busy_ms);

  // The hook LuaSandbox::Run installs for a debugged run (line and count
  // events); raises the script's error on `abort` or a protocol error.
  static void Hook(lua_State* L, lua_Debug* ar);
  // Sends the remaining log and "<endsession>".
  void EndSession();

  // Redis's ldbIsEnabled: redis.call logs its command and reply while the
  // debugger steps.
  bool stepping() const { return step_; }
  void Log(std::string line) { logs_.push_back(std::move(line)); }
  // Log() trimmed to maxlen, with a one-time hint about `maxlen 0`.
  void LogWithMaxLen(std::string line);
  // "<redis> cmd args..." (at most 10 arguments shown).
  void LogCommand(std::span<const std::string_view> args);
  // "<reply> " and the RESP reply in human form.
  void LogReply(std::string_view resp);
  // redis.breakpoint(): stop at the next line.
  void RequestBreak() { luabp_ = true; }
  int current_line() const { return current_line_; }

 private:
  // What the hook must do once the C++ frames are gone.
  enum class Outcome { kResume, kRaise };
  Outcome OnEvent(lua_State* L, lua_Debug* ar);
  // Serves commands until one resumes the script. False when the client
  // is gone (the script then runs to its end without stops).
  Outcome Repl(lua_State* L, bool* gone);
  // Parses one command from in_; 1: parsed, 0: need more, -1: protocol error.
  int ParseCommand(std::vector<std::string>* argv);
  void SendLogs();
  void LogSourceLine(int line);
  void List(int around, int context);
  bool IsBreakpoint(int line) const;
  void Break(const std::vector<std::string>& argv);
  void Print(lua_State* L, const std::string& name);
  void PrintAll(lua_State* L);
  void Eval(lua_State* L, const std::vector<std::string>& argv);
  void Redis(lua_State* L, const std::vector<std::string>& argv);
  void Trace(lua_State* L);
  void Maxlen(const std::vector<std::string>& argv);
  void Help();
  void LogTopValue(lua_State* L, std::string prefix);

  DebugChannel* const channel_;
  std::vector<std::string> src_;
  std::vector<std::string> logs_;
  std::vector<int> breakpoints_;
  std::string in_;
  std::string raise_;  // the error Hook raises (kRaise)
  int64_t busy_ms_;
  int64_t last_stop_ms_;
  int current_line_ = -1;
  size_t maxlen_ = 256;
  bool maxlen_hint_sent_ = false;
  bool step_ = true;
  bool luabp_ = false;
};

// Text forms the debugger shows (script_debugger_text.cc).
// The Lua value at `idx` as Redis's debugger prints it: strings quoted
// with escapes, numbers %g, tables {a; b} or {[k]=v}, others "type@addr".
std::string DebugValueText(lua_State* L, int idx);
// A RESP reply in human form: "foo" for bulks, [a,b] arrays, {k => v} maps,
// NULL, "+OK" / "-ERR ..." quoted, (double) 1.5, #true ...
std::string DebugReplyText(std::string_view resp);

}  // namespace rankd
