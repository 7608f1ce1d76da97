// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/logging.h"

#include <fcntl.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <ctime>

namespace rankd {
namespace {

LogLevel g_level = LogLevel::kNotice;
int g_fd = STDOUT_FILENO;
constexpr char kLevelMarks[] = ".-*#";

}  // namespace

bool ParseLogLevel(std::string_view name, LogLevel* out) {
  static constexpr std::string_view kNames[] = {"debug", "verbose", "notice", "warning"};
  for (int i = 0; i < 4; i++) {
    if (name == kNames[i]) {
      *out = static_cast<LogLevel>(i);
      return true;
    }
  }
  return false;
}

std::string_view LogLevelName(LogLevel level) {
  static constexpr std::string_view kNames[] = {"debug", "verbose", "notice", "warning"};
  return kNames[static_cast<int>(level)];
}

int LogFd() { return g_fd; }

void SetLogLevel(LogLevel level) { g_level = level; }
LogLevel GetLogLevel() { return g_level; }

bool SetLogFile(const std::string& path) {
  int fd = STDOUT_FILENO;
  if (!path.empty()) {
    fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return false;
  }
  if (g_fd != STDOUT_FILENO) close(g_fd);
  g_fd = fd;
  return true;
}

void Log(LogLevel level, const char* fmt, ...) {
  if (level < g_level) return;
  char line[4096];
  timeval tv;
  gettimeofday(&tv, nullptr);
  tm t;
  localtime_r(&tv.tv_sec, &t);
  int n = snprintf(line, sizeof(line), "%d:M ", static_cast<int>(getpid()));
  n += strftime(line + n, sizeof(line) - n, "%d %b %Y %H:%M:%S", &t);
  n += snprintf(line + n, sizeof(line) - n, ".%03d %c ", static_cast<int>(tv.tv_usec / 1000),
                kLevelMarks[static_cast<int>(level)]);
  va_list ap;
  va_start(ap, fmt);
  int m = vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
  va_end(ap);
  n += m < 0 ? 0 : (m > static_cast<int>(sizeof(line)) - n - 2 ? sizeof(line) - n - 2 : m);
  line[n++] = '\n';
  ssize_t ignored = write(g_fd, line, n);
  (void)ignored;
}

void LogRaw(LogLevel level, std::string_view text) {
  if (level < g_level) return;
  ssize_t ignored = write(g_fd, text.data(), text.size());
  (void)ignored;
}

}  // namespace rankd
