// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "cluster/bus_msg.h"

#include <cstring>

namespace rankd {
namespace {

// Field offsets in the header (Redis 7.0's clusterMsg).
constexpr size_t kOffTotlen = 4, kOffVer = 8, kOffPort = 10, kOffType = 12, kOffCount = 14,
                 kOffCurEpoch = 16, kOffCfgEpoch = 24, kOffOffset = 32, kOffSender = 40,
                 kOffSlots = 80, kOffPrimary = 2128, kOffIp = 2168, kOffExt = 2214,
                 kOffPport = 2246, kOffCport = 2248, kOffFlags = 2250, kOffState = 2252,
                 kOffMflags = 2253;
constexpr size_t kSlotBytes = kClusterSlots / 8;
constexpr size_t kExtHeaderLen = 8;  // length u32, type u16, unused u16
constexpr uint16_t kExtHostname = 0;

void Put16(std::string& b, size_t off, uint16_t v) {
  b[off] = static_cast<char>(v >> 8);
  b[off + 1] = static_cast<char>(v);
}
void Put32(std::string& b, size_t off, uint32_t v) {
  for (int i = 0; i < 4; i++) b[off + i] = static_cast<char>(v >> (24 - 8 * i));
}
void Put64(std::string& b, size_t off, uint64_t v) {
  for (int i = 0; i < 8; i++) b[off + i] = static_cast<char>(v >> (56 - 8 * i));
}
// Copies at most `max` bytes of `s` (the rest stays zero).
void PutStr(std::string& b, size_t off, std::string_view s, size_t max) {
  memcpy(&b[off], s.data(), std::min(s.size(), max));
}
void PutSlots(std::string& b, size_t off, const SlotBits& slots) {
  for (int i = 0; i < kClusterSlots; i++) {
    if (slots.test(i)) b[off + i / 8] = static_cast<char>(b[off + i / 8] | (1 << (i & 7)));
  }
}

uint64_t Get(std::string_view b, size_t off, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++) v = (v << 8) | static_cast<uint8_t>(b[off + i]);
  return v;
}
// A NUL-padded field as a string (up to its first NUL).
std::string GetStr(std::string_view b, size_t off, size_t len) {
  std::string_view f = b.substr(off, len);
  return std::string(f.substr(0, f.find('\0')));
}
std::string GetId(std::string_view b, size_t off) {
  std::string id(b.substr(off, kNodeIdLen));
  return id[0] == '\0' ? std::string() : id;
}
void GetSlots(std::string_view b, size_t off, SlotBits* slots) {
  slots->reset();
  for (size_t byte = 0; byte < kSlotBytes; byte++) {
    const uint8_t v = static_cast<uint8_t>(b[off + byte]);
    if (v == 0) continue;
    for (int bit = 0; bit < 8; bit++) {
      if (v & (1 << bit)) slots->set(byte * 8 + bit);
    }
  }
}

size_t HostnameExtLen(const std::string& hostname) {
  return kExtHeaderLen + (hostname.size() + 1 + 7) / 8 * 8;
}

std::string DecodeGossipAndExt(std::string_view b, uint16_t count, uint16_t extensions,
                               BusMsg* m) {
  size_t off = kBusHeaderLen;
  if ((b.size() - off) / kBusGossipLen < count) return "gossip count past the end";
  m->gossip.resize(count);
  for (BusGossip& g : m->gossip) {
    g.id = GetId(b, off);
    g.ping_sent = static_cast<uint32_t>(Get(b, off + 40, 4));
    g.pong_received = static_cast<uint32_t>(Get(b, off + 44, 4));
    g.ip = GetStr(b, off + 48, kBusIpLen);
    g.port = static_cast<uint16_t>(Get(b, off + 94, 2));
    g.cport = static_cast<uint16_t>(Get(b, off + 96, 2));
    g.flags = static_cast<uint16_t>(Get(b, off + 98, 2));
    g.pport = static_cast<uint16_t>(Get(b, off + 100, 2));
    if (g.id.size() != kNodeIdLen) return "gossip entry without a node id";
    off += kBusGossipLen;
  }
  if (!(m->mflags0 & kMsgFlagExtData)) extensions = 0;
  for (uint16_t i = 0; i < extensions; i++) {
    if (b.size() - off < kExtHeaderLen) return "extension past the end";
    const uint64_t len = Get(b, off, 4);
    const uint16_t type = static_cast<uint16_t>(Get(b, off + 4, 2));
    if (len < kExtHeaderLen || len > b.size() - off) return "bad extension length";
    if (type == kExtHostname) {
      m->has_hostname = true;
      m->hostname = GetStr(b, off + kExtHeaderLen, len - kExtHeaderLen);
    }
    off += len;
  }
  return off == b.size() ? "" : "length does not match the gossip and extensions";
}

}  // namespace

