// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// nodes.conf, in Redis 7.0's format: one line per node as CLUSTER NODES
// prints it,
//   <id> <ip>:<port>@<cport>[,<hostname>] <flags> <primary id|-> <ping-sent>
//   <pong-received> <config-epoch> <connected|disconnected> <slot ranges...>
// myself's line adding its open migrations as [slot->-<id>] (migrating) and
// [slot-<-<id>] (importing), then "vars currentEpoch N lastVoteEpoch M".
// Pure text <-> ClusterState; writing the file is cluster.cc's.

#pragma once

#include <string>
#include <string_view>

#include "cluster/cluster_state.h"

namespace rankd {

// The comma-separated flags ("myself,master", "slave", "fail?", "noflags").
std::string NodeFlagsText(uint16_t flags);
// "ip:port@cport" plus ",hostname" when it has one.
std::string NodeAddressText(const ClusterNode& n);
// One CLUSTER NODES line (no line end). `now_ms`: unused; times are the
// node's own.
std::string NodeLine(const ClusterState& s, const ClusterNode& n);
// The whole file: every node's line, then the vars line.
std::string FormatNodesConf(const ClusterState& s);

// Loads `text` into `s` (which must be empty: no nodes). Returns "" on
// success, else why the file is corrupt. An empty text (or only blank
// lines) is no error and adds nothing: the caller makes a new node.
std::string ParseNodesConf(std::string_view text, ClusterState* s);

}  // namespace rankd
