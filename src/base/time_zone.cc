// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/time_zone.h"

#include <string>

namespace rankd {

bool LoadZone(std::string_view name, absl::TimeZone* out) {
  // Only names made of the characters IANA uses, never a path of our own
  // choosing: abseil opens the file under its zoneinfo directory.
  if (name.empty() || name.size() > 64 || name.front() == '/' ||
      name.find("..") != std::string_view::npos || name == "localtime") {
    return false;
  }
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '/' || c == '_' || c == '-' || c == '+';
    if (!ok) return false;
  }
  return absl::LoadTimeZone(std::string(name), out);
}

}  // namespace rankd