std::string EncodeBusMsg(const BusMsg& m) {
  size_t len = kBusHeaderLen;
  uint16_t extensions = 0;
  switch (m.type) {
    case kMsgPing:
    case kMsgPong:
    case kMsgMeet:
      len += m.gossip.size() * kBusGossipLen;
      if (m.has_hostname && !m.hostname.empty()) {
        len += HostnameExtLen(m.hostname);
        extensions = 1;
      }
      break;
    case kMsgFail: len += kNodeIdLen; break;
    case kMsgUpdate: len += 8 + kNodeIdLen + kSlotBytes; break;
    case kMsgPublish:
    case kMsgPublishShard: len += 8 + m.channel.size() + m.message.size(); break;
    default: break;
  }
  std::string b(len, '\0');
  memcpy(&b[0], "RCmb", 4);
  Put32(b, kOffTotlen, static_cast<uint32_t>(len));
  Put16(b, kOffVer, 1);
  Put16(b, kOffPort, m.port);
  Put16(b, kOffType, m.type);
  Put16(b, kOffCount, static_cast<uint16_t>(m.gossip.size()));
  Put64(b, kOffCurEpoch, m.current_epoch);
  Put64(b, kOffCfgEpoch, m.config_epoch);
  Put64(b, kOffOffset, m.offset);
  PutStr(b, kOffSender, m.sender, kNodeIdLen);
  PutSlots(b, kOffSlots, m.slots);
  PutStr(b, kOffPrimary, m.primary, kNodeIdLen);
  PutStr(b, kOffIp, m.myip, kBusIpLen - 1);
  Put16(b, kOffExt, extensions);
  Put16(b, kOffPport, m.pport);
  Put16(b, kOffCport, m.cport);
  Put16(b, kOffFlags, m.flags);
  b[kOffState] = static_cast<char>(m.state);
  b[kOffMflags] = static_cast<char>(m.mflags0);
  size_t off = kBusHeaderLen;
  switch (m.type) {
    case kMsgPing:
    case kMsgPong:
    case kMsgMeet:
      for (const BusGossip& g : m.gossip) {
        PutStr(b, off, g.id, kNodeIdLen);
        Put32(b, off + 40, g.ping_sent);
        Put32(b, off + 44, g.pong_received);
        PutStr(b, off + 48, g.ip, kBusIpLen - 1);
        Put16(b, off + 94, g.port);
        Put16(b, off + 96, g.cport);
        Put16(b, off + 98, g.flags);
        Put16(b, off + 100, g.pport);
        off += kBusGossipLen;
      }
      if (extensions) {
        Put32(b, off, static_cast<uint32_t>(HostnameExtLen(m.hostname)));
        Put16(b, off + 4, kExtHostname);
        PutStr(b, off + kExtHeaderLen, m.hostname, m.hostname.size());
      }
      break;
    case kMsgFail: PutStr(b, off, m.node, kNodeIdLen); break;
    case kMsgUpdate:
      Put64(b, off, m.update_epoch);
      PutStr(b, off + 8, m.node, kNodeIdLen);
      PutSlots(b, off + 8 + kNodeIdLen, m.update_slots);
      break;
    case kMsgPublish:
    case kMsgPublishShard:
      Put32(b, off, static_cast<uint32_t>(m.channel.size()));
      Put32(b, off + 4, static_cast<uint32_t>(m.message.size()));
      PutStr(b, off + 8, m.channel, m.channel.size());
      PutStr(b, off + 8 + m.channel.size(), m.message, m.message.size());
      break;
    default: break;
  }
  return b;
}

