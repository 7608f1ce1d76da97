// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Group prefetching across a pipeline (issue 16). When one read brings many
// commands, the connection (net/connection.cc) shows the server each one
// twice before it runs: two commands ahead (step 0) and one ahead (step 1).
// Here the command's key, and for sorted-set lookups its member, go to
// Database::Prefetch, which starts loading the keyspace bucket and entry and
// the member's index slot and records. The command later runs through
// Dispatch exactly as it would have; only what is in the cache differs.
// Nothing here changes state, replies, stats or ACL logs.

#include "net/resp_peek.h"
#include "server/server.h"

namespace rankd {
namespace {

// Where a sorted-set command names the member its lookup will touch, or 0.
size_t MemberArg(const CommandSpec& spec, size_t argc) {
  const std::string_view n = spec.name;
  if (n.size() < 4 || n[0] != 'z') return 0;
  if (n == "zscore" || n == "zrank" || n == "zrevrank" || n == "zrem" || n == "zmscore") return 2;
  if (n == "zincrby") return 3;
  // ZADD key [options] score member: a single pair ends the command.
  if (n == "zadd" && argc <= PeekedCommand::kMaxArgs) return argc - 1;
  return 0;
}

}  // namespace

void Server::Prefetch(Connection* conn, std::span<const std::string_view> args, size_t argc,
                      int step) {
  const Client* c = static_cast<const Client*>(conn->user_data);
  if (!c || !c->authenticated || c->in_multi) return;
  const CommandSpec* spec = FindCommand(args[0]);
  if (!spec || spec->first_key <= 0 || !ArityAccepts(spec->arity, argc)) return;
  const size_t key = static_cast<size_t>(spec->first_key);
  if (key >= args.size()) return;
  const size_t member = MemberArg(*spec, argc);
  dbs_[static_cast<size_t>(c->db_index)]->Prefetch(
      args[key], member > key && member < args.size() ? args[member] : std::string_view(), step);
}

}  // namespace rankd
