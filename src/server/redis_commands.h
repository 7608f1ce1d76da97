// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The names of Redis 7.0's commands, for the few replies that depend on
// whether Redis knows a command rankd does not have: an unauthenticated
// client gets NOAUTH for MONITOR or SUBSCRIBE (as from Redis), and
// "unknown command" only for names Redis does not know either.

#pragma once

#include <string_view>

namespace rankd {

// True when `lower_name` (lower case) is a command of Redis 7.0, or one of
// its subcommands written "container|sub" ("client|pause").
bool IsRedis70Command(std::string_view lower_name);

}  // namespace rankd