uint32_t BusMsgLength(std::string_view head) {
  if (head.substr(0, 4) != "RCmb") return 0;
  const uint64_t len = Get(head, kOffTotlen, 4);
  return len < 8 || len > kBusMaxMsgLen ? 0 : static_cast<uint32_t>(len);
}

std::string DecodeBusMsg(std::string_view b, BusMsg* m) {
  if (b.size() < kBusHeaderLen) return "shorter than the header";
  if (b.substr(0, 4) != "RCmb") return "bad signature";
  if (Get(b, kOffTotlen, 4) != b.size()) return "total length does not match";
  if (Get(b, kOffVer, 2) != 1) return "unknown protocol version";
  m->type = static_cast<uint16_t>(Get(b, kOffType, 2));
  const uint16_t count = static_cast<uint16_t>(Get(b, kOffCount, 2));
  m->port = static_cast<uint16_t>(Get(b, kOffPort, 2));
  m->current_epoch = Get(b, kOffCurEpoch, 8);
  m->config_epoch = Get(b, kOffCfgEpoch, 8);
  m->offset = Get(b, kOffOffset, 8);
  m->sender = GetId(b, kOffSender);
  GetSlots(b, kOffSlots, &m->slots);
  m->primary = GetId(b, kOffPrimary);
  m->myip = GetStr(b, kOffIp, kBusIpLen);
  const uint16_t extensions = static_cast<uint16_t>(Get(b, kOffExt, 2));
  m->pport = static_cast<uint16_t>(Get(b, kOffPport, 2));
  m->cport = static_cast<uint16_t>(Get(b, kOffCport, 2));
  m->flags = static_cast<uint16_t>(Get(b, kOffFlags, 2));
  m->state = static_cast<uint8_t>(b[kOffState]);
  m->mflags0 = static_cast<uint8_t>(b[kOffMflags]);
  if (m->sender.size() != kNodeIdLen) return "no sender id";
  const size_t body = b.size() - kBusHeaderLen;
  switch (m->type) {
    case kMsgPing:
    case kMsgPong:
    case kMsgMeet:
      return DecodeGossipAndExt(b, count, extensions, m);
    case kMsgFail:
      if (body != kNodeIdLen) return "bad FAIL length";
      m->node = GetId(b, kBusHeaderLen);
      return m->node.size() == kNodeIdLen ? "" : "FAIL without a node id";
    case kMsgUpdate:
      if (body != 8 + kNodeIdLen + kSlotBytes) return "bad UPDATE length";
      m->update_epoch = Get(b, kBusHeaderLen, 8);
      m->node = GetId(b, kBusHeaderLen + 8);
      GetSlots(b, kBusHeaderLen + 8 + kNodeIdLen, &m->update_slots);
      return m->node.size() == kNodeIdLen ? "" : "UPDATE without a node id";
    case kMsgPublish:
    case kMsgPublishShard: {
      if (body < 8) return "bad PUBLISH length";
      const uint64_t clen = Get(b, kBusHeaderLen, 4), mlen = Get(b, kBusHeaderLen + 4, 4);
      if (clen + mlen != body - 8) return "bad PUBLISH length";
      m->channel = std::string(b.substr(kBusHeaderLen + 8, clen));
      m->message = std::string(b.substr(kBusHeaderLen + 8 + clen, mlen));
      return "";
    }
    case kMsgAuthRequest:
    case kMsgAuthAck:
    case kMsgMfStart:
      return body == 0 ? "" : "bad length";
    case kMsgModule:
      return body >= 13 && Get(b, kBusHeaderLen + 8, 4) == body - 13 ? "" : "bad MODULE length";
    default:
      return "unknown message type";
  }
}

std::string_view BusMsgTypeName(uint16_t t) {
  static constexpr std::string_view kNames[] = {
      "ping", "pong", "meet", "fail", "publish", "auth-req",
      "auth-ack", "update", "mfstart", "module", "publishshard"};
  return t < kMsgTypeCount ? kNames[t] : "unknown";
}

}  // namespace rankd
