// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Key introspection: OBJECT (ENCODING, REFCOUNT, IDLETIME, FREQ, HELP) and
// MEMORY (USAGE, STATS, DOCTOR, PURGE, MALLOC-STATS, HELP). Both are Redis
// "container" commands: the handler resolves the subcommand itself and
// checks its arity, with Redis's errors ("ERR unknown subcommand 'x'. Try
// OBJECT HELP.", "ERR wrong number of arguments for 'object|encoding'
// command"). Registered in keys_family.cc's table.

#pragma once

#include "server/command.h"

namespace rankd {

// OBJECT <subcommand> [key]. A missing key replies null.
void Object(CommandContext& ctx);

// MEMORY <subcommand> [...]. MEMORY USAGE reports the bytes rankd holds for
// the key (entry, key bytes, value); SAMPLES is validated and ignored because
// the size is computed exactly. MEMORY STATS has Redis's fields, with the
// figures rankd does not track reported as 0 (see keys_object.cc).
void Memory(CommandContext& ctx);

}  // namespace rankd
