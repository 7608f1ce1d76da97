// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/repl_divergence.h"

#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/logging.h"
#include "base/split.h"
#include "server/client.h"
#include "server/server.h"

namespace rankd {
namespace {

// Redis logs at most this much of an error's text.
constexpr size_t kMaxLoggedError = 4096;

uint64_t g_unexpected_errors = 0;

// The error replies in `reply`, a sequence of RESP2/RESP3 elements
// (aggregate headers are followed by their elements, so a flat walk sees
// every element).
std::vector<std::string_view> Errors(std::string_view reply) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (pos < reply.size()) {
    const size_t eol = reply.find("\r\n", pos);
    if (eol == std::string_view::npos) break;
    const char type = reply[pos];
    const std::string_view line = reply.substr(pos + 1, eol - pos - 1);
    pos = eol + 2;
    if (type == '-') out.push_back(line);
    if (type == '$' || type == '=' || type == '!') {
      const long long len = std::atoll(std::string(line).c_str());
      if (len < 0) continue;
      if (type == '!') out.push_back(reply.substr(pos, static_cast<size_t>(len)));
      pos += static_cast<size_t>(len) + 2;
    }
  }
  return out;
}

// The command's name as Redis's log line gives it: lower case, a
// subcommand as "config|set"; "<unknown>" for a command this server lacks.
std::string LoggedName(Server& server, const Client& c, std::string_view first) {
  if (!server.FindCommand(first)) return "<unknown>";
  std::string_view last = c.last_command;
  if (EqualsIgnoreCase(last.substr(0, last.find('|')), first)) return std::string(last);
  std::string name(first);
  for (char& ch : name) ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
  return name;
}

}  // namespace

uint64_t UnexpectedErrorReplies() { return g_unexpected_errors; }

void ReportPrimaryErrors(Server& server, const Client& master,
                         std::span<const std::string_view> args, std::string_view reply) {
  if (reply.find('-') == std::string_view::npos && reply.find('!') == std::string_view::npos) {
    return;
  }
  const std::vector<std::string_view> errors = Errors(reply);
  if (errors.empty()) return;
  const std::string name = LoggedName(server, master, args[0]);
  for (std::string_view error : errors) {
    const std::string_view shown = error.substr(0, kMaxLoggedError);
    LOG_WARNING("== CRITICAL == This replica is sending an error to its master: '%.*s' after "
                "processing the command '%s'",
                static_cast<int>(shown.size()), shown.data(), name.c_str());
    g_unexpected_errors++;
  }
  const Config& config = server.config();
  auto behavior = config.compat_strings.find("propagation-error-behavior");
  const bool panic = behavior != config.compat_strings.end() &&
                     (behavior->second == "panic" || behavior->second == "panic-on-replicas");
  if (!panic || !config.replica_read_only) return;
  LOG_WARNING("Guru Meditation: This replica panicked sending an error to its master after "
              "processing the command '%s'",
              name.c_str());
  auto exit_on_panic = config.compat_bools.find("use-exit-on-panic");
  if (exit_on_panic != config.compat_bools.end() && exit_on_panic->second) std::exit(1);
  std::abort();  // the crash report follows (base/crash_report.h)
}

}  // namespace rankd
