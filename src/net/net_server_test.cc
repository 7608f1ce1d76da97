// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// NetServer over a real loopback socket: pipelining, pausing, closing.
// Limits are in net_limits_test.cc.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <thread>

#include "net/loopback_test_util.h"

namespace rankd::testing {
namespace {

std::string Echo(std::string_view arg) {
  return "*2\r\n$4\r\nECHO\r\n$" + std::to_string(arg.size()) + "\r\n" + std::string(arg) + "\r\n";
}
std::string BulkReply(std::string_view s) {
  return "$" + std::to_string(s.size()) + "\r\n" + std::string(s) + "\r\n";
}
int64_t ReadId(Client& c) {
  c.Send("ID\r\n");
  std::string line;
  while (line.empty() || line.back() != '\n') {
    std::string b = c.Read(1);
    if (b.empty()) return -1;
    line += b;
  }
  return std::stoll(line.substr(1));
}

TEST(NetServerTest, PingAndInline) {
  ServerThread server;
  Client c(server.port());
  ASSERT_TRUE(c.Send("*1\r\n$4\r\nPING\r\nPING\r\nECHO \"a b\"\n"));
  EXPECT_EQ(c.Read(23), "+PONG\r\n+PONG\r\n$3\r\na b\r\n");
}

TEST(NetServerTest, Pipeline100kCommands) {
  ServerThread server;
  Client c(server.port());
  const int kCommands = 100000;
  std::string request, expected;
  for (int i = 0; i < kCommands; i++) {
    const std::string arg = std::to_string(i);
    request += Echo(arg);
    expected += BulkReply(arg);
  }
  // Write from another thread: the server answers while we still send.
  std::thread writer([&] { EXPECT_TRUE(c.Send(request)); });
  std::string got = c.Read(expected.size());
  writer.join();
  EXPECT_EQ(got.size(), expected.size());
  EXPECT_TRUE(got == expected);
  // Replies go out per loop iteration, not per command.
  EXPECT_LT(server.handler().flushes.load(), kCommands / 10);
}

TEST(NetServerTest, ManyConnections) {
  ServerThread server;
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < 200; i++) clients.push_back(std::make_unique<Client>(server.port()));
  for (auto& c : clients) ASSERT_TRUE(c->Send("PING\r\n"));
  for (auto& c : clients) EXPECT_EQ(c->Read(7), "+PONG\r\n");
  clients.clear();
  EXPECT_TRUE(WaitFor([&] { return server.handler().closed == 200; }));
}

TEST(NetServerTest, PauseBuffersCommandsAndResumeRunsThem) {
  ServerThread server;
  Client a(server.port()), b(server.port());
  const int64_t id = ReadId(a);
  ASSERT_TRUE(a.Send("BLOCK\r\nPING\r\nECHO x\r\n"));
  EXPECT_FALSE(a.Readable(200));  // paused: PING waits
  ASSERT_TRUE(b.Send("UNBLOCK " + std::to_string(id) + "\r\n"));
  EXPECT_EQ(b.Read(5), "+OK\r\n");
  EXPECT_EQ(a.Read(26), "+UNBLOCKED\r\n+PONG\r\n$1\r\nx\r\n");
}

// No reply byte leaves before BeforeFlush (the AOF fsync point) returns.
TEST(NetServerTest, RepliesWaitForBeforeFlush) {
  ServerThread server;
  Client c(server.port());
  ASSERT_TRUE(c.Send("SLOWFLUSH\r\n"));
  EXPECT_EQ(c.Read(5), "+OK\r\n");
  const int64_t arrived = TestHandler::NowUs();
  EXPECT_GT(server.handler().slow_flush_done_us.load(), 0);
  EXPECT_LE(server.handler().slow_flush_done_us.load(), arrived);
}

TEST(NetServerTest, ScheduleFlushSendsRepliesWrittenByATimer) {
  ServerThread server;
  Client c(server.port());
  ASSERT_TRUE(c.Send("LATER\r\nPING\r\n"));
  EXPECT_EQ(c.Read(15), "+PONG\r\n+LATER\r\n");
}

TEST(NetServerTest, DisconnectMidCommandCallsOnClose) {
  ServerThread server;
  {
    Client c(server.port());
    ASSERT_TRUE(c.Send("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$100\r\nabc"));
    EXPECT_TRUE(WaitFor([&] { return server.handler().opened == 1; }));
  }
  EXPECT_TRUE(WaitFor([&] { return server.handler().closed == 1; }));
  // A blocked client that disconnects is cleaned up too.
  {
    Client c(server.port());
    ASSERT_TRUE(c.Send("BLOCK\r\nPING\r\n"));
    EXPECT_FALSE(c.Readable(50));
  }
  EXPECT_TRUE(WaitFor([&] { return server.handler().closed == 2; }));
  EXPECT_FALSE(server.handler().double_close);
}

TEST(NetServerTest, ProtocolErrorRepliesThenCloses) {
  ServerThread server;
  Client c(server.port());
  ASSERT_TRUE(c.Send("PING\r\n*1\r\n+PING\r\nPING\r\n"));
  EXPECT_EQ(c.Read(100), "+PONG\r\n-ERR Protocol error: expected '$', got '+'\r\n");
  Client d(server.port());
  ASSERT_TRUE(d.Send("*1\r\n\n4\r\n"));  // the '\n' is sanitized in the reply
  EXPECT_EQ(d.Read(100), "-ERR Protocol error: expected '$', got ' '\r\n");
}

TEST(NetServerTest, QuitRepliesThenCloses) {
  ServerThread server;
  Client c(server.port());
  ASSERT_TRUE(c.Send("PING\r\nQUIT\r\nPING\r\n"));
  EXPECT_EQ(c.Read(100), "+PONG\r\n+OK\r\n");
}

TEST(NetServerTest, KillSelfFromOnCommandIsSafe) {
  ServerThread server;
  Client c(server.port());
  ASSERT_TRUE(c.Send("PING\r\nKILLME\r\nPING\r\n"));
  // The PONG may or may not precede the kill (Kill drops pending output).
  std::string got = c.Read(100);
  EXPECT_TRUE(got.empty() || got == "+PONG\r\n") << got;
  EXPECT_TRUE(WaitFor([&] { return server.handler().closed == 1; }));
  EXPECT_FALSE(server.handler().double_close);
}

TEST(NetServerTest, KillOtherConnection) {
  ServerThread server;
  Client a(server.port()), b(server.port());
  const int64_t id_b = ReadId(b);
  ASSERT_TRUE(b.Send("BLOCK\r\n"));
  ASSERT_TRUE(a.Send("KILL " + std::to_string(id_b) + "\r\nKILL " + std::to_string(id_b) +
                     "\r\nPING\r\n"));
  EXPECT_EQ(a.Read(17), "+OK\r\n+OK\r\n+PONG\r\n");
  EXPECT_TRUE(b.ReadsEof());
  EXPECT_TRUE(WaitFor([&] { return server.handler().closed == 1; }));
  EXPECT_FALSE(server.handler().double_close);
}

// Commands of every small size back to back, so the 16 KB reads end at
// every kind of place inside one (a count, a bulk header, a body, its CRLF)
// and the parser takes both its whole-command and its resumed path.
TEST(NetServerTest, PipelineCutAtEveryOffsetByReads) {
  ServerThread server;
  Client c(server.port());
  std::string request, expected;
  for (int i = 0; request.size() < 400000; i++) {
    const std::string arg(static_cast<size_t>(i % 53), static_cast<char>('a' + i % 26));
    request += Echo(arg);
    expected += BulkReply(arg);
  }
  std::thread writer([&] {
    // Uneven writes, so the boundaries shift between runs of the loop.
    for (size_t off = 0, step = 1; off < request.size(); off += step, step = step * 7 % 9001 + 1) {
      EXPECT_TRUE(c.Send(std::string_view(request).substr(off, step)));
    }
  });
  std::string got = c.Read(expected.size());
  writer.join();
  EXPECT_TRUE(got == expected);
}

// A command sent a byte at a time gets its reply only once complete, and the
// connection keeps working.
TEST(NetServerTest, CommandTrickledByteByByte) {
  ServerThread server;
  Client c(server.port());
  const std::string cmd = Echo("hello") + Echo(std::string(40, 'z'));
  for (size_t i = 0; i + 1 < cmd.size(); i++) {
    ASSERT_TRUE(c.Send(cmd.substr(i, 1)));
    if (i % 16 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(c.Read(11), "$5\r\nhello\r\n");
  EXPECT_FALSE(c.Readable(50));  // the second ECHO lacks its last byte
  ASSERT_TRUE(c.Send(cmd.substr(cmd.size() - 1)));
  EXPECT_EQ(c.Read(47), BulkReply(std::string(40, 'z')));
}

TEST(NetServerTest, LargeReplyToSlowReader) {
  ServerThread server;
  Client c(server.port());
  ASSERT_TRUE(c.Send("BIG 20000000\r\nPING\r\n"));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // let the socket fill
  std::string got = c.Read(11 + 20000000 + 2 + 7);
  ASSERT_EQ(got.size(), 20000020u);
  EXPECT_EQ(got.substr(0, 12), "$20000000\r\nx");
  EXPECT_EQ(got.substr(got.size() - 9), "\r\n+PONG\r\n");
}

// Hostile input over real sockets: random bytes and random RESP fragments
// on many connections, some cut mid-stream. The server must stay up and
// call OnClose once for every connection.
TEST(NetServerTest, SurvivesGarbage) {
  ServerThread server;
  std::mt19937 rng(7);
  printf("seed 7\n");
  const char* pieces[] = {"*", "$", "\r\n", "\r", "\n", "\"", "'", "\\x4", "\0", "-1", "0",
                          "99999999999999999999", "2147483648", "PING", " ", "*3\r\n$3\r\nSET"};
  const int kConns = 60;
  for (int i = 0; i < kConns; i++) {
    Client c(server.port());
    std::string junk;
    for (int j = 0; j < 200; j++) {
      if (rng() % 2) {
        junk += pieces[rng() % (sizeof(pieces) / sizeof(pieces[0]))];
      } else {
        junk += static_cast<char>(rng() % 256);
      }
    }
    c.Send(junk);  // may fail: the server closes on a protocol error
    if (i % 2) c.Read(1);
  }
  EXPECT_TRUE(WaitFor([&] { return server.handler().closed == kConns; }));
  EXPECT_FALSE(server.handler().double_close);
  Client ok(server.port());
  ASSERT_TRUE(ok.Send("PING\r\n"));
  EXPECT_EQ(ok.Read(7), "+PONG\r\n");
}

}  // namespace
}  // namespace rankd::testing
