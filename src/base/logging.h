// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The server log, in redis-server's line format:
//   <pid>:M 29 Nov 2026 21:53:11.123 * message
// Levels as redis.conf's `loglevel`. Writes to stdout or to `logfile`.
// Not thread-safe beyond what a single write(2) per line gives.

#pragma once

#include <string>
#include <string_view>

namespace rankd {

enum class LogLevel { kDebug = 0, kVerbose = 1, kNotice = 2, kWarning = 3 };

// Parses "debug", "verbose", "notice", "warning"; false for anything else.
bool ParseLogLevel(std::string_view name, LogLevel* out);
std::string_view LogLevelName(LogLevel level);

void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();
// Sends log lines to `path` (appended) or stdout when empty. Returns false if
// the file cannot be opened; the previous target stays.
bool SetLogFile(const std::string& path);

// The descriptor log lines go to (stdout or `logfile`), for writers that
// cannot call Log(): the crash report in a signal handler.
int LogFd();

// printf-style; a line is dropped if `level` is below the configured level.
void Log(LogLevel level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// Writes `text` as it is (no prefix, no newline added) when `level` passes:
// the start-up banner.
void LogRaw(LogLevel level, std::string_view text);

#define LOG_DEBUG(...) ::rankd::Log(::rankd::LogLevel::kDebug, __VA_ARGS__)
#define LOG_VERBOSE(...) ::rankd::Log(::rankd::LogLevel::kVerbose, __VA_ARGS__)
#define LOG_NOTICE(...) ::rankd::Log(::rankd::LogLevel::kNotice, __VA_ARGS__)
#define LOG_WARNING(...) ::rankd::Log(::rankd::LogLevel::kWarning, __VA_ARGS__)

}  // namespace rankd
