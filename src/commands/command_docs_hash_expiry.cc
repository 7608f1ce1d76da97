// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// COMMAND DOCS / INFO for hash field expiry (HEXPIRE and its family,
// hash_expire.cc), written by hand in the grammar of command_docs.h: the
// generated tables hold Redis 7.0's commands, and these came with Redis
// 7.4. Their facts (since, arity, flags, ACL categories, key specs,
// arguments) are Redis 7.4's as documented; the words are rankd's own, in
// the style of scripts/command_docs_prose.txt.

#include "commands/command_docs.h"

namespace rankd {
namespace {

constexpr std::string_view kWriteFast = "@write @hash @fast";
constexpr std::string_view kReadFast = "@read @hash @fast";
constexpr std::string_view kUpdate = "RW update|index 1|range 0 1 0|";
constexpr std::string_view kAccess = "RO access|index 1|range 0 1 0|";
constexpr std::string_view kPerField = "O(F) for F fields given.";

// Arguments strings are spelled out in full: constexpr concatenation of
// string_views is not available.
constexpr CommandDoc kDocs[] = {
    {.name = "hexpire",
     .summary = "Gives fields of a hash a deadline some seconds from now, after which they "
                "are removed.",
     .since = "7.4.0", .group = "hash", .complexity = kPerField,
     .arguments = "key:key@0 seconds:integer "
                  "condition:oneof?(nx:pure-token=NX xx:pure-token=XX "
                  "gt:pure-token=GT lt:pure-token=LT) "
                  "fields:block=FIELDS(numfields:integer field:string*)",
     .acl_categories = kWriteFast, .key_specs = kUpdate},
    {.name = "hpexpire",
     .summary = "Gives fields of a hash a deadline some milliseconds from now, after which "
                "they are removed.",
     .since = "7.4.0", .group = "hash", .complexity = kPerField,
     .arguments = "key:key@0 milliseconds:integer "
                  "condition:oneof?(nx:pure-token=NX xx:pure-token=XX "
                  "gt:pure-token=GT lt:pure-token=LT) "
                  "fields:block=FIELDS(numfields:integer field:string*)",
     .acl_categories = kWriteFast, .key_specs = kUpdate},
    {.name = "hexpireat",
     .summary = "Gives fields of a hash a deadline at a Unix time in seconds, after which "
                "they are removed.",
     .since = "7.4.0", .group = "hash", .complexity = kPerField,
     .arguments = "key:key@0 unix-time-seconds:unix-time "
                  "condition:oneof?(nx:pure-token=NX xx:pure-token=XX "
                  "gt:pure-token=GT lt:pure-token=LT) "
                  "fields:block=FIELDS(numfields:integer field:string*)",
     .acl_categories = kWriteFast, .key_specs = kUpdate},
    {.name = "hpexpireat",
     .summary = "Gives fields of a hash a deadline at a Unix time in milliseconds, after "
                "which they are removed.",
     .since = "7.4.0", .group = "hash", .complexity = kPerField,
     .arguments = "key:key@0 unix-time-milliseconds:unix-time "
                  "condition:oneof?(nx:pure-token=NX xx:pure-token=XX "
                  "gt:pure-token=GT lt:pure-token=LT) "
                  "fields:block=FIELDS(numfields:integer field:string*)",
     .acl_categories = kWriteFast, .key_specs = kUpdate},
    {.name = "httl",
     .summary = "Returns the seconds each field of a hash has left before its deadline.",
     .since = "7.4.0", .group = "hash", .complexity = kPerField,
     .arguments = "key:key@0 fields:block=FIELDS(numfields:integer field:string*)",
     .acl_categories = kReadFast, .key_specs = kAccess},
    {.name = "hpttl",
     .summary = "Returns the milliseconds each field of a hash has left before its deadline.",
     .since = "7.4.0", .group = "hash", .complexity = kPerField,
     .arguments = "key:key@0 fields:block=FIELDS(numfields:integer field:string*)",
     .acl_categories = kReadFast, .key_specs = kAccess},
    {.name = "hexpiretime",
     .summary = "Returns each hash field's deadline as a Unix time in seconds.",
     .since = "7.4.0", .group = "hash", .complexity = kPerField,
     .arguments = "key:key@0 fields:block=FIELDS(numfields:integer field:string*)",
     .acl_categories = kReadFast, .key_specs = kAccess},
    {.name = "hpexpiretime",
     .summary = "Returns each hash field's deadline as a Unix time in milliseconds.",
     .since = "7.4.0", .group = "hash", .complexity = kPerField,
     .arguments = "key:key@0 fields:block=FIELDS(numfields:integer field:string*)",
     .acl_categories = kReadFast, .key_specs = kAccess},
    {.name = "hpersist",
     .summary = "Takes the deadline away from fields of a hash, so they stay.",
     .since = "7.4.0", .group = "hash", .complexity = kPerField,
     .arguments = "key:key@0 fields:block=FIELDS(numfields:integer field:string*)",
     .acl_categories = kWriteFast, .key_specs = kUpdate},
};

}  // namespace

std::span<const CommandDoc> HashExpiryCommandDocs() { return kDocs; }

}  // namespace rankd
