// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The cluster bus's binary messages, in Redis 7.0's layout (version 1):
// a fixed 2256-byte header (signature "RCmb", total length, type, epochs,
// the sender's id, slot bitmap, primary, address and flags), then by type:
// gossip entries of 104 bytes and ping extensions (PING / PONG / MEET), a
// node id (FAIL), a channel and message (PUBLISH / PUBLISHSHARD), or an
// epoch, node id and slot bitmap (UPDATE). Every integer is big-endian.
//
// Encode builds the bytes; Decode checks a received message completely
// (signature, version, exact total length for its type, counts that fit)
// before anything reads it, so a forged or truncated one is refused whole.
// Pure functions, no I/O.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/cluster_state.h"

namespace rankd {

enum BusMsgType : uint16_t {
  kMsgPing = 0,
  kMsgPong = 1,
  kMsgMeet = 2,
  kMsgFail = 3,
  kMsgPublish = 4,
  kMsgAuthRequest = 5,
  kMsgAuthAck = 6,
  kMsgUpdate = 7,
  kMsgMfStart = 8,
  kMsgModule = 9,
  kMsgPublishShard = 10,
  kMsgTypeCount = 11,
};

inline constexpr size_t kBusHeaderLen = 2256;
inline constexpr size_t kBusGossipLen = 104;
inline constexpr size_t kBusIpLen = 46;  // NET_IP_STR_LEN, NUL included
// The biggest message accepted (a PUBLISH of a big payload); longer ones
// close the link.
inline constexpr uint32_t kBusMaxMsgLen = 512u << 20;
// mflags[0] bits.
inline constexpr uint8_t kMsgFlagPaused = 1, kMsgFlagForceAck = 2, kMsgFlagExtData = 4;

struct BusGossip {
  std::string id;
  uint32_t ping_sent = 0;      // seconds
  uint32_t pong_received = 0;  // seconds
  std::string ip;
  uint16_t port = 0, cport = 0, flags = 0, pport = 0;
};

struct BusMsg {
  uint16_t type = kMsgPing;
  uint16_t port = 0, pport = 0, cport = 0, flags = 0;
  uint64_t current_epoch = 0, config_epoch = 0, offset = 0;
  std::string sender;      // 40 characters
  SlotBits slots;
  std::string primary;     // 40 characters, "" when the sender is a master
  std::string myip;        // "" when not announced
  uint8_t state = 0;       // 0 ok, 1 fail
  uint8_t mflags0 = 0;
  // PING / PONG / MEET.
  std::vector<BusGossip> gossip;
  bool has_hostname = false;  // a hostname extension came (or goes)
  std::string hostname;
  // FAIL: the failed node. UPDATE: the node whose slots these are.
  std::string node;
  uint64_t update_epoch = 0;  // UPDATE
  SlotBits update_slots;      // UPDATE
  std::string channel, message;  // PUBLISH / PUBLISHSHARD
};

// The bytes of `m` (total length filled in).
std::string EncodeBusMsg(const BusMsg& m);

// The total length a message announces in its first 8 bytes, or 0 when the
// signature is wrong or the length is outside [8, kBusMaxMsgLen].
// REQUIRES: head.size() >= 8.
uint32_t BusMsgLength(std::string_view head);

// Parses one whole message. Returns "" on success, else why it was refused
// (for the log); `out` is then unspecified.
std::string DecodeBusMsg(std::string_view buf, BusMsg* out);

// The name Redis's CLUSTER INFO gives message type `t` ("ping", "pong",
// "meet", "fail", "publish", "auth-req", "auth-ack", "update", "mfstart",
// "module", "publishshard").
std::string_view BusMsgTypeName(uint16_t t);

}  // namespace rankd
