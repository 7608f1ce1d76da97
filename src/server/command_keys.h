// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Which arguments of a command are keys: the spec's first/last/step, and
// for the commands whose keys follow a count (ZUNIONSTORE dest numkeys k...,
// ZMPOP numkeys k..., EVAL script numkeys k...) the count's keys too. ACL
// checks every one of them.

#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "absl/container/inlined_vector.h"

#include "server/command.h"

namespace rankd {

// Key argument indexes; up to 8 without a heap allocation (every command
// of a restricted ACL user asks).
using KeyPositionList = absl::InlinedVector<size_t, 8>;

// Indexes into `args` (args[0] is the command name) of every key argument.
// REQUIRES: args passed the arity check for `spec`.
KeyPositionList KeyPositions(const CommandSpec& spec, std::span<const std::string_view> args);

}  // namespace rankd
