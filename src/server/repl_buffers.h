// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// What the replicas' links hold unsent: each replica's output buffer plus
// the stream kept aside during its full sync. INFO shows it as
// mem_total_replication_buffers, mem_clients_slaves and
// mem_not_counted_for_evict, and eviction leaves it out of used memory, as
// Redis 7.0 does (a slow replica must not make the primary evict keys).

#pragma once

#include <cstdint>

namespace rankd {

class Server;

// O(replicas).
int64_t ReplicaBufferBytes(Server& server);

}  // namespace rankd
