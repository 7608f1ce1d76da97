// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Client eviction (maxmemory-clients, Redis 7.0): when the memory all
// normal and pub/sub clients hold together passes the limit, the largest
// clients are closed, one at a time, until the total is back under it.
//
// What a client holds (ClientMemory) is what CLIENT LIST's tot-mem shows:
// its fixed state, the query and reply buffers' allocated sizes, queued
// MULTI commands, and a per-entry charge for WATCHed keys, subscriptions and
// tracking prefixes. Replicas, the master client, MONITOR clients and
// clients without a connection are neither counted nor evicted; a client
// that set CLIENT NO-EVICT ON is counted but never evicted.
//
// The check runs once per event-loop iteration (Server::BeforeFlush), after
// the iteration's reads and commands, and costs one pass over the clients,
// only while maxmemory-clients is set (a field read otherwise). A client whose reply already passed
// its output-buffer hard limit is being closed and counts for nothing.

#pragma once

#include <cstdint>
#include <string_view>

namespace rankd {

class Server;
struct Config;
struct Client;

// Bytes `c` holds (see above), without the arguments of a command it runs.
int64_t ClientMemory(const Client& c);

// The limit in bytes for a maxmemory-clients value: a memory amount, or a
// percentage of `maxmemory` ("5%"; 0 when maxmemory is 0). 0: no limit.
int64_t ClientEvictionLimit(std::string_view setting, int64_t maxmemory);
// The same for `config`'s maxmemory-clients and maxmemory (the server keeps
// it, recomputed at each config change).
int64_t ClientEvictionLimit(const Config& config);

// Closes the largest evictable clients of `server` while the total held by
// counted clients exceeds `limit`. Returns how many were closed; INFO
// evicted_clients (ServerStats) counts them.
int64_t EvictClients(Server& server, int64_t limit);

}  // namespace rankd
