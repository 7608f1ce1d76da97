// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Glob-style matching with Redis's rules (KEYS, SCAN MATCH, ZSCAN MATCH,
// CONFIG GET): '*', '?', '[abc]', '[^abc]', '[a-z]', and '\' escapes.

#pragma once

#include <string_view>

namespace rankd {

// Returns true if `str` matches `pattern`. Binary safe. Recursion on '*' is
// bounded, so hostile patterns cannot exhaust the stack.
bool GlobMatch(std::string_view pattern, std::string_view str, bool nocase = false);

}  // namespace rankd
