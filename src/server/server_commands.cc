// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The server's command registry: registration, rename-command, lookup by
// name (with a one-entry cache for pipelines of one command) and resolution
// of a request's (sub)command with its arity check.

#include <cctype>
#include <cstring>

#include "server/errors.h"
#include "server/server.h"

namespace rankd {
namespace {

std::string UnknownCommandError(std::span<const std::string_view> args) {
  std::string list;
  for (size_t i = 1; i < args.size() && list.size() < 128; i++) {
    size_t room = 128 - list.size();
    list += "'";
    list.append(args[i].substr(0, room));
    list += "' ";
  }
  return "ERR unknown command '" + std::string(args[0].substr(0, 128)) +
         "', with args beginning with: " + list;
}

}  // namespace

void Server::RegisterCommands(std::span<const CommandSpec> table, uint64_t family_categories) {
  ClearLookupCache();
  for (const CommandSpec& spec : table) {
    command_ids_.Add(spec, family_categories);
    commands_[spec.name] = &spec;
    for (const CommandSpec& sub : spec.subcommands) {
      subcommand_names_[&sub] = std::string(spec.name) + "|" + std::string(sub.name);
    }
    command_list_.push_back(&spec);
  }
}

std::string Server::RenameCommand(std::string_view from, std::string_view to) {
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& ch : out) ch = static_cast<char>(tolower(static_cast<unsigned char>(ch)));
    return out;
  };
  ClearLookupCache();  // names change
  auto it = commands_.find(lower(from));
  if (it == commands_.end()) return "No such command in rename-command";
  const CommandSpec* spec = it->second;
  if (to.empty()) {
    commands_.erase(it);
    std::erase(command_list_, spec);
    return "";
  }
  if (commands_.contains(lower(to))) return "Target command name already exists";
  commands_.erase(it);
  commands_[lower(to)] = spec;
  return "";
}

const CommandSpec* Server::FindCommand(std::string_view name) const {
  // A pipeline repeats its command names: a hit, compared byte for byte as
  // typed, skips lower-casing and hashing.
  if (name.empty() || name.size() > sizeof(LookupSlot::name)) return FindCommandSlow(name);
  LookupSlot& slot = lookup_cache_[(name.size() * 7 + static_cast<uint8_t>(name[0]) +
                                    static_cast<uint8_t>(name.back())) % kLookupSlots];
  if (slot.spec && slot.len == name.size() &&
      std::memcmp(name.data(), slot.name, name.size()) == 0) {
    return slot.spec;
  }
  const CommandSpec* spec = FindCommandSlow(name);
  if (spec) {
    std::memcpy(slot.name, name.data(), name.size());
    slot.len = static_cast<uint8_t>(name.size());
    slot.spec = spec;
  }
  return spec;
}

const CommandSpec* Server::FindCommandSlow(std::string_view name) const {
  char buf[64];
  if (name.size() >= sizeof(buf)) return nullptr;
  for (size_t i = 0; i < name.size(); i++) {
    const char ch = name[i];
    buf[i] = (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch + ('a' - 'A')) : ch;
  }
  auto it = commands_.find(std::string_view(buf, name.size()));
  return it == commands_.end() ? nullptr : it->second;
}

const CommandSpec* Server::Resolve(std::span<const std::string_view> args,
                                   std::string_view* full_name, std::string* error,
                                   const CommandSpec** found) const {
  const CommandSpec* spec = FindCommand(args[0]);
  if (!spec) {
    *error = UnknownCommandError(args);
    return nullptr;
  }
  *full_name = spec->name;
  if (!spec->subcommands.empty() && args.size() >= 2) {
    const CommandSpec* sub = nullptr;
    for (const CommandSpec& s : spec->subcommands) {
      if (EqualsIgnoreCase(s.name, args[1])) sub = &s;
    }
    if (!sub) {
      *error = UnknownSubcommandError(args[1], args[0]);  // as typed (rename-command)
      return nullptr;
    }
    *full_name = subcommand_names_.at(sub);
    spec = sub;
  }
  if (found) *found = spec;
  if (!ArityAccepts(spec->arity, args.size())) {
    *error = WrongArityError(*full_name);
    return nullptr;
  }
  return spec;
}

}  // namespace rankd
