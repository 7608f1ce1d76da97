// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Secret arguments hidden from SLOWLOG and MONITOR, as Redis 7.0 does with
// redactClientCommandArgument: the one table of which arguments of which
// command read "(redacted)". Redis redacts while the command parses its
// arguments, so a command rejected before it reaches the secret (wrong
// argument count, an earlier bad option) shows it as sent; the rules below
// follow each command's parse order (checked against redis-server 7.0.15):
//
//   AUTH pass / AUTH user pass          both (AUTH with more arguments: none)
//   HELLO 2|3 ... AUTH user pass ...    user and pass, once parsing reaches them
//   ACL SETUSER user rule ...           the user and every rule
//   CONFIG SET name value ...           the value of requirepass, masterauth
//                                       and masteruser (even argument count only)
//   MIGRATE ... AUTH pass / AUTH2 user pass   the credentials, in option order

#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace rankd {

inline constexpr std::string_view kRedactedArg = "(redacted)";

// `args` with each secret replaced by kRedactedArg (views into `args` or the
// constant; they live as long as `args`).
std::vector<std::string_view> RedactSecrets(std::span<const std::string_view> args);

}  // namespace rankd
