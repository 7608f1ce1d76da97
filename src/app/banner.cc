// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "app/banner.h"

#include <unistd.h>

#include <cstdio>

#include "base/logging.h"

namespace rankd {

void LogBanner(const Config& config, int port) {
  const bool to_tty = config.logfile.empty() && isatty(STDOUT_FILENO);
  auto it = config.compat_bools.find("cluster-enabled");
  const char* mode = it != config.compat_bools.end() && it->second ? "cluster" : "standalone";
  if (!config.always_show_logo && !to_tty) {
    LOG_NOTICE("Running mode=%s, port=%d.", mode, port);
    return;
  }
  // A podium: first place in the middle, as on a leaderboard.
  char text[1024];
  snprintf(text, sizeof(text),
           "\n"
           "            ___         rankd 0.1.0 (Redis 7.0 protocol)\n"
           "        ___| 1 |___     Running in %s mode\n"
           "       | 2 |   | 3 |    Port: %d\n"
           "       |___|___|___|    PID: %d\n"
           "\n",
           mode, port, static_cast<int>(getpid()));
  LogRaw(LogLevel::kNotice, text);
}

}  // namespace rankd
