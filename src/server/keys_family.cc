// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
// Placeholder until the family lands.
#include "server/families.h"
namespace rankd {
std::span<const CommandSpec> KeyCommands() { return {}; }
}  // namespace rankd
