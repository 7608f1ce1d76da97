// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Loading a time zone by its IANA name (periodic leaderboards, issue 17)
// from the system's zone database (/usr/share/zoneinfo, Debian's tzdata),
// through abseil's time library. abseil caches loaded zones for the life of
// the process, so loading the same name again is cheap and every board in
// that zone shares one copy. Unlike libc's TZ handling nothing here is
// process-global state that another board could change.

#pragma once

#include <string>
#include <string_view>

#include "absl/time/time.h"

namespace rankd {

// Loads the zone named `name` ("UTC", "Europe/London", "America/New_York",
// "Etc/GMT-8") into *out. Fixed offsets east of UTC are written as ISO 8601
// does (issue 33): "UTC+8", "UTC-05:30", "GMT+5:45" (hours 0..14), unlike
// the POSIX-signed Etc/GMT-8 that means the same UTC+8. False for a name
// that is not a zone in the database, and for names that are not plain zone
// paths (absolute, "..", "localtime", empty).
[[nodiscard]] bool LoadZone(std::string_view name, absl::TimeZone* out);

// Why `name` was refused by LoadZone, for an error reply (without "ERR "):
// an ambiguous abbreviation (CST, IST, ...) says what it could mean and
// what to write instead.
std::string ZoneError(std::string_view name);

}  // namespace rankd
