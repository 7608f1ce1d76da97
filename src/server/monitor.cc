// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// MONITOR: every command the server runs, as one status line per command
// to each monitoring client, in Redis 7.0's format:
//
//   +1339518083.107412 [0 127.0.0.1:60866] "keys" "*"
//
// (unix seconds with microseconds, database, client address (for a
// replica's master link, the primary's) or "lua" for commands run by
// scripts, arguments quoted as Redis sdscatrepr). What is shown follows Redis: a command after it ran (so SELECT shows the new
// database and EXEC follows the transaction's commands), except scripts,
// which come before the commands they call (kSkipMonitor); admin commands,
// rejected commands and retries of blocked commands are not shown; secrets
// (AUTH, HELLO AUTH, MIGRATE AUTH/AUTH2 credentials: server/redact.h) read
// "(redacted)".

#include <sys/time.h>

#include <algorithm>
#include <cctype>

#include "base/numbers.h"
#include "server/redact.h"
#include "server/server.h"

namespace rankd {
namespace {

void AppendRepr(std::string* out, std::string_view s) {
  out->push_back('"');
  for (unsigned char ch : s) {
    switch (ch) {
      case '\\': out->append("\\\\"); break;
      case '"': out->append("\\\""); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\a': out->append("\\a"); break;
      case '\b': out->append("\\b"); break;
      default:
        if (isprint(ch)) {
          out->push_back(static_cast<char>(ch));
        } else {
          static constexpr char kHex[] = "0123456789abcdef";
          out->append("\\x");
          out->push_back(kHex[ch >> 4]);
          out->push_back(kHex[ch & 15]);
        }
    }
  }
  out->push_back('"');
}

}  // namespace

void Server::AddMonitor(Client& c) {
  c.monitor = true;
  monitors_.push_back(&c);
  if (c.conn) c.conn->set_idle_exempt(true);  // as Redis: no idle timeout for monitors
}

void Server::RemoveMonitor(Client& c) {
  if (!c.monitor) return;
  c.monitor = false;
  if (c.conn) c.conn->set_idle_exempt(false);
  monitors_.erase(std::remove(monitors_.begin(), monitors_.end(), &c), monitors_.end());
}

void Server::FeedMonitors(const Client& c, std::span<const std::string_view> args) {
  if (monitors_.empty()) return;
  timeval tv;
  gettimeofday(&tv, nullptr);
  std::string line = "+";
  AppendInt64(&line, tv.tv_sec);
  char usec[8];
  snprintf(usec, sizeof(usec), ".%06ld", static_cast<long>(tv.tv_usec));
  line.append(usec);
  line.append(" [");
  AppendInt64(&line, c.db_index);
  line.push_back(' ');
  // A client without a connection is a script's, or the master client,
  // shown with its link's address (the primary's), as Redis.
  if (c.conn) {
    line.append(c.conn->peer());
  } else {
    line.append(c.link_peer.empty() ? std::string_view("lua") : std::string_view(c.link_peer));
  }
  line.append("]");
  for (std::string_view a : RedactSecrets(args)) {
    line.push_back(' ');
    AppendRepr(&line, a);
  }
  line.append("\r\n");
  for (Client* m : monitors_) {
    if (!m->conn || m->conn->closing()) continue;
    m->reply->Raw(line);
    if (!m->conn->EnforceOutputLimit()) m->conn->ScheduleFlush();
  }
}

}  // namespace rankd
