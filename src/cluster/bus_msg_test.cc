// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "cluster/bus_msg.h"

#include "gtest/gtest.h"

namespace rankd {
namespace {

const std::string kA(40, 'a'), kB(40, 'b');

BusMsg Ping() {
  BusMsg m;
  m.type = kMsgPing;
  m.sender = kA;
  m.port = 7000;
  m.cport = 17000;
  m.flags = kNodeMaster | kNodeMyself;
  m.current_epoch = 7;
  m.config_epoch = 3;
  m.slots.set(0);
  m.slots.set(16383);
  m.myip = "127.0.0.1";
  m.mflags0 = kMsgFlagExtData;
  return m;
}

TEST(BusMsgTest, HeaderLayoutMatchesRedis) {
  const std::string b = EncodeBusMsg(Ping());
  ASSERT_EQ(b.size(), kBusHeaderLen);
  EXPECT_EQ(b.substr(0, 4), "RCmb");
  EXPECT_EQ(static_cast<uint8_t>(b[6]), kBusHeaderLen >> 8);
  EXPECT_EQ(b[9], 1);                                    // version
  EXPECT_EQ(b.substr(40, 40), kA);                       // sender
  EXPECT_EQ(static_cast<uint8_t>(b[80]), 1);             // slot 0: bit 0 of byte 0
  EXPECT_EQ(static_cast<uint8_t>(b[80 + 2047]), 0x80);   // slot 16383
  EXPECT_EQ(b.substr(2168, 9), "127.0.0.1");             // myip
  EXPECT_EQ(static_cast<uint8_t>(b[2249]), 17000 & 0xff);  // cport
  EXPECT_EQ(static_cast<uint8_t>(b[2251]), 17);          // flags
  EXPECT_EQ(static_cast<uint8_t>(b[2253]), kMsgFlagExtData);
  EXPECT_EQ(BusMsgLength(b), kBusHeaderLen);
}

TEST(BusMsgTest, PingWithGossipAndHostnameRoundTrips) {
  BusMsg m = Ping();
  BusGossip g;
  g.id = kB;
  g.ip = "10.0.0.2";
  g.port = 7001;
  g.cport = 17001;
  g.flags = kNodeReplica;
  g.ping_sent = 5;
  g.pong_received = 6;
  m.gossip = {g, g};
  m.has_hostname = true;
  m.hostname = "host-a.example";  // 15 bytes with its NUL: padded to 16
  const std::string b = EncodeBusMsg(m);
  ASSERT_EQ(b.size(), kBusHeaderLen + 2 * kBusGossipLen + 8 + 16);
  BusMsg d;
  ASSERT_EQ(DecodeBusMsg(b, &d), "");
  EXPECT_EQ(d.sender, kA);
  EXPECT_EQ(d.current_epoch, 7u);
  EXPECT_EQ(d.config_epoch, 3u);
  EXPECT_EQ(d.slots, m.slots);
  EXPECT_EQ(d.primary, "");
  ASSERT_EQ(d.gossip.size(), 2u);
  EXPECT_EQ(d.gossip[1].id, kB);
  EXPECT_EQ(d.gossip[1].ip, "10.0.0.2");
  EXPECT_EQ(d.gossip[1].cport, 17001);
  EXPECT_EQ(d.gossip[1].pong_received, 6u);
  EXPECT_TRUE(d.has_hostname);
  EXPECT_EQ(d.hostname, "host-a.example");
}

TEST(BusMsgTest, UpdateFailAndPublishRoundTrip) {
  BusMsg u = Ping();
  u.type = kMsgUpdate;
  u.node = kB;
  u.update_epoch = 9;
  u.update_slots.set(42);
  BusMsg d;
  ASSERT_EQ(DecodeBusMsg(EncodeBusMsg(u), &d), "");
  EXPECT_EQ(d.node, kB);
  EXPECT_EQ(d.update_epoch, 9u);
  EXPECT_TRUE(d.update_slots.test(42));
  BusMsg f = Ping();
  f.type = kMsgFail;
  f.node = kB;
  ASSERT_EQ(DecodeBusMsg(EncodeBusMsg(f), &d), "");
  EXPECT_EQ(d.node, kB);
  BusMsg p = Ping();
  p.type = kMsgPublishShard;
  p.channel = "ch";
  p.message = std::string("m\0x", 3);
  ASSERT_EQ(DecodeBusMsg(EncodeBusMsg(p), &d), "");
  EXPECT_EQ(d.channel, "ch");
  EXPECT_EQ(d.message, p.message);
}

TEST(BusMsgTest, MalformedMessagesAreRefused) {
  BusMsg d;
  std::string b = EncodeBusMsg(Ping());
  EXPECT_NE(DecodeBusMsg(b.substr(0, 100), &d), "");
  std::string bad_sig = b;
  bad_sig[3] = 'X';
  EXPECT_NE(DecodeBusMsg(bad_sig, &d), "");
  EXPECT_EQ(BusMsgLength(bad_sig), 0u);
  std::string count = b;
  count[15] = 3;  // three gossip entries announced, none present
  EXPECT_NE(DecodeBusMsg(count, &d), "");
  std::string ver = b;
  ver[9] = 2;
  EXPECT_NE(DecodeBusMsg(ver, &d), "");
  std::string huge = b;
  huge[4] = '\xff';
  EXPECT_EQ(BusMsgLength(huge), 0u);
  std::string no_sender = b;
  no_sender[40] = '\0';
  EXPECT_NE(DecodeBusMsg(no_sender, &d), "");
  BusMsg p = Ping();
  p.type = kMsgPublish;
  p.channel = "c";
  std::string pub = EncodeBusMsg(p);
  pub[kBusHeaderLen + 3] = 50;  // channel longer than the message
  EXPECT_NE(DecodeBusMsg(pub, &d), "");
}

}  // namespace
}  // namespace rankd
