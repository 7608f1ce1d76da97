// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// COMMAND DOCS / INFO for rankd's own leaderboard commands (LB.*), written
// by hand in the grammar of command_docs.h (docs/leaderboards.md is the
// prose). Group "sorted-set": they read and write sorted-set keys.

#include "commands/command_docs.h"

namespace rankd {
namespace {

constexpr std::string_view kRead = "@read @sortedset @fast";
constexpr std::string_view kReadSlow = "@read @sortedset @slow";
constexpr std::string_view kWriteFast = "@write @sortedset @fast";
constexpr std::string_view kKey = "RO access|index 1|range 0 1 0|";

// Arguments strings that end with the MODE option are spelled out in full:
// constexpr concatenation of string_views is not available.
constexpr CommandDoc kDocs[] = {
    {.name = "lb.create",
     .summary = "Create an empty leaderboard with its ordering policy, periodic with PERIOD, "
                "with scheduled stable views with SNAPSHOT EVERY",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(1)",
     .arguments = "key:key@0 order:oneof=ORDER?(desc:pure-token=DESC asc:pure-token=ASC) "
                  "ties:oneof=TIES?(first:pure-token=FIRST last:pure-token=LAST) "
                  "period:string=PERIOD? zone:string=TZ? "
                  "weekstart:oneof=WEEKSTART?(mon:pure-token=MON sun:pure-token=SUN) "
                  "retain:integer=RETAIN? unix-ms:integer=NOW? "
                  "snapshot:block=SNAPSHOT?(seconds:integer=EVERY)",
     .acl_categories = kWriteFast, .key_specs = "OW update|index 1|range 0 1 0|"},
    {.name = "lb.add", .summary = "Add or update members of a leaderboard, stamped in order",
     .since = "0.1.0", .group = "sorted-set",
     .complexity = "O(log(N)) for each member added, N the number of members",
     .arguments = "key:key@0 condition:oneof?(nx:pure-token=NX xx:pure-token=XX) "
                  "update:oneof?(set:pure-token=SET best:pure-token=BEST incr:pure-token=INCR) "
                  "unix-ms:integer=AT? score_member:block*(score:double member:string)",
     .acl_categories = "@write @sortedset @fast @denyoom",
     .key_specs = "RW update|index 1|range 0 1 0|"},
    {.name = "lb.load", .summary = "Load a leaderboard with explicit stamps (replay, restore)",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(M*log(N)), M members loaded",
     .arguments = "key:key@0 order:string=ORDER ties:string=TIES nextseq:integer=NEXTSEQ "
                  "entry:block*(score:double member:string seq:integer ms:integer)",
     .acl_categories = "@write @sortedset @slow", .key_specs = "RW update|index 1|range 0 1 0|"},
    {.name = "lb.rank", .summary = "The rank of a member (1 = best)", .since = "0.1.0",
     .group = "sorted-set", .complexity = "O(log(N))",
     .arguments = "key:key@0 member:string mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE) "
                  "period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kRead, .key_specs = kKey},
    {.name = "lb.top", .summary = "The best members with their ranks and scores",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(log(N)+M), M rows returned",
     .arguments = "key:key@0 count:integer offset:integer=OFFSET? "
                  "mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE) "
                  "period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kReadSlow, .key_specs = kKey},
    {.name = "lb.range", .summary = "Every member holding a rank in [minrank, maxrank]",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(log(N)+M), M rows returned",
     .arguments = "key:key@0 minrank:integer maxrank:integer "
                  "mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE) "
                  "period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kReadSlow, .key_specs = kKey},
    {.name = "lb.around", .summary = "A member with `count` rows above and below it",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(log(N)+M), M rows returned",
     .arguments = "key:key@0 member:string count:integer "
                  "mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE) "
                  "period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kReadSlow, .key_specs = kKey},
    {.name = "lb.ranks", .summary = "The ranks of several members", .since = "0.1.0",
     .group = "sorted-set", .complexity = "O(M*log(N)), M members asked",
     .arguments = "key:key@0 member:string* mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE) "
                  "period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kReadSlow, .key_specs = kKey},
    {.name = "lb.percentile", .summary = "The share of members a member beats",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(log(N))",
     .arguments = "key:key@0 member:string period:string=PERIOD? snapshot:pure-token=SNAPSHOT?", .acl_categories = kRead,
     .key_specs = kKey},
    {.name = "lb.rankfor", .summary = "The rank a score would take", .since = "0.1.0",
     .group = "sorted-set", .complexity = "O(log(N))",
     .arguments = "key:key@0 score:double mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE) "
                  "period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kRead, .key_specs = kKey},
    {.name = "lb.scoreat", .summary = "The score held at a rank", .since = "0.1.0",
     .group = "sorted-set", .complexity = "O(log(N))",
     .arguments = "key:key@0 rank:integer mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE) "
                  "period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kRead, .key_specs = kKey},
    {.name = "lb.info", .summary = "A leaderboard's policy and counts", .since = "0.1.0",
     .group = "sorted-set", .complexity = "O(1)",
     .arguments = "key:key@0 period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kRead, .key_specs = kKey},
    {.name = "lb.stamp", .summary = "A member's stamp: [sequence, unix-ms]", .since = "0.1.0",
     .group = "sorted-set", .complexity = "O(1)",
     .arguments = "key:key@0 member:string period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kRead, .key_specs = kKey},
    {.name = "lb.watch", .summary = "Receive a leaderboard's top rows whenever they change",
     .since = "0.1.0", .group = "sorted-set",
     .complexity = "O(log(N)+M) for the snapshot, M the rows watched",
     .arguments = "key:key@0 n:integer=TOP mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE)",
     .legacy = {-4, 1, 1, 1}, .extra_flags = "pubsub",
     .acl_categories = "@read @sortedset @pubsub @slow",
     .key_specs = kKey},
    {.name = "lb.unwatch", .summary = "Stop receiving leaderboards' top rows",
     .since = "0.1.0", .group = "sorted-set",
     .complexity = "O(N) where N is the number of leaderboards watched",
     .arguments = "key:key@0?*", .legacy = {-1, 1, -1, 1}, .extra_flags = "pubsub",
     .acl_categories = "@sortedset @pubsub @slow",
     .key_specs = "not_key|index 1|range -1 1 0|"},
    {.name = "lb.periods",
     .summary = "The kept periods of a periodic leaderboard: id, start, end, members, offset",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(P), P kept periods",
     .arguments = "key:key@0", .acl_categories = kReadSlow, .key_specs = kKey},
    {.name = "lb.snapshot",
     .summary = "Freeze a stable view of a leaderboard, read with SNAPSHOT",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(1)",
     .arguments = "key:key@0", .acl_categories = "@write @sortedset @fast @denyoom",
     .key_specs = "RW access|index 1|range 0 1 0|"},
    {.name = "lb.roll", .summary = "Close a periodic leaderboard's open period (log records)",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(1) amortized",
     .arguments = "key:key@0 period-id:string", .acl_categories = kWriteFast,
     .key_specs = "RW update|index 1|range 0 1 0|"},
};

}  // namespace

std::span<const CommandDoc> LeaderboardCommandDocs() { return kDocs; }

}  // namespace rankd
