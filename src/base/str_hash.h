// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Transparent hash and equality for string-keyed absl containers, so lookups
// take std::string_view without building a std::string. (Debian's abseil is
// built with its own absl::string_view, so absl's default string hasher does
// not accept std::string_view.)
//   absl::flat_hash_map<std::string, V, StrHash, StrEq> m;  m.find(sv);

#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace rankd {

struct StrHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct StrEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a == b; }
};

}  // namespace rankd
