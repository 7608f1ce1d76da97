// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
// Placeholder until scripts/gen_command_docs.py writes this file.
#include "commands/command_docs.h"

namespace rankd {
std::span<const CommandDoc> StreamCommandDocs() { return {}; }
}  // namespace rankd
