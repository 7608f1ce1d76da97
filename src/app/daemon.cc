// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "app/daemon.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace rankd {

bool Daemonize() {
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid > 0) _exit(0);  // the parent: the child carries on
  setsid();
  const int fd = open("/dev/null", O_RDWR);
  if (fd >= 0) {
    dup2(fd, STDIN_FILENO);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    if (fd > STDERR_FILENO) close(fd);
  }
  return true;
}

std::string WritePidFile(const std::string& path) {
  FILE* f = fopen(path.c_str(), "w");
  if (!f) return "can't open the pid file '" + path + "': " + strerror(errno);
  fprintf(f, "%d\n", static_cast<int>(getpid()));
  if (fclose(f) != 0) return "can't write the pid file '" + path + "': " + strerror(errno);
  return "";
}

}  // namespace rankd
