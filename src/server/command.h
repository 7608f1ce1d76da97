// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// What a command is: a spec (name, arity, flags, key positions, handler) and
// the context its handler runs in. Each family file (keys_family.cc,
// zset_family.cc, ...) declares one table of specs, readable as data:
//
//   constexpr CommandSpec kStringCommands[] = {
//     // name   arity flags                 first last step handler
//     {"get",    2,    kReadOnly | kFast,    1,    1,   1,   &Get},
//   };
//
// Arity follows Redis: N = exactly N args including the name, -N = at least
// N. The dispatcher checks arity, authentication and MULTI queueing before a
// handler runs, so handlers never re-check them. A handler parses its
// arguments, operates on the database, and writes exactly one reply (or
// blocks the client, see Server::Block).

#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "net/reply.h"

namespace rankd {

class Server;
struct Client;
class Database;

enum CommandFlags : uint32_t {
  kWrite = 1 << 0,       // may modify the keyspace
  kReadOnly = 1 << 1,    // never modifies the keyspace
  kDenyOom = 1 << 2,     // may grow memory
  kFast = 1 << 3,        // O(1) or O(log n)
  kAdmin = 1 << 4,       // server administration
  kNoScript = 1 << 5,    // not allowed from Lua scripts
  kNoAuth = 1 << 6,      // allowed before AUTH (AUTH, HELLO, QUIT)
  kBlocking = 1 << 7,    // may block the client
  kNoMulti = 1 << 8,     // refused inside MULTI (Redis's no-multi: SAVE, SHUTDOWN)
  kLoading = 1 << 9,     // allowed while loading data
  kStale = 1 << 10,      // allowed on a stale replica
  kMayReplicate = 1 << 11,
  kNoPropagate = 1 << 12,  // never written to the append-only log
  // Shown to MONITOR before it runs instead of after (scripts, whose own
  // commands follow them; Redis's skip_monitor plus an explicit feed).
  kSkipMonitor = 1 << 13,
  kProtected = 1 << 14,    // refused unless enable-debug-command allows it (DEBUG)
  kSkipSlowlog = 1 << 15,  // not in SLOWLOG: EXEC, whose commands are logged one by one
};

struct CommandContext;
using CommandHandler = void (*)(CommandContext& ctx);

struct CommandSpec {
  std::string_view name;  // lower case
  int arity;
  uint32_t flags;
  int first_key;  // 0: no keys; negative last_key counts from the end
  int last_key;
  int key_step;
  CommandHandler handler;
  // Container commands (CLIENT, CONFIG, COMMAND) list their subcommands, as
  // Redis 7.0 does: each with its own arity and flags (name without the
  // "client|" prefix; its handler is usually the container's). The
  // dispatcher resolves the subcommand, checks its arity and reports errors
  // as "client|id".
  std::span<const CommandSpec> subcommands = {};
};

struct CommandContext {
  Server& server;
  Client& client;
  ReplyBuilder& reply;
  std::span<const std::string_view> args;
  // True while a blocked client's command is retried because a key it waits
  // on became ready; a handler that still cannot serve returns without
  // replying and the client stays blocked.
  bool retrying_blocked = false;
  // True inside MULTI/EXEC and scripts: blocking commands must not block.
  bool no_block = false;

  // The client's selected database.
  Database& db();
  // The keys a blocking command may serve from: while a blocked client is
  // retried for a key that became ready, that key alone (Redis 7.0 serves
  // each ready key's waiters from that key); otherwise `keys`.
  std::span<const std::string_view> ServeKeys(std::span<const std::string_view> keys) const;
  size_t argc() const { return args.size(); }
  std::string_view arg(size_t i) const { return args[i]; }
};

// "ERR unknown subcommand or wrong number of arguments for '<sub>'. Try
// <CONTAINER> HELP.": a subcommand whose own argument check failed (Redis
// addReplySubcommandSyntaxError); `subcommand` as typed, at most 128 bytes.
std::string SubcommandSyntaxError(std::string_view subcommand, std::string_view container);

// Whether `argc` arguments (the name included) fit `arity`: exactly arity
// when positive, at least -arity when negative (Redis's convention).
inline bool ArityAccepts(int arity, size_t argc) {
  const int n = static_cast<int>(argc);
  return arity > 0 ? n == arity : n >= -arity;
}
// "ERR wrong number of arguments for 'get' command"
std::string WrongArityError(std::string_view command_name);
// "ERR unknown subcommand 'x'. Try CLIENT HELP."
std::string UnknownSubcommandError(std::string_view subcommand, std::string_view command);

// Redis's addReplyHelp: "<COMMAND> <subcommand> [<arg> [value] [opt] ...].
// Subcommands are:", then `lines`, then "HELP" / "    Prints this help.".
void ReplyHelp(ReplyBuilder& reply, std::string_view command,
               std::initializer_list<std::string_view> lines);

// ASCII case-insensitive equality, for option keywords.
bool EqualsIgnoreCase(std::string_view a, std::string_view b);

}  // namespace rankd
