// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// CommandIds: every registered command and subcommand numbered, with its
// full name ("config|get") and ACL categories: the table ACL rules are
// applied to (server/acl_user.h). Filled by Server::RegisterCommands.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "server/acl_user.h"
#include "server/command.h"

namespace rankd {

class CommandIds : public AclCommandTable {
 public:
  // Numbers `spec` and its subcommands; `family` is the family's category.
  void Add(const CommandSpec& spec, uint64_t family);
  // Numbers each Redis 7.0 command and subcommand no family registered
  // (XADD, PFADD, CLUSTER|INFO, READONLY, ...) with Redis's categories, so
  // ACL rules naming them are accepted and kept and category rules read
  // back as in Redis. Such ids have no spec: nothing dispatches to them,
  // and a command registered later gets a new id (call this last).
  void AddRedisOnlyCommands();
  // The id of a registered spec (a command or a subcommand).
  int IdOf(const CommandSpec* spec) const { return by_spec_.at(spec); }
  // Its ACL categories.
  uint64_t CategoriesOf(const CommandSpec* spec) const { return entries_[IdOf(spec)].categories; }
  // Replaces the categories of command `id` (Redis's documented ones).
  void SetCategories(int id, uint64_t categories) { entries_[id].categories = categories; }

  // AclCommandTable.
  int size() const override { return static_cast<int>(entries_.size()); }
  int IdOf(std::string_view name) const override;
  std::vector<int> SubcommandIds(int id) const override { return entries_[id].subs; }
  std::string_view NameOf(int id) const override { return entries_[id].name; }
  uint64_t CategoriesOf(int id) const override { return entries_[id].categories; }
  bool IsContainer(int id) const override { return !entries_[id].subs.empty(); }
  bool IsSubcommand(int id) const override { return entries_[id].parent >= 0; }

 private:
  struct Entry {
    std::string name;
    uint64_t categories;
    std::vector<int> subs;
    int parent = -1;  // a subcommand's container
  };
  std::vector<Entry> entries_;
  absl::flat_hash_map<const CommandSpec*, int> by_spec_;
  absl::flat_hash_map<std::string, int> by_name_;
};

}  // namespace rankd
