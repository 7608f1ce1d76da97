// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/event_loop.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "base/clock.h"
#include "base/logging.h"

namespace rankd {
namespace {

constexpr int kMaxEvents = 1024;
constexpr uint32_t kWakeGen = 0;  // generation 0 marks the eventfd

uint64_t Pack(int fd, uint32_t gen) {
  return (uint64_t{gen} << 32) | static_cast<uint32_t>(fd);
}

}  // namespace

EventLoop::EventLoop() {
  epfd_ = epoll_create1(EPOLL_CLOEXEC);
  wakefd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (epfd_ < 0 || wakefd_ < 0) {
    LOG_WARNING("Failed creating the event loop: %s", strerror(errno));
    abort();
  }
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = Pack(wakefd_, kWakeGen);
  epoll_ctl(epfd_, EPOLL_CTL_ADD, wakefd_, &ev);
}

EventLoop::~EventLoop() {
  close(wakefd_);
  close(epfd_);
}

bool EventLoop::AddFd(int fd, uint32_t events, FdHandler handler) {
  if (static_cast<size_t>(fd) >= fds_.size()) fds_.resize(fd + 1);
  if (++next_gen_ == kWakeGen) ++next_gen_;
  auto entry = std::make_unique<FdEntry>(FdEntry{std::move(handler), next_gen_});
  epoll_event ev{};
  ev.events = events;
  ev.data.u64 = Pack(fd, entry->gen);
  if (epoll_ctl(epfd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
    LOG_WARNING("epoll_ctl(ADD, %d): %s", fd, strerror(errno));
    return false;
  }
  fds_[fd] = std::move(entry);
  return true;
}

void EventLoop::ModifyFd(int fd, uint32_t events) {
  if (static_cast<size_t>(fd) >= fds_.size() || !fds_[fd]) return;
  epoll_event ev{};
  ev.events = events;
  ev.data.u64 = Pack(fd, fds_[fd]->gen);
  if (epoll_ctl(epfd_, EPOLL_CTL_MOD, fd, &ev) != 0) {
    LOG_WARNING("epoll_ctl(MOD, %d): %s", fd, strerror(errno));
  }
}

void EventLoop::RemoveFd(int fd) {
  if (static_cast<size_t>(fd) >= fds_.size() || !fds_[fd]) return;
  epoll_ctl(epfd_, EPOLL_CTL_DEL, fd, nullptr);
  // The handler may be running right now: free it after the dispatch.
  removed_.push_back(std::move(fds_[fd]));
}

uint64_t EventLoop::AddTimer(int64_t delay_ms, Callback fn) {
  const uint64_t id = next_timer_id_++;
  const int64_t deadline = MonoMs() + (delay_ms > 0 ? delay_ms : 0);
  timers_.emplace(deadline, Timer{id, std::move(fn)});
  timer_deadlines_.emplace(id, deadline);
  return id;
}

void EventLoop::CancelTimer(uint64_t id) {
  auto it = timer_deadlines_.find(id);
  if (it == timer_deadlines_.end()) return;
  auto [first, last] = timers_.equal_range(it->second);
  for (auto t = first; t != last; ++t) {
    if (t->second.id == id) {
      timers_.erase(t);
      break;
    }
  }
  timer_deadlines_.erase(it);
}

uint64_t EventLoop::AddBeforeSleep(Callback fn) {
  const uint64_t id = next_timer_id_++;  // shares the id space with timers
  before_sleep_.emplace_back(id, std::move(fn));
  return id;
}

void EventLoop::RemoveBeforeSleep(uint64_t id) {
  for (auto& hook : before_sleep_) {
    if (hook.first == id) {
      hook.first = 0;  // skipped from now on; freed when no hook runs
      hooks_removed_ = true;
    }
  }
  if (!running_hooks_) PurgeHooks();
}

void EventLoop::PurgeHooks() {
  if (!hooks_removed_) return;
  std::erase_if(before_sleep_, [](const auto& hook) { return hook.first == 0; });
  hooks_removed_ = false;
}

void EventLoop::Stop() { stop_ = true; }

void EventLoop::Wake() {
  uint64_t one = 1;
  ssize_t n = write(wakefd_, &one, sizeof(one));
  (void)n;  // EAGAIN: the counter is already non-zero, the loop will wake
}

int EventLoop::WaitTimeoutMs() const {
  if (skip_wait_ || stop_) return 0;
  if (timers_.empty()) return -1;
  const int64_t delta = timers_.begin()->first - MonoMs();
  if (delta <= 0) return 0;
  return delta > 1000000 ? 1000000 : static_cast<int>(delta);
}

void EventLoop::DispatchFd(uint64_t data, uint32_t events) {
  const int fd = static_cast<int>(data & 0xffffffffu);
  const uint32_t gen = static_cast<uint32_t>(data >> 32);
  if (gen == kWakeGen) {
    uint64_t count;
    while (read(fd, &count, sizeof(count)) > 0) {
    }
    return;
  }
  if (static_cast<size_t>(fd) >= fds_.size()) return;
  FdEntry* entry = fds_[fd].get();
  // Invariant: a stale event (fd removed, maybe re-added) has another gen.
  if (entry == nullptr || entry->gen != gen) return;
  entry->fn(events);
}

void EventLoop::RunTimers() {
  const int64_t now = MonoMs();
  const uint64_t first_new_id = next_timer_id_;
  while (!timers_.empty()) {
    auto it = timers_.begin();
    // Timers added from here on sit after every older timer of the same
    // deadline, so stopping at the first one leaves no older due timer.
    if (it->first > now || it->second.id >= first_new_id) break;
    Callback fn = std::move(it->second.fn);
    timer_deadlines_.erase(it->second.id);
    timers_.erase(it);
    fn();
  }
}

void EventLoop::RunOnce(int timeout_ms, bool run_timers) {
  epoll_event events[kMaxEvents];
  skip_wait_ = false;
  int n = epoll_wait(epfd_, events, kMaxEvents, timeout_ms);
  if (n < 0) {
    if (errno != EINTR) LOG_WARNING("epoll_wait: %s", strerror(errno));
    n = 0;
  }
  TickCachedClock();
  for (int i = 0; i < n; i++) DispatchFd(events[i].data.u64, events[i].events);
  removed_.clear();
  if (run_timers) {
    RunTimers();
    removed_.clear();
  }
  running_hooks_ = true;
  for (size_t i = 0; i < before_sleep_.size(); i++) {
    if (before_sleep_[i].first != 0) before_sleep_[i].second();
  }
  running_hooks_ = false;
  PurgeHooks();
  removed_.clear();
}

void EventLoop::Run() {
  while (!stop_) RunOnce(WaitTimeoutMs(), /*run_timers=*/true);
  stop_ = false;
}

void EventLoop::ProcessFileEvents(int timeout_ms) { RunOnce(timeout_ms, /*run_timers=*/false); }

}  // namespace rankd
