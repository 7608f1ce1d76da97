// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// FunctionLibraries: Redis 7.0 functions (FUNCTION LOAD and friends, FCALL).
// A library is Lua code that starts with "#!lua name=<lib>" and calls
// redis.register_function(name, fn) or redis.register_function{
// function_name=, callback=, flags={...}, description=} while it loads.
//
// All libraries share one LuaSandbox(kFunction), separate from EVAL's.
// Library code runs in a read-only environment whose globals are Redis's
// load API (only redis.register_function, redis.log, the LOG_* and version
// constants) while loading, and the full, read-only script globals after,
// so the registered closures see redis.call at run time, as in Redis.
// Nothing one library does is visible to another: they share only
// read-only tables.
//
// Libraries live in memory only: they are lost on restart until the
// persistence layer stores Dump() (see docs/scripting.md).

#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "scripting/script_lua.h"

namespace rankd {

class FunctionLibraries {
 public:
  struct Function {
    std::string name;
    std::string description;  // empty: none (null in FUNCTION LIST)
    bool has_description = false;
    std::vector<std::string> flags;  // as given: "no-writes", ...
    bool no_writes = false;
    bool allow_oom = false;
    bool allow_stale = false;
    bool no_cluster = false;        // refused in cluster mode
    bool allow_cross_slot = false;  // may touch keys of several slots
    int ref = 0;  // Lua registry reference of the callback
  };
  struct Library {
    std::string name;
    std::string code;
    std::map<std::string, Function> functions;
  };

  explicit FunctionLibraries(ScriptHost* host);
  FunctionLibraries(const FunctionLibraries&) = delete;
  FunctionLibraries& operator=(const FunctionLibraries&) = delete;

  // FUNCTION LOAD: compiles and runs `code`, registering its functions.
  // Returns "" and sets *name to the library name, or an error text
  // ("ERR Library 'x' already exists", "ERR No functions registered", ...).
  // Library code running past 500 ms fails with "ERR Error registering
  // functions: ERR FUNCTION LOAD timeout" (Redis 7.0).
  std::string Load(std::string_view code, bool replace, std::string* name);
  // Returns false if there is no such library.
  bool Delete(std::string_view name);
  void Flush();

  // The function called `name` (any case), or nullptr.
  const Function* Find(std::string_view name) const;
  // Runs `fn` (from Find) with fn(keys, args) and writes its reply to `out`.
  void Call(const Function& fn, std::span<const std::string_view> keys,
            std::span<const std::string_view> args, ReplyBuilder& out);

  const std::map<std::string, Library>& libraries() const { return libraries_; }
  size_t function_count() const { return by_function_.size(); }

  // FUNCTION DUMP: Redis's payload (one 0xF5 record per library with its
  // code as an uncompressed RDB string, RDB version 10, CRC64 Jones LE).
  std::string Dump() const;
  // FUNCTION RESTORE with policy "FLUSH", "APPEND" or "REPLACE" (any
  // case). Returns "" or the error text. All or nothing: after an error the
  // libraries are those from before (reloaded from their code).
  std::string Restore(std::string_view payload, std::string_view policy);

  bool running() const { return sandbox_.running(); }

 private:
  void Unref(Library& lib);
  LuaSandbox sandbox_;
  int env_ref_ = 0;  // the proxy environment of library code
  std::map<std::string, Library> libraries_;
  // Lower-case function name -> (library, function name): FCALL finds
  // functions in any case, and two libraries cannot hold names that differ
  // only in case (Redis 7.0); library names are case-sensitive.
  std::map<std::string, std::pair<std::string, std::string>> by_function_;
};

}  // namespace rankd
