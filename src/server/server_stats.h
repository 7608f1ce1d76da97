// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// ServerStats: the server's counters (INFO stats, commandstats, errorstats,
// memory peaks), owned by Server and reset by CONFIG RESETSTAT.

#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "net/reply.h"
#include "server/command.h"
#include "server/latency.h"

namespace rankd {

struct ServerStats {
  int64_t start_wall_ms = 0;
  int64_t start_mono_ms = 0;
  uint64_t total_commands = 0;
  uint64_t total_connections = 0;
  uint64_t rejected_connections = 0;
  uint64_t keyspace_hits = 0;
  uint64_t keyspace_misses = 0;
  uint64_t net_input_bytes = 0;
  uint64_t net_output_bytes = 0;
  uint64_t dirty = 0;  // writes since the last snapshot
  // Every fork() the server did (snapshot, log rewrite, full sync), and how
  // long the latest took in microseconds (INFO stats; CONFIG RESETSTAT).
  uint64_t total_forks = 0;
  int64_t latest_fork_usec = 0;
  // Clients closed by maxmemory-clients (INFO evicted_clients).
  uint64_t evicted_clients = 0;
  // LazyFreer::freed_objects() at the last CONFIG RESETSTAT: INFO
  // lazyfreed_objects shows what was freed since (the freer's own count
  // only grows; its thread adds to it).
  uint64_t lazyfreed_at_reset = 0;
  // instantaneous_ops_per_sec: samples of total_commands, one per 100 ms.
  uint64_t last_sample_commands = 0;
  int64_t last_sample_ms = 0;
  double ops_per_sec = 0;
  // Per-command calls and microseconds (INFO commandstats), keyed by spec
  // (a pointer hash, not a string hash, on the hot path).
  struct CommandStat {
    std::string name;  // "get", "client|list"
    uint64_t calls = 0;
    uint64_t usec = 0;
    uint64_t failed = 0;    // calls that replied with an error
    uint64_t rejected = 0;  // refused before running (arity, AUTH)
    LatencyHistogram latency;
  };
  absl::flat_hash_map<const CommandSpec*, CommandStat> per_command;
  // Error replies by code (INFO errorstats, total_error_replies).
  ErrorCounts errors;
  // INFO memory: allocator bytes once started, and the highest seen.
  size_t memory_startup = 0;
  size_t memory_peak = 0;
};

}  // namespace rankd
