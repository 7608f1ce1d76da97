// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/repl_buffers.h"

#include "server/server.h"

namespace rankd {

int64_t ReplicaBufferBytes(Server& server) {
  int64_t bytes = 0;
  for (const ReplicaInfo& r : server.replication().replicas()) {
    bytes += static_cast<int64_t>(r.pending.size());
    if (Connection* conn = server.net().Find(r.client_id)) {
      bytes += static_cast<int64_t>(conn->output_buffer_size());
    }
  }
  return bytes;
}

}  // namespace rankd
