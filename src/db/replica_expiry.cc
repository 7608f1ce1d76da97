// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Expiry on a replica, as Redis 7.0 (expireIfNeeded with masterhost set,
// expireSlaveKeys). A replica's data is its primary's: a key, member or
// hash field goes when the primary's DEL / ZREM / HDEL arrives, never
// because the replica's clock passed its deadline first (it would differ
// from the primary when the primary's PERSIST, or a write that replaced
// the key, was still on its way). Meanwhile, for the replica's own clients:
//   - a key past its deadline reads as missing (Find returns nullptr and
//     leaves it; KEYS, SCAN, EXISTS, TTL skip it), while DBSIZE and INFO
//     keyspace still count it, and DEL / UNLINK delete and count it;
//   - a write of a writable replica's own client deletes such a key it
//     looks up (ReplicaExpiry::local_write) and replaces it;
//   - due members and hash fields stay visible until the primary's ZREM /
//     HDEL arrive (Redis 7.4 hides due hash fields; rankd's sorted-set and
//     hash reads read the stored value as is).
// The primary's stream sees every key as live (ReplicaExpiry::from_primary),
// so its commands act on the key the primary acted on.
//
// The exception, as Redis's slaveKeysWithExpire: a deadline set by a write
// of the replica's own client (a writable replica) is the replica's to
// expire. SetExpire records such keys by name; ActiveExpire (the cron)
// visits them in turn within its time budget (Redis samples them, also
// within a budget), deletes the due ones and forgets names that lost their
// deadline.

#include <string>
#include <vector>

#include "base/clock.h"
#include "db/database.h"

namespace rankd {

size_t Database::ExpireReplicaKeys(int64_t budget_us) {
  const int64_t deadline = MonoUs() + budget_us;
  size_t expired = 0;
  for (size_t i = 0, n = replica_ttl_queue_.size(); i < n; ++i) {
    std::string key = std::move(replica_ttl_queue_.front());
    replica_ttl_queue_.pop_front();
    const Entry* e = Lookup(key);
    if (e == nullptr || !e->has(Entry::kHasExpire)) {
      replica_ttl_keys_.erase(key);
    } else if (IsExpired(e)) {
      replica_ttl_keys_.erase(key);
      ExpireKey(key);
      ++expired;
    } else {
      replica_ttl_queue_.push_back(std::move(key));
    }
    if (i % 64 == 63 && MonoUs() > deadline) break;
  }
  return expired;
}

}  // namespace rankd
