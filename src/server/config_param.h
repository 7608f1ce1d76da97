// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// ConfigTable::Param, one row of the settings table: shared by config.cc
// (the settings rankd implements) and config_compat.cc (Redis 7.0 settings
// it accepts without effect, or refuses). Internal to src/server.

#pragma once

#include <climits>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "server/config.h"

namespace rankd {

struct ConfigTable::Param {
  enum class Kind { kInt, kMemory, kBool, kString, kEnum, kList, kSave, kOutputLimit, kNotify,
                    kPercentiles };
  std::string_view name;
  std::string_view alias;
  Kind kind;
  void* field;  // int64_t (kInt, kMemory), bool, std::string (kString, kEnum),
                // std::vector<double> (kPercentiles), ...
  int64_t min = 0, max = LLONG_MAX;
  bool immutable = false;
  std::vector<std::string_view> choices = {};
  // Optional: returns why `value` is refused before it is parsed ("" to
  // accept), for settings whose effect rankd lacks and cannot ignore safely.
  std::string (*refuse)(std::string_view value) = nullptr;
};

// Checks for rows of config.cc (config_checks.cc): "" to accept, else why not.
// replicaof: "host port" or "no one" (start-up only; REPLICAOF at run time).
std::string CheckReplicaOf(std::string_view value);
// unixsocketperm: an octal file mode, 0 to 777.
std::string RefuseFileMode(std::string_view value);
// Settings Redis 7.0 hides from CONFIG GET patterns (its HIDDEN_CONFIG test
// switches: rdb-key-save-delay, key-load-delay, use-exit-on-panic,
// watchdog-period): CONFIG GET answers them by exact name only.
bool HiddenFromGlobs(std::string_view name);
// CONFIG GET dir: the working directory (rankd moved into `dir` at start-up),
// absolute, as Redis shows it; `fallback` if unknown.
std::string CurrentDir(const std::string& fallback);
// shutdown-on-sigint / -sigterm's words as Redis lists them (default, save,
// nosave, now, force order), whatever order they were given in.
std::string SignalFlagsInOrder(const std::string& value);
// maxmemory-clients: a memory value, or a percentage of maxmemory up to 100%.
std::string RefuseMemoryOrPercent(std::string_view value);
// shutdown-on-sigint / -sigterm: "default" or words among save, nosave, now, force.
std::string RefuseShutdownOnSignal(std::string_view value);

}  // namespace rankd
