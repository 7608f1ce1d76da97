// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Keys left in a slot this node lost to a newer configuration (an UPDATE,
// or another master claiming the slot under a higher config epoch; not an
// import, whose keys were migrated first). Redis 7.0 calls such slots
// "dirty" and deletes their keys at once so that keys and slot ownership
// agree; so does rankd. As in Redis 7.0.15, the deletions are local: they
// are not propagated to replicas or the append-only log, and nothing is
// notified (a replica drops them when it follows the new configuration).

#include <string>
#include <vector>

#include "base/logging.h"
#include "cluster/cluster.h"
#include "db/database.h"

namespace rankd {

void Cluster::DeleteKeysInSlot(int slot) {
  Database& db = server_.db(0);
  const SlotIndex* index = db.slot_index();
  if (index == nullptr || index->Count(slot) == 0) return;
  std::vector<std::string> keys;
  keys.reserve(index->Count(slot));
  index->ForSlot(slot, index->Count(slot),
                 [&keys](const KeyEntry* e) { keys.emplace_back(e->key()); });
  for (const std::string& key : keys) db.Delete(key);
  LOG_NOTICE("Deleted %zu keys of slot %d: the slot is now served by another node",
              keys.size(), slot);
}

}  // namespace rankd
