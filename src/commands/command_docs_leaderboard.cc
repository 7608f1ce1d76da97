// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// COMMAND DOCS / INFO for rankd's own leaderboard commands (LB.*), written
// by hand in the grammar of command_docs.h, with summaries and complexities in
// the style of scripts/command_docs_prose.txt (docs/leaderboards.md has the
// details). Group "sorted-set": they read and write sorted-set keys.

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
     .summary = "Creates an empty leaderboard with its order and tie rule, optionally "
                "periodic (PERIOD) and with scheduled stable views (SNAPSHOT EVERY).",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(1)",
     .arguments = "key:key@0 order:oneof=ORDER?(desc:pure-token=DESC asc:pure-token=ASC) "
                  "ties:oneof=TIES?(first:pure-token=FIRST last:pure-token=LAST) "
                  "period:string=PERIOD? zone:string=TZ? "
                  "weekstart:oneof=WEEKSTART?(mon:pure-token=MON sun:pure-token=SUN) "
                  "retain:integer=RETAIN? unix-ms:integer=NOW? "
                  "snapshot:block=SNAPSHOT?(seconds:integer=EVERY) adopt:pure-token=ADOPT?",
     .acl_categories = kWriteFast, .key_specs = "RW update|index 1|range 0 1 0|"},
    {.name = "lb.alter",
     .summary = "Changes the view schedule, RETAIN or time zone of an existing leaderboard, "
                "keeping the rest.",
     .since = "0.1.0", .group = "sorted-set",
     .complexity = "O(1), plus O(P) for P closed periods a smaller RETAIN drops.",
     .arguments = "key:key@0 snapshot:block=SNAPSHOT?(seconds:integer=EVERY) "
                  "retain:integer=RETAIN? zone:string=TZ?",
     .acl_categories = kWriteFast, .key_specs = "RW update|index 1|range 0 1 0|"},
    {.name = "lb.add",
     .summary = "Adds members to a leaderboard or changes their scores, stamping each write.",
     .since = "0.1.0", .group = "sorted-set",
     .complexity = "O(log N) per member written, for N members.",
     .arguments = "key:key@0 period:string=PERIOD? "
                  "condition:oneof?(nx:pure-token=NX xx:pure-token=XX) "
                  "update:oneof?(set:pure-token=SET best:pure-token=BEST incr:pure-token=INCR) "
                  "unix-ms:integer=AT? "
                  "score_member:block*(score:double member:string meta:string=META?)",
     .acl_categories = kWriteFast,
     .key_specs = "RW update|index 1|range 0 1 0|"},
    {.name = "lb.load",
     .summary = "Sets members to the scores and stamps given (log replay, bulk import).",
     .since = "0.1.0", .group = "sorted-set",
     .complexity = "O(M*log N) for M members loaded into N.",
     .arguments = "key:key@0 period:string=PERIOD? order:string=ORDER ties:string=TIES "
                  "nextseq:integer=NEXTSEQ "
                  "entry:block*(score:double member:string seq:integer ms:integer)",
     .acl_categories = "@write @sortedset @slow", .key_specs = "RW update|index 1|range 0 1 0|"},
    {.name = "lb.rank", .summary = "Returns a member's rank, 1 being the best.", .since = "0.1.0",
     .group = "sorted-set", .complexity = "O(log N) for N members.",
     .arguments = "key:key@0 member:string mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE) "
                  "period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kRead, .key_specs = kKey},
    {.name = "lb.top", .summary = "Returns the best members with their ranks and scores.",
     .since = "0.1.0", .group = "sorted-set",
     .complexity = "O(log N+M) for N members and M rows returned.",
     .arguments = "key:key@0 count:integer offset:integer=OFFSET? "
                  "mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE) "
                  "period:string=PERIOD? snapshot:pure-token=SNAPSHOT? "
                  "withmeta:pure-token=WITHMETA?",
     .acl_categories = kReadSlow, .key_specs = kKey},
    {.name = "lb.range", .summary = "Returns every member whose rank lies from minrank to maxrank.",
     .since = "0.1.0", .group = "sorted-set",
     .complexity = "O(log N+M) for N members and M rows returned.",
     .arguments = "key:key@0 minrank:integer maxrank:integer "
                  "mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE) "
                  "period:string=PERIOD? snapshot:pure-token=SNAPSHOT? "
                  "withmeta:pure-token=WITHMETA?",
     .acl_categories = kReadSlow, .key_specs = kKey},
    {.name = "lb.around", .summary = "Returns a member's row with count rows above and below it.",
     .since = "0.1.0", .group = "sorted-set",
     .complexity = "O(log N+M) for N members and M rows returned.",
     .arguments = "key:key@0 member:string count:integer "
                  "mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE) "
                  "period:string=PERIOD? snapshot:pure-token=SNAPSHOT? "
                  "withmeta:pure-token=WITHMETA?",
     .acl_categories = kReadSlow, .key_specs = kKey},
    {.name = "lb.ranks", .summary = "Returns the ranks of several members.", .since = "0.1.0",
     .group = "sorted-set",
     .complexity = "O(M*log N) for M members asked for out of N.",
     .arguments = "key:key@0 members:oneof(member:string* "
                  "counted:block=MEMBERS(nummembers:integer member:string*)) "
                  "mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE) "
                  "period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kReadSlow, .key_specs = kKey},
    {.name = "lb.percentile",
     .summary = "Returns the share of members a member beats, as a percentile.",
     .since = "0.1.0", .group = "sorted-set",
     .complexity = "O(log N) for N members.",
     .arguments = "key:key@0 member:string period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kRead,
     .key_specs = kKey},
    {.name = "lb.rankfor", .summary = "Returns the rank a member reaching a score now would get.",
     .since = "0.1.0",
     .group = "sorted-set", .complexity = "O(log N) for N members.",
     .arguments = "key:key@0 score:double mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE) "
                  "period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kRead, .key_specs = kKey},
    {.name = "lb.scoreat", .summary = "Returns the score held at a rank.", .since = "0.1.0",
     .group = "sorted-set", .complexity = "O(log N) for N members.",
     .arguments = "key:key@0 rank:integer mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE) "
                  "period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kRead, .key_specs = kKey},
    {.name = "lb.info", .summary = "Describes a leaderboard: its policy and counts.",
     .since = "0.1.0",
     .group = "sorted-set", .complexity = "O(1)",
     .arguments = "key:key@0 period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kRead, .key_specs = kKey},
    {.name = "lb.stamp",
     .summary = "Returns a member's stamp: its write sequence and Unix time in milliseconds.",
     .since = "0.1.0",
     .group = "sorted-set", .complexity = "O(1)",
     .arguments = "key:key@0 member:string period:string=PERIOD? snapshot:pure-token=SNAPSHOT?",
     .acl_categories = kRead, .key_specs = kKey},
    {.name = "lb.watch",
     .summary = "Sends this connection a leaderboard's top rows each time they change.",
     .since = "0.1.0", .group = "sorted-set",
     .complexity = "O(log N+M) for the M rows sent each time.",
     .arguments = "key:key@0 n:integer=TOP mode:oneof=MODE?(ordinal:pure-token=ORDINAL "
                  "competition:pure-token=COMPETITION dense:pure-token=DENSE)",
     .legacy = {-4, 1, 1, 1}, .extra_flags = "pubsub",
     .acl_categories = "@read @sortedset @pubsub @slow",
     .key_specs = kKey},
    {.name = "lb.unwatch",
     .summary = "Stops sending this connection leaderboards' top rows: those given, or all.",
     .since = "0.1.0", .group = "sorted-set",
     .complexity = "O(N) for N leaderboards watched.",
     .arguments = "key:key@0?*", .legacy = {-1, 1, -1, 1}, .extra_flags = "pubsub",
     .acl_categories = "@sortedset @pubsub @slow",
     .key_specs = "not_key|index 1|range -1 1 0|"},
    {.name = "lb.periods",
     .summary = "Lists the kept periods of a periodic leaderboard: id, start, end, members, "
                "offset.",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(P) for P periods kept.",
     .arguments = "key:key@0", .acl_categories = kReadSlow, .key_specs = kKey},
    {.name = "lb.snapshot",
     .summary = "Freezes a stable view of a leaderboard, which reads with SNAPSHOT see.",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(1)",
     .arguments = "key:key@0", .acl_categories = kWriteFast,
     .key_specs = "RW access|index 1|range 0 1 0|"},
    {.name = "lb.roll",
     .summary = "Closes a periodic leaderboard's open period up to a given one (as logged).",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(1) amortized.",
     .arguments = "key:key@0 period-id:string", .acl_categories = kWriteFast,
     .key_specs = "RW update|index 1|range 0 1 0|"},
    {.name = "lb.setmeta",
     .summary = "Sets the metadata kept beside members of a leaderboard; empty bytes remove "
                "it.",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(M) for M members given.",
     .arguments = "key:key@0 member_meta:block*(member:string meta:string)",
     .acl_categories = kWriteFast, .key_specs = "RW update|index 1|range 0 1 0|"},
    {.name = "lb.meta",
     .summary = "Returns the metadata kept beside members of a leaderboard.",
     .since = "0.1.0", .group = "sorted-set", .complexity = "O(M) for M members given.",
     .arguments = "key:key@0 member:string*", .acl_categories = kRead, .key_specs = kKey},
};

}  // namespace

std::span<const CommandDoc> LeaderboardCommandDocs() { return kDocs; }

}  // namespace rankd
