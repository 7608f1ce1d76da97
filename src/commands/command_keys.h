// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Finding the keys of a command line as Redis 7.0 does (COMMAND GETKEYS,
// GETKEYSANDFLAGS): first by the command's key specs
// (getKeysUsingKeySpecs), then, when a spec cannot be applied, by Redis's
// per-command fallback (genericGetKeys, setGetKeys).

#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "commands/command_docs.h"
#include "server/acl_selector.h"
#include "server/command.h"

namespace rankd {

struct FoundKey {
  size_t pos;                            // index into the command line
  std::vector<std::string_view> flags;   // key-spec flags ("RW", "access", ...)
};

// The keys of `args` (args[0] is the command name; a subcommand's line
// includes its container name). Returns false when Redis would find none and
// the command requires keys ("Invalid arguments specified for command").
// `arity` is the command's arity (negative arities tolerate short lines).
bool FindKeys(const ParsedDoc& doc, int arity, std::span<const std::string_view> args,
              std::vector<FoundKey>* keys);

// Whether the command has keys at all (Redis doesCommandHaveKeys).
bool HasKeys(const ParsedDoc& doc);

// The keys of a command line as ACL checks them (Redis ACLSelectorCheckCmd):
// FindKeys's keys, each needing read access for an "access" key spec and
// write access for "insert", "delete" or "update". False when `full_name`
// has no doc (the caller then falls back on the spec's key positions).
bool FindAclKeys(const CommandSpec& spec, std::string_view full_name,
                 std::span<const std::string_view> args, std::vector<AclKeyRef>* keys);

}  // namespace rankd
