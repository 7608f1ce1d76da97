// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Expiry of hash fields (Redis 7.4's HEXPIRE family): the Database part.
// A field past its deadline is removed the first time a command looks at
// its hash (the command layer calls ExpireFields from its lookups) or by
// the cron's active pass over the hashes registered here, whichever comes
// first; either way the removal is logged as HDEL, so replays and
// snapshots never bring an expired field back. A replica removes none
// itself: the primary's HDEL does (db/replica_expiry.cc).

#include <string>
#include <vector>

#include "db/database.h"

namespace rankd {

Database::Entry* Database::ExpireFields(Entry* e, int64_t now_ms) {
  if (replica_->replica) return e;
  Hash& h = e->value.hash();
  const int64_t next = h.NextFieldDeadline();
  if (next < 0 || next > now_ms) return e;
  std::vector<std::string> gone = h.RemoveExpired(now_ms);
  std::string key(e->key());
  if (on_fields_expired) on_fields_expired(index_, key, gone, h.empty());
  if (!h.empty()) {
    Touch(key);
    return e;
  }
  Delete(key);
  Touch(key);
  return nullptr;
}

size_t Database::ActiveExpireFields(int64_t now_ms, size_t max_keys) {
  if (replica_->replica) return 0;
  // One pass over the registry finds the due hashes and the stale names
  // (deleted, renamed away, overwritten, persisted); then both are handled.
  std::vector<std::string> due, stale;
  for (const std::string& k : field_ttl_keys_) {
    const Entry* e = table_.Find(k);
    if (!e || e->value.type() != ValueType::kHash || !e->value.hash().has_field_deadlines()) {
      stale.push_back(k);
      continue;
    }
    const int64_t next = e->value.hash().NextFieldDeadline();
    if (next >= 0 && next <= now_ms && due.size() < max_keys) due.push_back(k);
  }
  for (const std::string& k : stale) field_ttl_keys_.erase(k);
  size_t removed = 0;
  for (const std::string& k : due) {
    Entry* e = Find(k, false);
    if (!e) continue;
    const size_t before = e->value.hash().size();
    e = ExpireFields(e, now_ms);
    removed += before - (e ? e->value.hash().size() : 0);
    if (!e || !e->value.hash().has_field_deadlines()) field_ttl_keys_.erase(k);
  }
  return removed;
}

}  // namespace rankd
