// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/crash_report.h"

#include <execinfo.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "base/logging.h"

namespace rankd {
namespace {

const char* g_version = "";
constexpr int kMaxFrames = 100;

// A line assembled on the stack: no allocation, no stdio.
class Line {
 public:
  Line& Str(const char* s) {
    while (*s && n_ < sizeof(buf_) - 1) buf_[n_++] = *s++;
    return *this;
  }
  Line& Dec(int64_t v) {
    char tmp[24];
    int i = 0;
    uint64_t u = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    do {
      tmp[i++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u);
    if (v < 0) Str("-");
    while (i > 0 && n_ < sizeof(buf_) - 1) buf_[n_++] = tmp[--i];
    return *this;
  }
  Line& Hex(uintptr_t v) {
    static constexpr char kDigits[] = "0123456789abcdef";
    char tmp[2 * sizeof(v)];
    int i = 0;
    do {
      tmp[i++] = kDigits[v & 15];
      v >>= 4;
    } while (v);
    Str("0x");
    while (i > 0 && n_ < sizeof(buf_) - 1) buf_[n_++] = tmp[--i];
    return *this;
  }
  // Writes the line with the log's "<pid>:M # " prefix and a newline.
  void Log() {
    Line prefix;
    prefix.Dec(getpid()).Str(":M # ");
    buf_[n_++] = '\n';
    Write(prefix.buf_, prefix.n_);
    Write(buf_, n_);
  }
  // Writes the text as it is, with a newline.
  void Raw() {
    buf_[n_++] = '\n';
    Write(buf_, n_);
  }

 private:
  static void Write(const char* p, size_t n) {
    while (n > 0) {
      ssize_t w = write(LogFd(), p, n);
      if (w <= 0) return;
      p += w;
      n -= static_cast<size_t>(w);
    }
  }
  char buf_[512];
  size_t n_ = 0;
};

const char* SignalName(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGALRM: return "SIGALRM";
    default: return "signal";
  }
}

void StackTrace() {
  Line().Raw();
  Line().Str("------ STACK TRACE ------").Raw();
  void* frames[kMaxFrames];
  int n = backtrace(frames, kMaxFrames);
  Line().Str("Backtrace:").Raw();
  // Frame 0 is this function; the handler and the kernel's trampoline
  // follow, then the code that was running.
  backtrace_symbols_fd(frames, n, LogFd());
  Line().Raw();
}

void OnCrash(int sig, siginfo_t* info, void* /*ucontext*/) {
  Line().Raw();
  Line().Str("=== RANKD BUG REPORT START: Cut & paste starting from here ===").Raw();
  Line()
      .Str("rankd ")
      .Str(g_version)
      .Str(" crashed by signal: ")
      .Dec(sig)
      .Str(" (")
      .Str(SignalName(sig))
      .Str("), si_code: ")
      .Dec(info ? info->si_code : 0)
      .Log();
  if (info && info->si_code > 0 &&
      (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL)) {
    Line().Str("Accessing address: ").Hex(reinterpret_cast<uintptr_t>(info->si_addr)).Log();
  }
  if (info && info->si_code <= 0) {
    Line().Str("Killed by PID: ").Dec(info->si_pid).Str(", UID: ").Dec(info->si_uid).Log();
  }
  StackTrace();
  Line().Str("=== RANKD BUG REPORT END. Make sure to include from START to END. ===").Raw();
  Line().Raw();
  // The signal's own outcome: default action, raised again.
  struct sigaction sa = {};
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = SIG_DFL;
  sigaction(sig, &sa, nullptr);
  raise(sig);
}

void OnWatchdog(int /*sig*/, siginfo_t* /*info*/, void* /*ucontext*/) {
  Line().Raw();
  Line().Str("--- WATCHDOG TIMER EXPIRED (the event loop is blocked) ---").Log();
  StackTrace();
  Line().Str("--------").Log();
}

}  // namespace

void InstallCrashHandlers(const char* version) {
  g_version = version;
  // backtrace() loads libgcc on its first call, which allocates: do it now.
  void* warm[1];
  (void)backtrace(warm, 1);
  static char* alt_stack = static_cast<char*>(malloc(1 << 16));
  stack_t ss = {};
  ss.ss_sp = alt_stack;
  ss.ss_size = 1 << 16;
  if (alt_stack) sigaltstack(&ss, nullptr);
  struct sigaction sa = {};
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESETHAND | SA_ONSTACK;
  sa.sa_sigaction = OnCrash;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
  struct sigaction wd = {};
  sigemptyset(&wd.sa_mask);
  wd.sa_flags = SA_SIGINFO | SA_RESTART;
  wd.sa_sigaction = OnWatchdog;
  sigaction(SIGALRM, &wd, nullptr);
}

void ArmWatchdog(int period_ms) {
  static int armed_ms = 0;
  if (period_ms <= 0 && armed_ms == 0) return;
  itimerval it = {};
  // One shot: the next cron tick re-arms it before it fires, unless the
  // loop is stuck.
  it.it_value.tv_sec = period_ms / 1000;
  it.it_value.tv_usec = (period_ms % 1000) * 1000;
  setitimer(ITIMER_REAL, &it, nullptr);
  armed_ms = period_ms > 0 ? period_ms : 0;
}

}  // namespace rankd
