// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The crash report: when rankd dies of SIGSEGV, SIGBUS, SIGFPE, SIGILL or
// SIGABRT, a handler writes what it knows to the server log (the signal, the
// faulting address, a stack trace of the crashing thread) in the shape of
// redis-server 7.0's report, so that tools and people who grep Redis logs
// for "crashed by signal" and "STACK TRACE" find rankd's too. Then it
// restores the default action and re-raises the signal, so the exit status
// and any core dump are the signal's.
//
// The watchdog (`watchdog-period`, as Redis's DEBUG aid): a SIGALRM timer
// the event loop re-arms on every cron tick; if the loop is stuck longer
// than the period, the handler writes the stack trace of where it is stuck
// and the server goes on.
//
// Everything a handler does is async-signal-safe: write(2) to the log's
// descriptor, backtrace() (loaded once at install time, so it does not
// allocate in the handler) and backtrace_symbols_fd().

#pragma once

namespace rankd {

// Installs the crash handlers (on an alternate stack, so a stack overflow is
// reported too). `version` must outlive the process (a literal).
// Call once at start-up, after the log target is set.
void InstallCrashHandlers(const char* version);

// Arms (period_ms > 0) or disarms (0) the watchdog. Called by the event loop's
// cron with the current `watchdog-period`; each call restarts the countdown.
void ArmWatchdog(int period_ms);

}  // namespace rankd
