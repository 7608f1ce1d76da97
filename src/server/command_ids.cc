// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/command_ids.h"

#include <cctype>

#include "server/acl_categories.h"

namespace rankd {

void CommandIds::Add(const CommandSpec& spec, uint64_t family) {
  const int id = size();
  std::string name(spec.name);
  // A container (CONFIG, OBJECT) is only @slow and its exceptions in Redis;
  // its subcommands carry the real categories.
  entries_.push_back({name,
                      spec.subcommands.empty() ? CommandCategories(name, spec.flags, family)
                                               : kAclSlow | (name == "command" ? kAclConnection : 0),
                      {}});
  by_spec_[&spec] = id;
  by_name_[name] = id;
  for (const CommandSpec& sub : spec.subcommands) {
    std::string full = name + "|" + std::string(sub.name);
    const int sub_id = size();
    // A subcommand carries its container's family categories as well.
    entries_.push_back({full, CommandCategories(full, sub.flags, family), {}, id});
    entries_[id].subs.push_back(sub_id);
    by_spec_[&sub] = sub_id;
    by_name_[full] = sub_id;
  }
}

int CommandIds::IdOf(std::string_view name) const {
  std::string lower(name);
  for (char& ch : lower) ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
  auto it = by_name_.find(lower);
  return it == by_name_.end() ? -1 : it->second;
}

}  // namespace rankd
