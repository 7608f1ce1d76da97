// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The command line, shaped like redis-server's:
//   rankd [config-file] [--name value ...]
// A `--name` starts an option; the words after it up to the next `--name`
// are its value, joined by spaces (so `--save 900 1 300 10` works, and
// `--save ""` gives an empty value). Options from the file apply first, the
// command line after, so flags override the file.

#pragma once

#include <string>
#include <utility>
#include <vector>

#include "server/config.h"

namespace rankd {

struct StartupOptions {
  std::string config_file;  // empty: none
  // (name, value) in the order they must be applied.
  std::vector<std::pair<std::string, std::string>> settings;
  // The words each setting was given (settings[i]'s value is them joined).
  std::vector<std::vector<std::string>> setting_words;
  bool show_version = false;
  bool show_help = false;
};

// Parses argv. Returns "" or an error message for the user.
std::string ParseCommandLine(int argc, char** argv, StartupOptions* out);

// Directives that are not settings, applied once the commands exist.
struct StartupDirectives {
  // rename-command <name> <new-name> (new-name "" disables the command).
  std::vector<std::pair<std::string, std::string>> renames;
  // user <name> <rules...>: ACL users, as ACL SETUSER would make them.
  std::vector<std::vector<std::string>> users;
};

// Reads the config file (if any) and applies every setting to `table`;
// rename-command and user lines are collected, in order, into `directives`.
// Returns "" or a message naming the file/line/option that failed.
std::string ApplyStartupOptions(const StartupOptions& opts, ConfigTable* table,
                                StartupDirectives* directives);

}  // namespace rankd
