// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Redis 7.0's ACL command categories (@read, @write, @sortedset, ...), as
// bits. A command's categories are computed once, when its family registers
// (Server::RegisterCommands): from its flags (kWrite -> @write, kReadOnly ->
// @read, kFast -> @fast else @slow, kAdmin -> @admin @dangerous, kBlocking
// -> @blocking), the family's category (@sortedset for the sorted-set and
// leaderboard families, @string, @set, @keyspace, @transaction, @scripting,
// @connection, ...) and the few per-command exceptions Redis makes
// (FLUSHALL and KEYS are @dangerous without being admin commands, ...).

#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace rankd {

enum AclCategory : uint64_t {
  kAclKeyspace = 1 << 0,
  kAclRead = 1 << 1,
  kAclWrite = 1 << 2,
  kAclSet = 1 << 3,
  kAclSortedSet = 1 << 4,
  kAclList = 1 << 5,
  kAclHash = 1 << 6,
  kAclString = 1 << 7,
  kAclBitmap = 1 << 8,
  kAclHyperLogLog = 1 << 9,
  kAclGeo = 1 << 10,
  kAclStream = 1 << 11,
  kAclPubSub = 1 << 12,
  kAclAdmin = 1 << 13,
  kAclFast = 1 << 14,
  kAclSlow = 1 << 15,
  kAclBlocking = 1 << 16,
  kAclDangerous = 1 << 17,
  kAclConnection = 1 << 18,
  kAclTransaction = 1 << 19,
  kAclScripting = 1 << 20,
};

// Every category in Redis's ACL CAT order, with its name.
struct AclCategoryName {
  std::string_view name;
  uint64_t bit;
};
inline constexpr AclCategoryName kAclCategories[] = {
    {"keyspace", kAclKeyspace},     {"read", kAclRead},
    {"write", kAclWrite},           {"set", kAclSet},
    {"sortedset", kAclSortedSet},   {"list", kAclList},
    {"hash", kAclHash},             {"string", kAclString},
    {"bitmap", kAclBitmap},         {"hyperloglog", kAclHyperLogLog},
    {"geo", kAclGeo},               {"stream", kAclStream},
    {"pubsub", kAclPubSub},         {"admin", kAclAdmin},
    {"fast", kAclFast},             {"slow", kAclSlow},
    {"blocking", kAclBlocking},     {"dangerous", kAclDangerous},
    {"connection", kAclConnection}, {"transaction", kAclTransaction},
    {"scripting", kAclScripting},
};

// The bit for a category name (any case), or nullopt.
std::optional<uint64_t> AclCategoryByName(std::string_view name);

// The categories of a command (`full_name` "get", "config|get") with
// `flags`, registered by a family whose category is `family`.
uint64_t CommandCategories(std::string_view full_name, uint32_t flags, uint64_t family);

}  // namespace rankd
