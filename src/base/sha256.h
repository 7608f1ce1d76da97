// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SHA-256 (FIPS 180-4), for ACL passwords: Redis stores only the hash of
// each password, as 64 lower-case hex digits.

#pragma once

#include <string>
#include <string_view>

namespace rankd {

// The SHA-256 of `data` as 64 lower-case hex digits.
std::string Sha256Hex(std::string_view data);

}  // namespace rankd
