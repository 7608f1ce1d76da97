// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "cluster/bus.h"

#include "cluster/cluster.h"

namespace rankd {

ClusterBus::ClusterBus(Cluster& cluster) : cluster_(cluster) {}

ClusterBus::~ClusterBus() = default;

Status ClusterBus::Listen(std::string_view, int) {
  return Status::InvalidArgument("the cluster bus is not built yet");
}

void ClusterBus::Publish(std::string_view, std::string_view, bool) {}

}  // namespace rankd
