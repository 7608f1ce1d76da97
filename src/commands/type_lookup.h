// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Typed key lookups for hashes, lists and streams, with Redis's lookupKeyRead /
// lookupKeyWrite meaning (see server/keys_common.h): the value at `key`, or
// nullptr when the key is missing; *wrong_type is set (and nullptr
// returned) when the key holds another type.
//
// Pointers are valid until the key is deleted or replaced.

#pragma once

#include <string_view>

#include "core/hash.h"
#include "core/quick_list.h"
#include "core/stream.h"
#include "server/command.h"

namespace rankd {

Hash* FindHashRead(CommandContext& ctx, std::string_view key, bool* wrong_type);
Hash* FindHashWrite(CommandContext& ctx, std::string_view key, bool* wrong_type);
// FindHashWrite that creates an empty hash when the key is missing (the
// caller must leave it non-empty). Returns nullptr only on WRONGTYPE.
Hash* HashForWrite(CommandContext& ctx, std::string_view key, bool* wrong_type);

QuickList* FindListRead(CommandContext& ctx, std::string_view key, bool* wrong_type);
QuickList* FindListWrite(CommandContext& ctx, std::string_view key, bool* wrong_type);

Stream* FindStreamRead(CommandContext& ctx, std::string_view key, bool* wrong_type);
Stream* FindStreamWrite(CommandContext& ctx, std::string_view key, bool* wrong_type);

}  // namespace rankd
