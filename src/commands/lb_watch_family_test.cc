// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// LB.WATCH against a reference: after each batch of random board writes and
// one BoardWatch::Flush (what the event loop does once per iteration), the
// watcher got a message exactly when LB.TOP's rows differ from the rows last
// sent, and that message carries LB.TOP's rows byte for byte. With
// lb-watch-interval 0 every change is sent at the flush that sees it (the
// coalescing timer needs a running loop: tests/test_lb_watch.py).

#include <random>
#include <string>
#include <vector>

#include "commands/test_util.h"

namespace rankd {
namespace {

Config IntervalZero() {
  Config c;
  c.lb_watch_interval = 0;
  return c;
}

class LbWatchTest : public CommandTest {
 protected:
  LbWatchTest() : CommandTest(IntervalZero()) { SetResp(3); }

  // What the watcher was sent since the last call (after a flush).
  std::string Flushed() {
    server().board_watch().Flush();
    std::string out;
    out.swap(client().reply->buffer());
    return out;
  }
  static std::string Message(const std::string& rows) {
    return ">3\r\n$6\r\nlb.top\r\n$1\r\nb\r\n" + rows;
  }
};

TEST_F(LbWatchTest, ConfirmationThenSnapshotAtFlushInsideExec) {
  Run({"LB.ADD", "b", "5", "x"});
  // Run() is Execute with no_block, as EXEC runs a queued command: the
  // snapshot waits for the flush.
  EXPECT_EQ(Run({"LB.WATCH", "b", "TOP", "3"}), ">3\r\n$8\r\nlb.watch\r\n$1\r\nb\r\n:1\r\n");
  EXPECT_EQ(Flushed(), Message("*1\r\n*3\r\n:1\r\n$1\r\nx\r\n,5\r\n"));
  EXPECT_EQ(Flushed(), "");  // nothing changed
  EXPECT_EQ(Run({"LB.UNWATCH"}), ">3\r\n$10\r\nlb.unwatch\r\n$1\r\nb\r\n:0\r\n");
  EXPECT_EQ(server().board_watch().watched_boards(), 0u);
  Run({"LB.ADD", "b", "9", "y"});
  EXPECT_EQ(Flushed(), "");
}

class LbWatchModelTest : public LbWatchTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(LbWatchModelTest, MessagesAreExactlyLbTopChanges) {
  const std::string mode = GetParam();
  const uint32_t seed = 20261201;
  SCOPED_TRACE("seed " + std::to_string(seed) + " mode " + mode);
  std::mt19937 rng(seed);
  Run({"LB.CREATE", "b", "TIES", rng() % 2 ? "FIRST" : "LAST"});
  Run({"LB.ADD", "b", "1", "m0"});
  Run({"LB.WATCH", "b", "TOP", "5", "MODE", mode});
  std::string last = Run({"LB.TOP", "b", "5", "MODE", mode});
  ASSERT_EQ(Flushed(), Message(last));
  int messages = 0;
  for (int step = 0; step < 3000; ++step) {
    const int batch = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < batch; ++i) {
      const std::string m = "m" + std::to_string(rng() % 30);
      const std::string score = std::to_string(rng() % 12);  // many ties
      switch (rng() % 6) {
        case 0: case 1: Run({"LB.ADD", "b", score, m}); break;
        case 2: Run({"LB.ADD", "b", "INCR", "1", m}); break;
        case 3: Run({"ZREM", "b", m}); break;
        case 4: Run({"ZADD", "b", "XX", "INCR", "-1", m}); break;  // never creates
        case 5: Run({"LB.ADD", "b", "BEST", score, m}); break;
      }
    }
    const std::string got = Flushed();
    const std::string want = Run({"LB.TOP", "b", "5", "MODE", mode});
    if (want == last) {
      ASSERT_EQ(got, "") << "step " << step;
    } else {
      ASSERT_EQ(got, Message(want)) << "step " << step;
      last = want;
      messages++;
    }
  }
  EXPECT_GT(messages, 100);  // the sequence does move the top
}

INSTANTIATE_TEST_SUITE_P(Modes, LbWatchModelTest,
                         ::testing::Values("ORDINAL", "COMPETITION", "DENSE"));

}  // namespace
}  // namespace rankd
