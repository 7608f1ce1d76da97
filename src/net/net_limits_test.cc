// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// NetServer limits over loopback: maxclients, output buffer (pause and hard
// limit), query buffer, idle timeout.

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <string>
#include <thread>

#include "net/loopback_test_util.h"

namespace rankd::testing {
namespace {

TEST(NetLimitsTest, MaxClients) {
  NetLimits limits;
  limits.max_clients = 2;
  ServerThread server(limits);
  Client a(server.port()), b(server.port());
  ASSERT_TRUE(a.Send("PING\r\n"));
  ASSERT_TRUE(b.Send("PING\r\n"));
  EXPECT_EQ(a.Read(7), "+PONG\r\n");
  EXPECT_EQ(b.Read(7), "+PONG\r\n");
  Client c(server.port());
  EXPECT_EQ(c.Read(100), "-ERR max number of clients reached\r\n");
  a.Close();
  EXPECT_TRUE(WaitFor([&] { return server.handler().closed == 1; }));
  Client d(server.port());
  ASSERT_TRUE(d.Send("PING\r\n"));
  EXPECT_EQ(d.Read(7), "+PONG\r\n");
}

// A client that sends but never reads: the server stops running its
// commands (and reading) once output_buffer_pause is exceeded, then
// catches up when the client reads.
TEST(NetLimitsTest, OutputPauseBoundsMemoryForNonReaders) {
  NetLimits limits;
  limits.output_buffer_pause = 1 << 20;
  ServerThread server(limits);
  Client c(server.port());
  const int kCommands = 400;  // 400 x 100 KB = 40 MB of replies
  std::string request;
  for (int i = 0; i < kCommands; i++) request += "BIG 100000\r\n";
  std::thread writer([&] { EXPECT_TRUE(c.Send(request)); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // Bounded by the pause threshold plus one reply.
  EXPECT_LE(server.handler().max_output.load(), (1u << 20) + 100100u);
  const size_t reply = 9 + 100000 + 2;  // "$100000\r\n" + body + "\r\n"
  std::string got = c.Read(kCommands * reply);
  writer.join();
  EXPECT_EQ(got.size(), kCommands * reply);
  EXPECT_EQ(got.substr(0, 10), "$100000\r\nx");
}

TEST(NetLimitsTest, OutputHardLimitCloses) {
  NetLimits limits;
  limits.output_buffer_hard_limit = 1 << 20;
  limits.output_buffer_pause = 0;
  ServerThread server(limits);
  Client c(server.port());
  ASSERT_TRUE(c.Send("BIG 2000000\r\n"));
  std::string got = c.Read(3000000);
  EXPECT_LT(got.size(), 2000000u);
  EXPECT_TRUE(WaitFor([&] { return server.handler().closed == 1; }));
}

// The replica class has its own limits; bytes held for a connection
// elsewhere count, exempted bytes (a replica's snapshot) do not.
TEST(NetLimitsTest, ReplicaClassHeldAndExemptOutput) {
  NetLimits limits;
  limits.output_buffer_hard_limit = 0;  // normal: unlimited
  limits.output_buffer_pause = 0;
  limits.replica_output = {1 << 20, 0, 0};
  ServerThread server(limits);
  const size_t big = 10 + 2000000 + 2;  // "$2000000\r\n" + body + "\r\n"
  Client normal(server.port());
  ASSERT_TRUE(normal.Send("BIG 2000000\r\nHOLD 2000000\r\nPING\r\n"));
  EXPECT_EQ(normal.Read(big + 5 + 7).size(), big + 5 + 7);
  Client exempt(server.port());
  ASSERT_TRUE(exempt.Send("REPLICA\r\nEXEMPTBIG 2000000\r\nPING\r\n"));
  EXPECT_EQ(exempt.Read(5 + big + 7).size(), 5 + big + 7);
  EXPECT_EQ(server.handler().closed.load(), 0);
  ASSERT_TRUE(exempt.Send("BIG 2000000\r\n"));  // counted: past the replica limit
  EXPECT_TRUE(exempt.ReadsEof());
  // Exempt bytes never trip the limit, also when what is held is close to it.
  Client held(server.port());
  ASSERT_TRUE(held.Send("REPLICA\r\nHOLD 1000000\r\nEXEMPTBIG 2000000\r\nPING\r\n"));
  EXPECT_EQ(held.Read(5 + 5 + big + 7).size(), 5 + 5 + big + 7);
  EXPECT_EQ(server.handler().closed.load(), 1);
  ASSERT_TRUE(held.Send("HOLD 2000000\r\n"));
  EXPECT_TRUE(held.ReadsEof());
  EXPECT_TRUE(WaitFor([&] { return server.handler().closed == 2; }));
}

TEST(NetLimitsTest, QueryBufferLimitCloses) {
  NetLimits limits;
  limits.query_buffer_limit = 100000;
  ServerThread server(limits);
  Client c(server.port());
  ASSERT_TRUE(c.Send("BLOCK\r\n"));  // paused: input piles up
  std::string pings;
  for (int i = 0; i < 30000; i++) pings += "PING\r\n";  // 180 KB
  c.Send(pings);  // may fail once the server closes
  EXPECT_TRUE(WaitFor([&] { return server.handler().closed == 1; }));
  // A big bulk in progress counts too.
  Client d(server.port());
  d.Send("*2\r\n$4\r\nECHO\r\n$200000\r\n" + std::string(150000, 'x'));
  EXPECT_TRUE(WaitFor([&] { return server.handler().closed == 2; }));
}

TEST(NetLimitsTest, IdleTimeoutSparesBlockedClients) {
  NetLimits limits;
  limits.idle_timeout_s = 1;
  ServerThread server(limits);
  Client idle(server.port()), blocked(server.port()), active(server.port());
  ASSERT_TRUE(blocked.Send("BLOCK\r\n"));
  for (int i = 0; i < 6; i++) {  // 3 s, active all along
    ASSERT_TRUE(active.Send("PING\r\n"));
    EXPECT_EQ(active.Read(7), "+PONG\r\n");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  EXPECT_TRUE(idle.ReadsEof());
  EXPECT_FALSE(blocked.Readable(0));
  EXPECT_EQ(server.handler().closed.load(), 1);
}

// Out of fds, accept fails; the server backs off instead of spinning and
// accepts the waiting connection once fds are free again.
TEST(NetLimitsTest, AcceptRecoversFromFdExhaustion) {
  ServerThread server;
  rlimit old;
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &old), 0);
  rlimit low = old;
  low.rlim_cur = static_cast<rlim_t>(dup(0)) + 16;  // a little above what is open
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
  std::vector<int> filler;
  for (int fd; (fd = dup(0)) >= 0;) filler.push_back(fd);
  close(filler.back());
  filler.pop_back();
  auto client = std::make_unique<Client>(server.port());  // takes the last fd
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // accept fails here
  for (int fd : filler) close(fd);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &old), 0);
  ASSERT_TRUE(client->Send("PING\r\n"));
  EXPECT_EQ(client->Read(7), "+PONG\r\n");
}

TEST(NetLimitsTest, CloseAllCallsOnCloseForEach) {
  EventLoop loop;
  TestHandler handler;
  NetServer net(&loop, &handler);
  handler.server = &net;
  ASSERT_TRUE(net.Listen({"127.0.0.1", "-::1"}, 0).ok());
  Client a(net.port()), b(net.port());
  loop.AddTimer(50, [&] { loop.Stop(); });
  loop.Run();
  EXPECT_EQ(handler.opened.load(), 2);
  EXPECT_EQ(net.size(), 2u);
  net.CloseAll();
  EXPECT_EQ(handler.closed.load(), 2);
  EXPECT_EQ(net.size(), 0u);
  EXPECT_TRUE(a.ReadsEof());
}

TEST(NetLimitsTest, ListenErrors) {
  EventLoop loop;
  TestHandler handler;
  NetServer first(&loop, &handler), second(&loop, &handler);
  ASSERT_TRUE(first.Listen({"127.0.0.1"}, 0).ok());
  Status s = second.Listen({"127.0.0.1"}, first.port());
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("Could not create server TCP listening socket 127.0.0.1:"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("bind: Address already in use"), std::string::npos);
  NetServer by_name(&loop, &handler);
  EXPECT_TRUE(by_name.Listen({"localhost"}, 0).ok());
  EXPECT_GT(by_name.port(), 0);
}

}  // namespace
}  // namespace rankd::testing
