// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "cluster/nodes_conf.h"

#include <vector>

#include "base/numbers.h"
#include "base/split.h"

namespace rankd {
namespace {

struct FlagName {
  uint16_t bit;
  std::string_view name;
};
// CLUSTER NODES's order.
constexpr FlagName kFlagNames[] = {
    {kNodeMyself, "myself"}, {kNodeMaster, "master"},       {kNodeReplica, "slave"},
    {kNodePFail, "fail?"},   {kNodeFail, "fail"},           {kNodeHandshake, "handshake"},
    {kNodeNoAddr, "noaddr"}, {kNodeNoFailover, "nofailover"},
};

// Every piece of `s` between `sep` characters (empty ones included).
std::vector<std::string_view> SplitOn(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (size_t i = 0;;) {
    const size_t j = s.find(sep, i);
    out.push_back(s.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
    if (j == std::string_view::npos) return out;
    i = j + 1;
  }
}

void AppendRange(std::string* out, int first, int last) {
  *out += ' ';
  *out += std::to_string(first);
  if (last != first) *out += '-' + std::to_string(last);
}

bool IsNodeId(std::string_view id) {
  if (id.size() != kNodeIdLen) return false;
  for (char c : id) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
      return false;
    }
  }
  return true;
}

bool ParseSlot(std::string_view s, int* slot) {
  int64_t v = 0;
  if (!ParseInt64(s, &v) || v < 0 || v >= kClusterSlots) return false;
  *slot = static_cast<int>(v);
  return true;
}

// "ip:port@cport[,hostname]" (the ip may hold ':' for IPv6).
bool ParseAddress(std::string_view a, ClusterNode* n) {
  if (size_t comma = a.find(','); comma != std::string_view::npos) {
    n->hostname = std::string(a.substr(comma + 1));
    a = a.substr(0, comma);
  }
  int64_t cport = 0, port = 0;
  const size_t at = a.find('@');
  if (at != std::string_view::npos) {
    if (!ParseInt64(a.substr(at + 1), &cport) || cport < 0 || cport > 65535) return false;
    a = a.substr(0, at);
  }
  const size_t colon = a.rfind(':');
  if (colon == std::string_view::npos) return false;
  if (!ParseInt64(a.substr(colon + 1), &port) || port < 0 || port > 65535) return false;
  n->ip = std::string(a.substr(0, colon));
  n->port = static_cast<int>(port);
  n->cport = static_cast<int>(at == std::string_view::npos ? port + 10000 : cport);
  return true;
}

ClusterNode* FindOrAdd(ClusterState* s, std::string_view id) {
  ClusterNode* n = s->Find(id);
  return n ? n : s->AddNode(std::string(id), 0);
}

// `[slot->-id]` or `[slot-<-id]` on myself's line.
bool ParseOpenSlot(std::string_view t, ClusterState* s) {
  if (t.size() < 3 || t.back() != ']') return false;
  t = t.substr(1, t.size() - 2);
  const size_t arrow = t.find("-");
  if (arrow == std::string_view::npos || t.size() < arrow + 3) return false;
  int slot = 0;
  if (!ParseSlot(t.substr(0, arrow), &slot)) return false;
  const std::string_view dir = t.substr(arrow, 3);
  const std::string_view id = t.substr(arrow + 3);
  if (!IsNodeId(id)) return false;
  if (dir == "->-") {
    s->SetMigrating(slot, FindOrAdd(s, id));
  } else if (dir == "-<-") {
    s->SetImporting(slot, FindOrAdd(s, id));
  } else {
    return false;
  }
  return true;
}

std::string ParseVars(const std::vector<std::string_view>& f, ClusterState* s) {
  if (f.size() % 2 != 1) return "bad vars line";
  for (size_t i = 1; i + 1 < f.size(); i += 2) {
    uint64_t v = 0;
    int64_t sv = 0;
    if (!ParseInt64(f[i + 1], &sv) || sv < 0) return "bad vars value";
    v = static_cast<uint64_t>(sv);
    if (f[i] == "currentEpoch") {
      s->current_epoch = v;
    } else if (f[i] == "lastVoteEpoch") {
      s->last_vote_epoch = v;
    } else {
      return "unknown vars field";
    }
  }
  return "";
}

std::string ParseNodeLine(const std::vector<std::string_view>& f, ClusterState* s) {
  if (f.size() < 8) return "a node line with fewer than 8 fields";
  if (!IsNodeId(f[0])) return "a bad node id";
  ClusterNode* n = FindOrAdd(s, f[0]);
  if (!ParseAddress(f[1], n)) return "a bad address";
  for (std::string_view flag : SplitOn(f[2], ',')) {
    bool known = flag == "noflags";
    for (const FlagName& fn : kFlagNames) {
      if (flag == fn.name) {
        n->flags |= fn.bit;
        known = true;
      }
    }
    if (!known) return "an unknown flag";
  }
  if (n->is_myself()) {
    if (s->myself() && s->myself() != n) return "two myself lines";
    s->set_myself(n);
  }
  if (f[3] != "-") {
    if (!IsNodeId(f[3])) return "a bad primary id";
    s->SetPrimary(n, FindOrAdd(s, f[3]));
  }
  int64_t ping = 0, pong = 0, epoch = 0;
  if (!ParseInt64(f[4], &ping) || !ParseInt64(f[5], &pong) || !ParseInt64(f[6], &epoch) ||
      epoch < 0) {
    return "a bad number";
  }
  n->config_epoch = static_cast<uint64_t>(epoch);
  if (f[7] != "connected" && f[7] != "disconnected") return "a bad link state";
  for (size_t i = 8; i < f.size(); i++) {
    if (f[i].front() == '[') {
      if (!ParseOpenSlot(f[i], s)) return "a bad open slot";
      continue;
    }
    const size_t dash = f[i].find('-');
    int first = 0, last = 0;
    if (!ParseSlot(f[i].substr(0, dash), &first)) return "a bad slot";
    last = first;
    if (dash != std::string_view::npos && !ParseSlot(f[i].substr(dash + 1), &last)) {
      return "a bad slot";
    }
    if (last < first) return "a bad slot range";
    for (int slot = first; slot <= last; slot++) s->SetOwner(slot, n);
  }
  return "";
}

}  // namespace

