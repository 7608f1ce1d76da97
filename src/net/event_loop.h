// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// EventLoop: one epoll instance, one-shot timers and before-sleep hooks, run
// by one thread (a shard's). The shape of Redis's ae: file events, time
// events, and a hook that runs once per iteration before blocking, which is
// where replies are flushed (after the AOF is fsynced).
//
// Handlers may add or remove fds, timers and hooks, including their own:
// an fd handler removed while it runs is destroyed only after it returns,
// and an event already fetched for a removed fd is dropped (even if the fd
// number is reused in the same iteration).
//
// Not thread-safe except Wake(), which any thread (or signal handler) may
// call.

#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rankd {

class EventLoop {
 public:
  // Receives EPOLLIN / EPOLLOUT / EPOLLERR / EPOLLHUP bits.
  using FdHandler = std::function<void(uint32_t events)>;
  using Callback = std::function<void()>;

  // Aborts if epoll or eventfd cannot be created (out of fds at startup).
  EventLoop();
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Registers `fd` for `events` (EPOLLIN, EPOLLOUT; level-triggered).
  // Returns false (and logs) if epoll refuses it.
  // REQUIRES: fd >= 0 and not registered yet.
  bool AddFd(int fd, uint32_t events, FdHandler handler);
  // Changes the interest set of a registered fd (0: only errors/hangups).
  void ModifyFd(int fd, uint32_t events);
  // Unregisters `fd` (does not close it). Safe to call from its own handler.
  // No-op if `fd` is not registered.
  void RemoveFd(int fd);

  // Runs `fn` once, `delay_ms` from now (<= 0: on the next iteration).
  // Returns an id (never 0) for CancelTimer. Timers run in deadline order,
  // equal deadlines in the order added. A timer added while timers run does
  // not run before the next iteration.
  uint64_t AddTimer(int64_t delay_ms, Callback fn);
  // No-op if the timer already ran or was cancelled.
  void CancelTimer(uint64_t id);

  // Adds a hook run at the end of every iteration, after fd events and
  // timers, before the loop blocks again. Hooks run in the order added.
  // Returns an id for RemoveBeforeSleep.
  uint64_t AddBeforeSleep(Callback fn);
  // Removes a hook (safe from inside any hook). No-op for an unknown id.
  void RemoveBeforeSleep(uint64_t id);

  // Runs until Stop(). Each iteration: wait for events (up to the next timer
  // deadline), dispatch fd handlers, run due timers, run before-sleep hooks.
  // One pass without timers: wait up to `timeout_ms` (0: poll) for fd
  // events, dispatch them, run the before-sleep hooks. For work that must
  // keep serving the network while it holds the thread (a busy script
  // answering -BUSY), as Redis's processEventsWhileBlocked: no timers run,
  // so no cron (active expiry) interleaves.
  void ProcessFileEvents(int timeout_ms);
  void Run();
  // Makes Run() return after the current iteration. Callable from handlers.
  void Stop();
  // Wakes a blocked Run() from another thread (eventfd). Async-signal-safe:
  // a signal handler may call it after setting a flag a hook checks.
  void Wake();
  // From the loop thread: the next wait does not block, so work left by a
  // handler or hook is picked up at once by the next iteration.
  void SkipNextWait() { skip_wait_ = true; }

 private:
  struct FdEntry {
    FdHandler fn;
    uint32_t gen;  // tells a reused fd number from the old registration
  };
  struct Timer {
    uint64_t id;
    Callback fn;
  };
  void DispatchFd(uint64_t data, uint32_t events);
  void RunTimers();
  void RunOnce(int timeout_ms, bool run_timers);
  int WaitTimeoutMs() const;
  void PurgeHooks();

  int epfd_ = -1;
  int wakefd_ = -1;
  bool stop_ = false;
  bool skip_wait_ = false;
  bool running_hooks_ = false;
  bool hooks_removed_ = false;
  uint32_t next_gen_ = 1;
  uint64_t next_timer_id_ = 1;
  std::vector<std::unique_ptr<FdEntry>> fds_;       // indexed by fd
  std::vector<std::unique_ptr<FdEntry>> removed_;   // freed after dispatch
  std::multimap<int64_t, Timer> timers_;  // deadline (monotonic ms) -> timer
  std::unordered_map<uint64_t, int64_t> timer_deadlines_;
  // (id, hook); a deque, so adding keeps a running hook valid. Removed
  // hooks get id 0 and are erased when no hook is running.
  std::deque<std::pair<uint64_t, Callback>> before_sleep_;
};

}  // namespace rankd
