// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The routing decision of cluster mode (Cluster::Route).

#include "cluster/cluster.h"

namespace rankd {

std::string Cluster::Route(Client&, const CommandSpec&, std::span<const std::string_view>) {
  return {};
}

}  // namespace rankd
