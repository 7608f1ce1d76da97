// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SHA-1 as scripts name themselves: EVALSHA takes the 40 lower-case hex
// digits of SHA1(body), and redis.sha1hex() returns the same for any string.
// Not for security; only for naming.

#pragma once

#include <string>
#include <string_view>

namespace rankd {

// The 40-character lower-case hex SHA-1 digest of `data`. O(n).
std::string Sha1Hex(std::string_view data);

}  // namespace rankd
