// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// EventLoop: one epoll instance, one-shot timers and before-sleep hooks, run
// by one thread (a shard's). The shape of Redis's ae: file events, time
// events, and a hook that runs once per iteration before blocking, which is
// where replies are flushed (after the AOF is fsynced).
//
// Not thread-safe except Wake(), which any thread may call.

#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <unordered_map>
#include <vector>

namespace rankd {

class EventLoop {
 public:
  // Receives EPOLLIN / EPOLLOUT / EPOLLERR / EPOLLHUP bits.
  using FdHandler = std::function<void(uint32_t events)>;
  using Callback = std::function<void()>;

  EventLoop();
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Registers `fd` for `events` (EPOLLIN, EPOLLOUT; level-triggered).
  // REQUIRES: fd not registered yet.
  void AddFd(int fd, uint32_t events, FdHandler handler);
  // Changes the interest set of a registered fd.
  void ModifyFd(int fd, uint32_t events);
  // Unregisters `fd` (does not close it). Safe to call from its own handler.
  void RemoveFd(int fd);

  // Runs `fn` once, `delay_ms` from now (0: on the next iteration). Returns
  // an id for CancelTimer. Timers run in deadline order.
  uint64_t AddTimer(int64_t delay_ms, Callback fn);
  // No-op if the timer already ran or was cancelled.
  void CancelTimer(uint64_t id);

  // Adds a hook run at the end of every iteration, after fd events and
  // timers, before the loop blocks again. Hooks run in the order added.
  void AddBeforeSleep(Callback fn);

  // Runs until Stop(). Each iteration: wait for events (up to the next timer
  // deadline), dispatch fd handlers, run due timers, run before-sleep hooks.
  void Run();
  // Makes Run() return after the current iteration. Callable from handlers.
  void Stop();
  // Wakes a blocked Run() from another thread (eventfd).
  void Wake();

 private:
  struct Timer {
    uint64_t id;
    Callback fn;
  };
  int epfd_ = -1;
  int wakefd_ = -1;
  bool stop_ = false;
  uint64_t next_timer_id_ = 1;
  std::unordered_map<int, FdHandler> handlers_;
  std::multimap<int64_t, Timer> timers_;  // deadline (monotonic ms) -> timer
  std::unordered_map<uint64_t, int64_t> timer_deadlines_;
  std::vector<Callback> before_sleep_;
};

}  // namespace rankd
