// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The Lua engine as the server core sees it (server.h holds one).

#pragma once

#include <span>
#include <string>
#include <string_view>

namespace rankd {

// The Lua engine as the server core sees it. The core owns it but does not
// know it: the scripting layer (ScriptEngine::Of) creates it on first use,
// and Dispatch asks it before every command whether a running script
// holds that command back.
class ScriptRuntime {
 public:
  virtual ~ScriptRuntime() = default;
  // While a script runs past busy-reply-threshold, returns the -BUSY error
  // `args` gets; empty when no script is busy and for the commands Redis 7.0
  // flags allow-busy (AUTH, HELLO, QUIT, RESET, MULTI, DISCARD, WATCH,
  // UNWATCH, SCRIPT KILL, FUNCTION KILL/STATS, SHUTDOWN NOSAVE). Dispatch
  // treats it as any rejection: inside MULTI it dooms the transaction, and
  // EXEC answers EXECABORT and ends it.
  virtual std::string BusyError(std::span<const std::string_view> args) = 0;
  // The flags EVAL / EVALSHA / FCALL `args` declare (a function, or a
  // shebang script; `declared` false otherwise): Dispatch applies them
  // (writes, allow-stale) before the script runs, as Redis 7.0.
  struct DeclaredFlags { bool declared = false, writes = false, allow_stale = false; };
  virtual DeclaredFlags Declared(std::span<const std::string_view> args) = 0;
};

}  // namespace rankd
