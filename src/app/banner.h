// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The start-up banner. With `always-show-logo yes`, or when the log goes to a
// terminal, rankd writes a small picture with its version, mode, port and
// PID (the " PID: <pid>" line is what Redis's test runner and process
// supervisors look for); otherwise one line, as redis-server writes:
// "Running mode=standalone, port=6379.".

#pragma once

#include "server/config.h"

namespace rankd {

// Writes the banner to the log. `port` is the bound TCP port (0 for none).
void LogBanner(const Config& config, int port);

}  // namespace rankd
