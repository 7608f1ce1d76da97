// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The Redis 7.0 commands no rankd family implements (streams,
// cluster, modules, ...), with the ACL categories redis-server 7.0.15's
// COMMAND INFO gives them: CommandIds::AddRedisOnlyCommands numbers them so
// ACL rules written for Redis ("+readonly", "-@stream", "+cluster|info")
// are accepted, kept, and read back as Redis reads them back.

#include "server/command_ids.h"

#include "server/acl_categories.h"

namespace rankd {
namespace {

struct RedisOnly {
  std::string_view name;  // "container|sub" after its container
  uint64_t categories;
};
constexpr RedisOnly kRedisOnly[] = {
    {"asking", kAclFast | kAclConnection},
    {"cluster", kAclSlow},
    {"cluster|addslots", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|addslotsrange", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|bumpepoch", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|count-failure-reports", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|countkeysinslot", kAclSlow},
    {"cluster|delslots", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|delslotsrange", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|failover", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|flushslots", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|forget", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|getkeysinslot", kAclSlow},
    {"cluster|help", kAclSlow},
    {"cluster|info", kAclSlow},
    {"cluster|keyslot", kAclSlow},
    {"cluster|links", kAclSlow},
    {"cluster|meet", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|myid", kAclSlow},
    {"cluster|nodes", kAclSlow},
    {"cluster|replicas", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|replicate", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|reset", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|saveconfig", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|set-config-epoch", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|setslot", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|shards", kAclSlow},
    {"cluster|slaves", kAclAdmin | kAclSlow | kAclDangerous},
    {"cluster|slots", kAclSlow},
    {"lolwut", kAclRead | kAclFast},
    {"module", kAclSlow},
    {"module|help", kAclSlow},
    {"module|list", kAclAdmin | kAclSlow | kAclDangerous},
    {"module|load", kAclAdmin | kAclSlow | kAclDangerous},
    {"module|loadex", kAclAdmin | kAclSlow | kAclDangerous},
    {"module|unload", kAclAdmin | kAclSlow | kAclDangerous},
    {"readonly", kAclFast | kAclConnection},
    {"readwrite", kAclFast | kAclConnection},
    {"restore-asking", kAclKeyspace | kAclWrite | kAclSlow | kAclDangerous},
};

}  // namespace

void CommandIds::AddRedisOnlyCommands() {
  for (const RedisOnly& c : kRedisOnly) {
    if (by_name_.contains(std::string(c.name))) continue;  // a family has it now
    const size_t bar = c.name.find('|');
    int parent = -1;
    if (bar != std::string_view::npos) {
      parent = IdOf(c.name.substr(0, bar));
      if (parent < 0) continue;
    }
    const int id = size();
    entries_.push_back({std::string(c.name), c.categories, {}, parent});
    if (parent >= 0) entries_[parent].subs.push_back(id);
    by_name_[std::string(c.name)] = id;
  }
}

}  // namespace rankd
