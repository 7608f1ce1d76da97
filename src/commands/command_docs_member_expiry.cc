// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// COMMAND DOCS / INFO for rankd's own sorted-set commands beyond LB.*:
// member expiry (ZEXPIRE and its family, zset_expire_family.cc) and due-item
// pops (ZPOPDUE, BZPOPDUE, zset_due_family.cc), written by hand in the
// grammar of command_docs.h. Their facts mirror the Redis command of the
// same kind: the Z*EXPIRE family Redis 7.4's H*EXPIRE family (MEMBERS for
// FIELDS), ZPOPDUE ZPOPMIN and BZPOPDUE BZPOPMIN. The words are rankd's
// own, in the style of scripts/command_docs_prose.txt.

#include "commands/command_docs.h"

namespace rankd {
namespace {

constexpr std::string_view kWriteFast = "@write @sortedset @fast";
constexpr std::string_view kReadFast = "@read @sortedset @fast";
constexpr std::string_view kUpdate = "RW update|index 1|range 0 1 0|";
constexpr std::string_view kAccess = "RO access|index 1|range 0 1 0|";
constexpr std::string_view kPerMember = "O(M*log N) for M members given out of N.";
constexpr std::string_view kPerMemberRead = "O(M) for M members given.";

// Arguments strings are spelled out in full: constexpr concatenation of
// string_views is not available.
constexpr CommandDoc kDocs[] = {
    {.name = "zexpire",
     .summary = "Gives members of a sorted set a deadline some seconds from now, after which "
                "they are removed.",
     .since = "0.1.0", .group = "sorted-set", .complexity = kPerMember,
     .arguments = "key:key@0 seconds:integer "
                  "condition:oneof?(nx:pure-token=NX xx:pure-token=XX "
                  "gt:pure-token=GT lt:pure-token=LT) "
                  "members:block=MEMBERS(nummembers:integer member:string*)",
     .acl_categories = kWriteFast, .key_specs = kUpdate},
    {.name = "zpexpire",
     .summary = "Gives members of a sorted set a deadline some milliseconds from now, after "
                "which they are removed.",
     .since = "0.1.0", .group = "sorted-set", .complexity = kPerMember,
     .arguments = "key:key@0 milliseconds:integer "
                  "condition:oneof?(nx:pure-token=NX xx:pure-token=XX "
                  "gt:pure-token=GT lt:pure-token=LT) "
                  "members:block=MEMBERS(nummembers:integer member:string*)",
     .acl_categories = kWriteFast, .key_specs = kUpdate},
    {.name = "zexpireat",
     .summary = "Gives members of a sorted set a deadline at a Unix time in seconds, after "
                "which they are removed.",
     .since = "0.1.0", .group = "sorted-set", .complexity = kPerMember,
     .arguments = "key:key@0 unix-time-seconds:unix-time "
                  "condition:oneof?(nx:pure-token=NX xx:pure-token=XX "
                  "gt:pure-token=GT lt:pure-token=LT) "
                  "members:block=MEMBERS(nummembers:integer member:string*)",
     .acl_categories = kWriteFast, .key_specs = kUpdate},
    {.name = "zpexpireat",
     .summary = "Gives members of a sorted set a deadline at a Unix time in milliseconds, "
                "after which they are removed.",
     .since = "0.1.0", .group = "sorted-set", .complexity = kPerMember,
     .arguments = "key:key@0 unix-time-milliseconds:unix-time "
                  "condition:oneof?(nx:pure-token=NX xx:pure-token=XX "
                  "gt:pure-token=GT lt:pure-token=LT) "
                  "members:block=MEMBERS(nummembers:integer member:string*)",
     .acl_categories = kWriteFast, .key_specs = kUpdate},
    {.name = "zttl",
     .summary = "Returns the seconds each member of a sorted set has left before its "
                "deadline.",
     .since = "0.1.0", .group = "sorted-set", .complexity = kPerMemberRead,
     .arguments = "key:key@0 members:block=MEMBERS(nummembers:integer member:string*)",
     .acl_categories = kReadFast, .key_specs = kAccess},
    {.name = "zpttl",
     .summary = "Returns the milliseconds each member of a sorted set has left before its "
                "deadline.",
     .since = "0.1.0", .group = "sorted-set", .complexity = kPerMemberRead,
     .arguments = "key:key@0 members:block=MEMBERS(nummembers:integer member:string*)",
     .acl_categories = kReadFast, .key_specs = kAccess},
    {.name = "zexpiretime",
     .summary = "Returns each sorted-set member's deadline as a Unix time in seconds.",
     .since = "0.1.0", .group = "sorted-set", .complexity = kPerMemberRead,
     .arguments = "key:key@0 members:block=MEMBERS(nummembers:integer member:string*)",
     .acl_categories = kReadFast, .key_specs = kAccess},
    {.name = "zpexpiretime",
     .summary = "Returns each sorted-set member's deadline as a Unix time in milliseconds.",
     .since = "0.1.0", .group = "sorted-set", .complexity = kPerMemberRead,
     .arguments = "key:key@0 members:block=MEMBERS(nummembers:integer member:string*)",
     .acl_categories = kReadFast, .key_specs = kAccess},
    {.name = "zpersist",
     .summary = "Takes the deadline away from members of a sorted set, so they stay.",
     .since = "0.1.0", .group = "sorted-set", .complexity = kPerMember,
     .arguments = "key:key@0 members:block=MEMBERS(nummembers:integer member:string*)",
     .acl_categories = kWriteFast, .key_specs = kUpdate},
    {.name = "zpopdue",
     .summary = "Removes and returns the members whose score, a Unix time in milliseconds "
                "or seconds, has come: one or COUNT of them, lowest first.",
     .since = "0.1.0", .group = "sorted-set",
     .complexity = "O(M*log N), N being the size of the sorted set and M the members popped.",
     .arguments = "key:key@0 count:integer=COUNT? now:integer=NOW? "
                  "unit:oneof=UNIT?(ms:pure-token=MS s:pure-token=S)",
     .acl_categories = kWriteFast, .key_specs = "RW access delete|index 1|range 0 1 0|"},
    {.name = "bzpopdue",
     .summary = "Pops a member that is due from the first sorted set given holding one, "
                "waiting until one is due when none is.",
     .since = "0.1.0", .group = "sorted-set",
     .complexity = "O(K+log N) for K keys given, N being the size of the sorted set served.",
     .arguments = "key:key@0* timeout:double unit:oneof=UNIT?(ms:pure-token=MS s:pure-token=S)",
     .acl_categories = "@write @sortedset @fast @blocking",
     // The range covers the keys of a line without UNIT; with it the
     // command's own rule (command_keys.cc) finds them.
     .key_specs = "RW access delete incomplete|index 1|range -2 1 0|",
     .getkeys = "bzpopdue"},
};

}  // namespace

std::span<const CommandDoc> MemberExpiryCommandDocs() { return kDocs; }

}  // namespace rankd
