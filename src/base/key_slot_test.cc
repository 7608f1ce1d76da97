// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/key_slot.h"

#include "gtest/gtest.h"

namespace rankd {

TEST(KeySlotTest, Crc16CheckValue) {
  // The standard check input of CRC16/XMODEM.
  EXPECT_EQ(Crc16("123456789"), 0x31C3);
  EXPECT_EQ(Crc16(""), 0);
}

TEST(KeySlotTest, SlotsAsRedisClusterComputesThem) {
  // Values answered by redis-server 7.0.15's CLUSTER KEYSLOT.
  EXPECT_EQ(KeySlot("foo"), 12182);
  EXPECT_EQ(KeySlot("bar"), 5061);
  EXPECT_EQ(KeySlot("somekey"), 11058);
  EXPECT_EQ(KeySlot("{user1000}.following"), KeySlot("user1000"));
  EXPECT_EQ(KeySlot("{user1000}.followers"), KeySlot("user1000"));
}

TEST(KeySlotTest, EmptyOrUnclosedTagHashesTheWholeKey) {
  EXPECT_EQ(KeySlot("foo{}{bar}"), Crc16("foo{}{bar}") & 16383);
  EXPECT_EQ(KeySlot("foo{{bar}}zap"), KeySlot("{bar"));
  EXPECT_EQ(KeySlot("foo{bar}{zap}"), KeySlot("bar"));
  EXPECT_EQ(KeySlot("{abc"), Crc16("{abc") & 16383);
  EXPECT_EQ(KeySlot(""), 0);
}

}  // namespace rankd
