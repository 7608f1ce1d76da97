// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// ClusterState: what this node believes about the cluster, as Redis 7.0
// keeps it — the known nodes (myself included), which master serves each of
// the 16384 slots, the slots being moved (importing / migrating), and the
// epochs. The bus changes it from messages, the CLUSTER commands from
// operators, the router only reads it. It does no I/O: work that must
// follow a change (write nodes.conf, recompute ok/fail, fsync) is requested
// with Todo() and done once, before the event loop sleeps, by its owner
// (cluster.h).
//
// Nodes are owned here and addressed by pointer; a pointer stays valid
// until Forget/Remove of that node. One thread (the event loop). Not
// thread-safe.

#pragma once

#include <bitset>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "base/key_slot.h"

namespace rankd {

// Node flags, with the bit values Redis's bus carries in its header and
// gossip sections (so they are the interface, not a choice).
enum ClusterNodeFlag : uint16_t {
  kNodeMaster = 1,
  kNodeReplica = 2,
  kNodePFail = 4,
  kNodeFail = 8,
  kNodeMyself = 16,
  kNodeHandshake = 32,
  kNodeNoAddr = 64,
  kNodeMeet = 128,
  kNodeMigrateTo = 256,
  kNodeNoFailover = 512,
};

inline constexpr size_t kNodeIdLen = 40;  // hex characters

using SlotBits = std::bitset<kClusterSlots>;

class ClusterLink;  // the bus's connection to a node (bus_link.h)

struct ClusterNode {
  std::string id;                // 40 lower-case hex characters
  uint16_t flags = 0;            // ClusterNodeFlag bits
  uint64_t config_epoch = 0;
  SlotBits slots;                // the slots this node serves (masters)
  int slot_count = 0;            // slots.count(), kept in step
  ClusterNode* primary = nullptr;       // for a replica: its master (may be unknown: null)
  std::vector<ClusterNode*> replicas;   // for a master
  std::string ip;                // announced or learned address; "" when unknown
  int port = 0;                  // client port (TLS port when tls-cluster)
  int pport = 0;                 // the other client port (plain when TLS is primary)
  int cport = 0;                 // bus port
  std::string hostname;          // cluster-announce-hostname, "" when none
  int64_t ctime_ms = 0;          // when this entry was created (handshake timeout)
  int64_t ping_sent_ms = 0;      // 0 when no ping is awaiting its pong
  int64_t pong_received_ms = 0;
  int64_t data_received_ms = 0;
  int64_t fail_time_ms = 0;      // when FAIL was set
  int64_t voted_time_ms = 0;     // last vote given for this master's replicas
  int64_t repl_offset_time_ms = 0;
  int64_t orphaned_time_ms = 0;
  uint64_t repl_offset = 0;      // last known replication offset
  // Failure reports other masters gossiped about this node (issue 30):
  // reporter -> when the report was last renewed.
  absl::flat_hash_map<ClusterNode*, int64_t> fail_reports;
  // The bus's links: the one this node opened to it (outbound) and the one
  // it opened to us (inbound). Owned by the bus; null when none.
  ClusterLink* link = nullptr;
  ClusterLink* inbound_link = nullptr;

  bool is_master() const { return flags & kNodeMaster; }
  bool is_replica() const { return flags & kNodeReplica; }
  bool is_myself() const { return flags & kNodeMyself; }
  bool failed() const { return flags & kNodeFail; }
  bool in_handshake() const { return flags & kNodeHandshake; }
};

class ClusterState {
 public:
  // Work for before-sleep (bits, ORed): as Redis's clusterDoBeforeSleep.
  enum Todo : uint32_t {
    kTodoSaveConfig = 1,
    kTodoUpdateState = 2,
    kTodoFsyncConfig = 4,
    kTodoHandleFailover = 8,
    kTodoHandleManualFailover = 16,
  };

  ClusterState();
  ClusterState(const ClusterState&) = delete;
  ClusterState& operator=(const ClusterState&) = delete;

  // --- Nodes ---
  // Creates a node entry with `id` (a new random id when empty) and flags.
  // REQUIRES: no node with that id exists.
  ClusterNode* AddNode(std::string id, uint16_t flags);
  // Drops `n` (CLUSTER FORGET, a failed handshake, RESET): its slots become
  // unassigned, replicas lose their primary, its failure reports go.
  // REQUIRES: n is not myself. Pointers to `n` are invalid afterwards.
  void RemoveNode(ClusterNode* n);
  // Changes a node's id (a handshake node learns its real id). REQUIRES: no
  // other node has `id`.
  void RenameNode(ClusterNode* n, std::string id);
  ClusterNode* Find(std::string_view id) const;
  ClusterNode* myself() const { return myself_; }
  void set_myself(ClusterNode* n) { myself_ = n; }
  // Every node, in no particular order (stable between changes).
  const std::vector<ClusterNode*>& nodes() const { return node_list_; }
  // `replica` now replicates `primary` (null: becomes a master without one).
  void SetPrimary(ClusterNode* replica, ClusterNode* primary);

  // --- Slots ---
  ClusterNode* owner(int slot) const { return owner_[slot]; }
  // Assigns `slot` to `n` (null: unassigned), keeping both nodes' bits.
  void SetOwner(int slot, ClusterNode* n);
  // Open slot migrations (CLUSTER SETSLOT IMPORTING / MIGRATING); null when
  // the slot is stable.
  ClusterNode* importing_from(int slot) const { return importing_[slot]; }
  ClusterNode* migrating_to(int slot) const { return migrating_[slot]; }
  void SetImporting(int slot, ClusterNode* from) { importing_[slot] = from; }
  void SetMigrating(int slot, ClusterNode* to) { migrating_[slot] = to; }

  // --- Epochs (uint64, as on the bus) ---
  uint64_t current_epoch = 0;
  uint64_t last_vote_epoch = 0;
  // The highest config epoch any known node has.
  uint64_t MaxConfigEpoch() const;

  // --- Cluster state (CLUSTER INFO cluster_state) ---
  bool ok() const { return ok_; }
  void set_ok(bool ok) { ok_ = ok; }
  // Masters that serve at least one slot (the quorum's electorate).
  int SizedMasters() const;

  // --- Before-sleep work ---
  void Todo(uint32_t what) { todo_ |= what; }
  // Returns the pending work and clears it.
  uint32_t TakeTodo() {
    uint32_t t = todo_;
    todo_ = 0;
    return t;
  }

  // A new random node id (40 hex characters).
  static std::string NewNodeId();

 private:
  absl::flat_hash_map<std::string, std::unique_ptr<ClusterNode>> nodes_;
  std::vector<ClusterNode*> node_list_;
  ClusterNode* myself_ = nullptr;
  std::vector<ClusterNode*> owner_, importing_, migrating_;  // kClusterSlots each
  bool ok_ = false;
  uint32_t todo_ = 0;
};

}  // namespace rankd