std::string NodeFlagsText(uint16_t flags) {
  std::string out;
  for (const FlagName& f : kFlagNames) {
    if (!(flags & f.bit)) continue;
    if (!out.empty()) out += ',';
    out += f.name;
  }
  return out.empty() ? "noflags" : out;
}

std::string NodeAddressText(const ClusterNode& n) {
  std::string out = n.ip + ':' + std::to_string(n.port) + '@' + std::to_string(n.cport);
  if (!n.hostname.empty()) out += ',' + n.hostname;
  return out;
}

std::string NodeLine(const ClusterState& s, const ClusterNode& n) {
  const uint64_t epoch = n.is_replica() && n.primary ? n.primary->config_epoch : n.config_epoch;
  std::string out = n.id + ' ' + NodeAddressText(n) + ' ' + NodeFlagsText(n.flags) + ' ' +
                    (n.primary ? n.primary->id : "-") + ' ' + std::to_string(n.ping_sent_ms) +
                    ' ' + std::to_string(n.pong_received_ms) + ' ' + std::to_string(epoch) +
                    ' ' + (n.link || n.is_myself() ? "connected" : "disconnected");
  int start = -1;
  for (int slot = 0; slot <= kClusterSlots; slot++) {
    const bool mine = slot < kClusterSlots && n.slots.test(slot);
    if (mine && start < 0) start = slot;
    if (!mine && start >= 0) {
      AppendRange(&out, start, slot - 1);
      start = -1;
    }
  }
  if (n.is_myself()) {
    for (int slot = 0; slot < kClusterSlots; slot++) {
      if (const ClusterNode* to = s.migrating_to(slot)) {
        out += " [" + std::to_string(slot) + "->-" + to->id + ']';
      } else if (const ClusterNode* from = s.importing_from(slot)) {
        out += " [" + std::to_string(slot) + "-<-" + from->id + ']';
      }
    }
  }
  return out;
}

std::string FormatNodesConf(const ClusterState& s) {
  std::string out;
  for (const ClusterNode* n : s.nodes()) {
    if (n->in_handshake()) continue;
    out += NodeLine(s, *n) + '\n';
  }
  out += "vars currentEpoch " + std::to_string(s.current_epoch) + " lastVoteEpoch " +
         std::to_string(s.last_vote_epoch) + '\n';
  return out;
}

std::string ParseNodesConf(std::string_view text, ClusterState* s) {
  bool any = false;
  for (std::string_view line : SplitOn(text, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::vector<std::string_view> f = SplitSpaces(line);
    if (f.empty()) continue;
    any = true;
    std::string why = f[0] == "vars" ? ParseVars(f, s) : ParseNodeLine(f, s);
    if (!why.empty()) return why;
  }
  if (any && !s->myself()) return "no myself line";
  return "";
}

}  // namespace rankd
