// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/notify.h"

#include <gtest/gtest.h>

namespace rankd {
namespace {

std::string RoundTrip(std::string_view in) {
  int64_t flags = -1;
  EXPECT_TRUE(ParseNotifyFlags(in, &flags)) << in;
  return FormatNotifyFlags(flags);
}

// Expected strings are what redis-server 7.0 answers to CONFIG GET after
// CONFIG SET notify-keyspace-events <input>.
TEST(NotifyFlagsTest, CanonicalFormsMatchRedis) {
  EXPECT_EQ(RoundTrip(""), "");
  EXPECT_EQ(RoundTrip("KEA"), "AKE");
  EXPECT_EQ(RoundTrip("KEAn"), "AKE");  // Redis drops n when A is shown
  EXPECT_EQ(RoundTrip("A"), "A");
  EXPECT_EQ(RoundTrip("Kn"), "nK");
  EXPECT_EQ(RoundTrip("g$lshzxetdn"), "A");
  EXPECT_EQ(RoundTrip("Kg$lshzxetd"), "AK");
  EXPECT_EQ(RoundTrip("KEm"), "KEm");
  EXPECT_EQ(RoundTrip("zK"), "zK");
  EXPECT_EQ(RoundTrip("xeKE"), "xeKE");
}

TEST(NotifyFlagsTest, ClassesAndErrors) {
  int64_t flags = 0;
  ASSERT_TRUE(ParseNotifyFlags("Ez", &flags));
  EXPECT_EQ(flags, kNotifyKeyevent | kNotifyZset);
  ASSERT_TRUE(ParseNotifyFlags("A", &flags));
  EXPECT_FALSE(flags & kNotifyKeyMiss);
  EXPECT_FALSE(flags & kNotifyNew);
  flags = 7;
  EXPECT_FALSE(ParseNotifyFlags("KEQ", &flags));
  EXPECT_EQ(flags, 7);  // unchanged on error
}

}  // namespace
}  // namespace rankd
