// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Group prefetching across a pipeline (issue 16). When one read brings many
// commands, the connection (net/connection.cc) shows the server each one
// twice before it runs, a group of commands at a time: step 0 for the
// group, its loads flushed together, then step 1 (see PrefetchBatch in
// base/prefetch.h).
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

static_assert(PeekedCommand::kMaxArgs <= 8, "the memo packs argument positions in 3 bits");

void Server::Prefetch(Connection* conn, std::span<const std::string_view> args, size_t argc,
                      int step, uintptr_t* memo) {
  const Client* c = static_cast<const Client*>(conn->user_data);
  if (!c || !c->authenticated || c->in_multi) return;
  // What the arguments say (which is the key, which the member) depends on
  // them alone: worked out at step 0 and kept in *memo for step 1, as
  // kNothing or 2 + key * 8 + member (both below PeekedCommand::kMaxArgs).
  constexpr uintptr_t kNothing = 1;
  if (*memo == 0) {
    *memo = kNothing;
    const CommandSpec* spec = FindCommand(args[0]);
    if (!spec || spec->first_key <= 0 || !ArityAccepts(spec->arity, argc)) return;
    const size_t key = static_cast<size_t>(spec->first_key);
    if (key >= args.size()) return;
    size_t member = MemberArg(*spec, argc);
    if (member <= key || member >= args.size()) member = 0;
    *memo = 2 + key * 8 + member;
  }
  if (*memo == kNothing) return;
  const size_t key = (*memo - 2) / 8, member = (*memo - 2) % 8;
  dbs_[static_cast<size_t>(c->db_index)]->Prefetch(
      args[key], member != 0 ? args[member] : std::string_view(), step);
}

}  // namespace rankd
