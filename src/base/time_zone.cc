// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/time_zone.h"

#include <string>

namespace rankd {
namespace {

// UTC+8, UTC-05:30, GMT+5:45: hours 0..14, minutes 0..59.
bool ParseFixedOffset(std::string_view name, int* seconds) {
  if (name.size() < 5 || (name.substr(0, 3) != "UTC" && name.substr(0, 3) != "GMT")) return false;
  const char sign = name[3];
  if (sign != '+' && sign != '-') return false;
  std::string_view rest = name.substr(4);
  std::string_view hh = rest.substr(0, rest.find(':'));
  std::string_view mm = hh.size() < rest.size() ? rest.substr(hh.size() + 1) : "";
  if (hh.empty() || hh.size() > 2 || (hh.size() < rest.size() && mm.size() != 2)) return false;
  int h = 0, m = 0;  // digits only ("05" too, which ParseInt64 refuses)
  for (char c : hh) {
    if (c < '0' || c > '9') return false;
    h = h * 10 + (c - '0');
  }
  for (char c : mm) {
    if (c < '0' || c > '9') return false;
    m = m * 10 + (c - '0');
  }
  if (h > 14 || m > 59) return false;
  *seconds = (sign == '-' ? -1 : 1) * (h * 3600 + m * 60);
  return true;
}

bool LooksLikeAbbreviation(std::string_view name) {
  if (name.size() < 2 || name.size() > 5) return false;
  for (char c : name) if (c < 'A' || c > 'Z') return false;
  return true;
}

struct Abbreviation {
  std::string_view name, meanings, suggestions;
};
constexpr Abbreviation kAbbreviations[] = {
    {"CST", "US Central, China and Cuba time", "America/Chicago, Asia/Shanghai, UTC+8"},
    {"IST", "India, Israel and Irish time", "Asia/Kolkata, Asia/Jerusalem, UTC+05:30"},
    {"BST", "British Summer and Bangladesh time", "Europe/London, Asia/Dhaka"},
    {"PST", "US Pacific and Philippine time", "America/Los_Angeles, Asia/Manila, UTC+8"},
    {"AST", "Atlantic and Arabia time", "America/Halifax, Asia/Riyadh, UTC+3"},
    {"ECT", "Ecuador and Eastern Caribbean time", "America/Guayaquil, America/Port_of_Spain"},
};

}  // namespace

bool LoadZone(std::string_view name, absl::TimeZone* out) {
  if (int seconds; ParseFixedOffset(name, &seconds)) {
    *out = absl::FixedTimeZone(seconds);
    return true;
  }
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

std::string ZoneError(std::string_view name) {
  const std::string quoted = "'" + std::string(name) + "'";
  if (!LooksLikeAbbreviation(name)) return "unknown time zone " + quoted;
  for (const Abbreviation& a : kAbbreviations) {
    if (a.name == name) {
      return "time zone " + quoted + " is an ambiguous abbreviation (" + std::string(a.meanings) +
             ") that does not say when daylight saving applies: use an IANA name or a fixed "
             "offset, e.g. " + std::string(a.suggestions);
    }
  }
  return "unknown time zone " + quoted + ": abbreviations are ambiguous and do not say when "
         "daylight saving applies: use an IANA name (Europe/Paris) or a fixed offset (UTC+8)";
}

}  // namespace rankd
