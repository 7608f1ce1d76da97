// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The cluster-* settings as the cluster reads them. They live in the
// Config's compat maps (server/config_compat.cc declares names, defaults
// and ranges); reading them each time keeps CONFIG SET of the mutable ones
// (node timeout, announced addresses, coverage rules) effective at once.

#pragma once

#include <string>
#include <string_view>

#include "server/config.h"

namespace rankd {

class ClusterSettings {
 public:
  explicit ClusterSettings(const Config& c) : c_(c) {}

  int64_t node_timeout_ms() const { return Int("cluster-node-timeout", 15000); }
  std::string config_file() const { return Str("cluster-config-file", "nodes.conf"); }
  // The bus port: cluster-port, else port + 10000.
  int bus_port() const {
    const int64_t p = Int("cluster-port", 0);
    return static_cast<int>(p ? p : c_.port + 10000);
  }
  std::string announce_ip() const { return Str("cluster-announce-ip", ""); }
  std::string announce_hostname() const { return Str("cluster-announce-hostname", ""); }
  // What other nodes are told: the announced ports, else the real ones.
  int announced_port() const {
    const int64_t p = Int("cluster-announce-port", 0);
    return static_cast<int>(p ? p : c_.port);
  }
  int announced_bus_port() const {
    const int64_t p = Int("cluster-announce-bus-port", 0);
    return p ? static_cast<int>(p) : bus_port();
  }
  std::string preferred_endpoint() const {
    return Str("cluster-preferred-endpoint-type", "ip");
  }
  bool require_full_coverage() const { return Bool("cluster-require-full-coverage", true); }
  bool allow_reads_when_down() const { return Bool("cluster-allow-reads-when-down", false); }
  bool allow_pubsubshard_when_down() const {
    return Bool("cluster-allow-pubsubshard-when-down", true);
  }
  bool allow_replica_migration() const { return Bool("cluster-allow-replica-migration", true); }
  int64_t link_sendbuf_limit() const { return Int("cluster-link-sendbuf-limit", 0); }
  bool replica_no_failover() const { return Bool("cluster-replica-no-failover", false); }
  int64_t replica_validity_factor() const {
    return Int("cluster-replica-validity-factor", 10);
  }
  int64_t migration_barrier() const { return Int("cluster-migration-barrier", 1); }

 private:
  int64_t Int(std::string_view name, int64_t dflt) const { return c_.CompatInt(name, dflt); }
  bool Bool(std::string_view name, bool dflt) const {
    auto it = c_.compat_bools.find(name);
    return it == c_.compat_bools.end() ? dflt : it->second;
  }
  std::string Str(std::string_view name, std::string_view dflt) const {
    auto it = c_.compat_strings.find(name);
    return it == c_.compat_strings.end() ? std::string(dflt) : it->second;
  }

  const Config& c_;
};

}  // namespace rankd
