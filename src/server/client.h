// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Client: the server's per-connection state: selected database, name,
// authentication, MULTI queue, WATCHed keys and blocking state. A Client
// without a connection serves scripts (its replies are captured).

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "db/database.h"
#include "net/connection.h"
#include "net/reply.h"
#include "server/acl_user.h"

namespace rankd {

struct Client {
  uint64_t id = 0;
  Connection* conn = nullptr;  // nullptr for script clients
  ReplyBuilder* reply = nullptr;  // conn->reply() or a capture builder
  int db_index = 0;
  std::string name;
  bool authenticated = false;
  // The ACL user this client runs as (the server's "default" user until
  // AUTH); never null once the server opened the client.
  AclUser* user = nullptr;
  std::string user_name = "default";
  int64_t created_ms = 0;   // monotonic
  // The last command's full name ("client|list"), CLIENT LIST cmd=. Points
  // into the server's command table, which outlives every client.
  std::string_view last_command;

  // MULTI: queued commands, and whether queueing hit an error (EXECABORT).
  bool in_multi = false;
  bool multi_error = false;
  std::vector<std::vector<std::string>> queued;

  // WATCH: keys by database, and the flag any change to them sets.
  Watcher watcher;
  std::vector<std::pair<int, std::string>> watched;
  // Watched keys that were already expired when watched (Redis 7.0 treats a
  // key that expires after WATCH as modified).

  // Blocking (BZPOPMIN and friends). While blocked the connection is paused.
  struct Blocked {
    bool active = false;
    int db = 0;
    std::vector<std::string> keys;
    std::vector<std::string> args;  // the command, retried when a key is ready
    uint64_t timer = 0;             // timeout timer id, 0 when waiting forever
  } blocked;

  int resp() const { return reply->version(); }
};

}  // namespace rankd
