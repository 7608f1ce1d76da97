// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// `daemonize` and `pidfile`, as redis-server: the process detaches after
// reading its configuration (the parent exits 0), and the pid file names
// the serving process from start-up until a clean exit.

#pragma once

#include <string>

namespace rankd {

// Forks; the parent exits 0 at once, the child becomes a session leader
// with stdin, stdout and stderr on /dev/null (so with `logfile ""` the log
// goes nowhere, as in Redis). Returns false (errno set) if fork fails.
bool Daemonize();

// Writes getpid() and a newline to `path`. Returns "" or the error text.
std::string WritePidFile(const std::string& path);

}  // namespace rankd
