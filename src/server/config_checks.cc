// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Value checks of single settings (ConfigTable::Param::refuse), in Redis's
// words, for the rows of config.cc.

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "base/numbers.h"
#include "base/split.h"
#include "server/command.h"
#include "server/config_param.h"

namespace rankd {

// replicaof: "host port" or "no one" (start-up only; REPLICAOF at run time).
std::string CheckReplicaOf(std::string_view value) {
  std::vector<std::string_view> words = SplitSpaces(value);
  if (words.empty() || (words.size() == 2 && EqualsIgnoreCase(words[0], "no") && EqualsIgnoreCase(words[1], "one"))) {
    return "";
  }
  int64_t port = 0;
  if (words.size() != 2) return "wrong number of arguments";
  if (!ParseInt64(words[1], &port) || port < 0 || port > 65535) return "Invalid master port";
  return "";
}

// unixsocketperm: an octal file mode, 0 to 777 (Redis's messages).
std::string RefuseFileMode(std::string_view value) {
  if (value.empty() || value.find_first_not_of("01234567") != std::string_view::npos ||
      value.size() > 4) {
    return "argument couldn't be parsed as an octal number";
  }
  return std::stoi(std::string(value), nullptr, 8) > 0777
             ? "argument must be between 0 and 777 inclusive"
             : "";
}

bool HiddenFromGlobs(std::string_view name) {
  for (std::string_view hidden :
       {"rdb-key-save-delay", "key-load-delay", "use-exit-on-panic", "watchdog-period"}) {
    if (name == hidden) return true;
  }
  return false;
}

bool ConfigTable::TakesOneWord(std::string_view name) const {
  using K = Param::Kind;
  const Param* p = Find(name);
  return p && (p->kind == K::kInt || p->kind == K::kMemory || p->kind == K::kBool ||
               p->kind == K::kEnum);
}

// shutdown-on-sigint / -sigterm: "default", or some of save, nosave, now, force.
std::string RefuseShutdownOnSignal(std::string_view value) {
  std::vector<std::string_view> words = SplitSpaces(value);
  bool ok = !words.empty();
  for (std::string_view w : words) {
    ok &= w == "default" || w == "save" || w == "nosave" || w == "now" || w == "force";
  }
  return ok ? "" : "argument(s) must be one of the following: default, save, nosave, now, force";
}

std::string CurrentDir(const std::string& fallback) {
  char buf[PATH_MAX];
  return getcwd(buf, sizeof(buf)) ? std::string(buf) : fallback;
}

std::string SignalFlagsInOrder(const std::string& value) {
  std::vector<std::string_view> words = SplitSpaces(value);
  std::string out;
  for (std::string_view flag : {"default", "save", "nosave", "now", "force"}) {
    if (std::find(words.begin(), words.end(), flag) != words.end()) {
      out += (out.empty() ? "" : " ") + std::string(flag);
    }
  }
  return out.empty() ? value : out;
}

std::string RefuseMemoryOrPercent(std::string_view value) {
  int64_t n;
  if (value.ends_with('%')) {
    if (!ParseInt64(value.substr(0, value.size() - 1), &n) || n < 0) {
      return "argument must be a memory or percent value";
    }
    return n > 100 ? "percentage argument must be less or equal to 100" : "";
  }
  return ParseMemory(value, &n) && n >= 0 ? "" : "argument must be a memory or percent value";
}

}  // namespace rankd
