// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/event_loop.h"

#include <gtest/gtest.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"

namespace rankd {
namespace {

TEST(EventLoopTest, TimersRunInDeadlineOrder) {
  EventLoop loop;
  std::vector<int> order;
  loop.AddTimer(30, [&] { order.push_back(3); });
  loop.AddTimer(10, [&] { order.push_back(1); });
  loop.AddTimer(10, [&] { order.push_back(2); });  // same deadline: order added
  const uint64_t cancelled = loop.AddTimer(20, [&] { order.push_back(99); });
  loop.CancelTimer(cancelled);
  loop.CancelTimer(cancelled);  // twice is fine
  loop.AddTimer(40, [&] { loop.Stop(); });
  const int64_t start = MonoMs();
  loop.Run();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  EXPECT_GE(MonoMs() - start, 40);
}

TEST(EventLoopTest, ZeroDelayTimerAddedByATimerRunsNextIteration) {
  EventLoop loop;
  int iterations = 0, fired = 0;
  loop.AddBeforeSleep([&] { iterations++; });
  loop.AddTimer(0, [&] {
    fired++;
    loop.AddTimer(0, [&] {
      fired++;
      EXPECT_EQ(iterations, 1);  // one hook pass between the two timers
      loop.Stop();
    });
  });
  loop.Run();
  EXPECT_EQ(fired, 2);
}

// A busy script polls the network with ProcessFileEvents: fd handlers and
// before-sleep hooks run, due timers (the cron, active expiry) do not.
TEST(EventLoopTest, ProcessFileEventsRunsFdsAndHooksButNoTimers) {
  EventLoop loop;
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  int reads = 0, hooks = 0, timers = 0;
  loop.AddFd(fds[0], EPOLLIN, [&](uint32_t) {
    char c;
    ASSERT_EQ(read(fds[0], &c, 1), 1);
    reads++;
  });
  loop.AddBeforeSleep([&] { hooks++; });
  loop.AddTimer(0, [&] { timers++; });
  ASSERT_EQ(write(fds[1], "x", 1), 1);
  usleep(2000);  // the timer is due
  loop.ProcessFileEvents(0);
  EXPECT_EQ(reads, 1);
  EXPECT_EQ(hooks, 1);
  EXPECT_EQ(timers, 0);
  loop.AddTimer(0, [&] { loop.Stop(); });
  loop.Run();  // the ordinary loop does run it
  EXPECT_EQ(timers, 1);
  loop.RemoveFd(fds[0]);
  close(fds[0]);
  close(fds[1]);
}

TEST(EventLoopTest, FdEventsHooksAndRemoveFromOwnHandler) {
  EventLoop loop;
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::string log;
  loop.AddBeforeSleep([&] { log += "A"; });
  const uint64_t hook_b = loop.AddBeforeSleep([&] { log += "B"; });
  loop.AddFd(fds[0], EPOLLIN, [&](uint32_t events) {
    EXPECT_TRUE(events & EPOLLIN);
    char c;
    ASSERT_EQ(read(fds[0], &c, 1), 1);
    log += c;
    loop.RemoveFd(fds[0]);  // from its own handler
    loop.RemoveBeforeSleep(hook_b);
    loop.AddTimer(20, [&] { loop.Stop(); });
  });
  ASSERT_EQ(write(fds[1], "xy", 2), 2);
  loop.Run();
  // One read, then the fd is gone though "y" is still readable; B removed.
  EXPECT_EQ(log.substr(0, 2), "xA");
  EXPECT_EQ(log.find('B'), std::string::npos);
  EXPECT_EQ(log.find('y'), std::string::npos);
  close(fds[0]);
  close(fds[1]);
}

TEST(EventLoopTest, ModifyFdSwitchesInterest) {
  EventLoop loop;
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  int writable = 0;
  loop.AddFd(fds[1], 0, [&](uint32_t events) {
    if (events & EPOLLOUT) writable++;
    loop.ModifyFd(fds[1], 0);
    loop.Stop();
  });
  loop.AddTimer(20, [&] {
    EXPECT_EQ(writable, 0);  // no interest: no events
    loop.ModifyFd(fds[1], EPOLLOUT);
  });
  loop.Run();
  EXPECT_EQ(writable, 1);
  loop.RemoveFd(fds[1]);
  close(fds[0]);
  close(fds[1]);
}

TEST(EventLoopTest, WakeFromAnotherThread) {
  EventLoop loop;
  std::atomic<bool> stop{false};
  int hooks = 0;
  loop.AddBeforeSleep([&] {
    hooks++;
    if (stop) loop.Stop();
  });
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stop = true;
    loop.Wake();
  });
  loop.Run();  // no timers: only Wake() can end the wait
  t.join();
  EXPECT_GE(hooks, 1);
}

TEST(EventLoopTest, SkipNextWait) {
  EventLoop loop;
  int hooks = 0;
  loop.AddBeforeSleep([&] {
    if (++hooks < 5) loop.SkipNextWait(); else loop.Stop();
  });
  loop.AddTimer(0, [] {});
  loop.Run();  // would block forever without SkipNextWait
  EXPECT_EQ(hooks, 5);
}

}  // namespace
}  // namespace rankd
