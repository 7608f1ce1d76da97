// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/auth_throttle.h"

#include <vector>

#include "gtest/gtest.h"

namespace rankd {
namespace {

TEST(AuthThrottleTest, FreeFailuresThenDoublingDelayUpToTheCap) {
  AuthThrottle t;
  t.set_settings({/*free_failures=*/2, /*address_free_failures=*/1000, /*delay_ms=*/10,
                  /*max_delay_ms=*/75, /*max_failures=*/0});
  uint64_t conn = 0;
  std::vector<int64_t> delays;
  for (int i = 0; i < 7; i++) delays.push_back(t.Failed("10.0.0.1", &conn, 0).delay_ms);
  EXPECT_EQ(delays, (std::vector<int64_t>{0, 0, 10, 20, 40, 75, 75}));
  EXPECT_EQ(conn, 7u);
}

TEST(AuthThrottleTest, ClosesAtTheBound) {
  AuthThrottle t;
  t.set_settings({100, 1000, 10, 2000, /*max_failures=*/3});
  uint64_t conn = 0;
  EXPECT_FALSE(t.Failed("a", &conn, 0).close);
  EXPECT_FALSE(t.Failed("a", &conn, 0).close);
  EXPECT_TRUE(t.Failed("a", &conn, 0).close);
}

TEST(AuthThrottleTest, AddressCountsAcrossConnectionsAndIsForgotten) {
  AuthThrottle t;
  t.set_settings({100, /*address_free_failures=*/2, 10, 2000, 0});
  for (int i = 0; i < 2; i++) {
    uint64_t fresh = 0;
    EXPECT_EQ(t.Failed("10.0.0.2", &fresh, 1000).delay_ms, 0);
  }
  uint64_t third = 0;
  EXPECT_EQ(t.Failed("10.0.0.2", &third, 1000).delay_ms, 10);
  EXPECT_EQ(t.address_failures("10.0.0.2", 1000), 3u);
  uint64_t other = 0;  // another address is not affected
  EXPECT_EQ(t.Failed("10.0.0.3", &other, 1000).delay_ms, 0);
  // A minute without failures: forgotten.
  const int64_t later = 1000 + AuthThrottle::kAddressWindowMs;
  EXPECT_EQ(t.address_failures("10.0.0.2", later), 0u);
  uint64_t next = 0;
  EXPECT_EQ(t.Failed("10.0.0.2", &next, later).delay_ms, 0);
}

TEST(AuthThrottleTest, ZeroDelayTurnsDelaysOff) {
  AuthThrottle t;
  t.set_settings({0, 0, /*delay_ms=*/0, 2000, 0});
  uint64_t conn = 0;
  for (int i = 0; i < 50; i++) EXPECT_EQ(t.Failed("a", &conn, 0).delay_ms, 0);
}

TEST(AuthThrottleTest, PeerAddressDropsThePort) {
  EXPECT_EQ(PeerAddress("127.0.0.1:6379"), "127.0.0.1");
  EXPECT_EQ(PeerAddress("[::1]:50000"), "::1");
  EXPECT_EQ(PeerAddress(""), "");
}

}  // namespace
}  // namespace rankd
