// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Which arguments of a command are keys: the spec's first/last/step, and
// for the commands whose keys follow a count (ZUNIONSTORE dest numkeys k...,
// ZMPOP numkeys k..., EVAL script numkeys k...) the count's keys too. ACL
// checks every one of them.

#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"

#include "server/acl_selector.h"
#include "server/command.h"

namespace rankd {

// Key argument indexes; up to 8 without a heap allocation (every command
// of a restricted ACL user asks).
using KeyPositionList = absl::InlinedVector<size_t, 8>;

// Indexes into `args` (args[0] is the command name) of every key argument.
// REQUIRES: args passed the arity check for `spec`.
KeyPositionList KeyPositions(const CommandSpec& spec, std::span<const std::string_view> args);

// The documented key specs' finder (Server::find_acl_keys, installed by the
// commands layer): false when it does not know the command.
using FindKeysFn = std::function<bool(const CommandSpec& spec, std::string_view full_name,
                                      std::span<const std::string_view> args,
                                      std::vector<AclKeyRef>* keys)>;

// The key positions of a resolved command line as COMMAND GETKEYS finds
// them: by `find` when it knows the command (`full_name`: "get",
// "object|encoding"), else by the spec's (KeyPositions). An empty `find`
// counts as not knowing it.
// REQUIRES: args passed the arity check for `spec`.
KeyPositionList CommandKeyPositions(const FindKeysFn& find, const CommandSpec& spec,
                                    std::string_view full_name,
                                    std::span<const std::string_view> args);

}  // namespace rankd
