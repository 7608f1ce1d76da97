// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Database: one numbered keyspace (SELECT n). Maps keys to Values with an
// optional expiry, and is the one place every key mutation passes through,
// so that WATCH, blocked clients and (later) the append-only log see them.
//
// Expiry: an expired key is invisible: every lookup checks the deadline and
// deletes the key lazily. ActiveExpire() reclaims keys nobody reads, sampling
// the keys that have a deadline as Redis's active expire cycle does.
//
// Modification signals: commands call Touch(key) after changing a key (Redis
// signalModifiedKey). That marks WATCHers dirty and, when a client is blocked
// on the key, queues it as ready for the server to serve after the command.
// Not thread-safe: the owning shard thread only.

#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "base/str_hash.h"
#include "core/scan_table.h"
#include "db/lfu.h"
#include "db/value.h"

namespace rankd {

// A client's WATCH state: set dirty when any watched key changes.
struct Watcher {
  bool dirty = false;
};

class Database {
 public:
  struct Entry {
    Entry* next = nullptr;
    uint64_t hash = 0;
    std::string key_bytes;
    Value value;
    int64_t expire_ms = -1;        // unix ms deadline, -1: none
    uint32_t expire_pos = 0;       // index in expiring_ when expire_ms >= 0
    uint8_t lfu_counter = kLfuInitVal;  // db/lfu.h (OBJECT FREQ, LFU eviction)
    uint16_t lfu_minutes = 0;           // minute of its last decrement
    int64_t access_ms = 0;         // last access (OBJECT IDLETIME, LRU eviction)
    std::string_view key() const { return key_bytes; }
  };

  explicit Database(int index) : index_(index) {}
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  int index() const { return index_; }
  size_t size() const { return table_.size(); }
  size_t expires_size() const { return expiring_.size(); }

  // The live entry for `key`, or nullptr if absent or expired (an expired key
  // is deleted here). Updates the access time unless `touch_access` is false.
  Entry* Find(std::string_view key, bool touch_access = true);
  // Like Find but never deletes and never updates access time (read-only
  // inspection: returns nullptr for expired keys too).
  const Entry* Peek(std::string_view key) const;

  // True if `key` is stored but its deadline has passed (not yet deleted).
  // EXEC uses it: a WATCHed key that expired counts as modified.
  bool IsExpiredButPresent(std::string_view key) const {
    const Entry* e = table_.Find(key);
    return e && IsExpired(e);
  }

  // Inserts `key` -> `value` with no expiry. REQUIRES: key absent (call Find
  // first). Returns the new entry.
  Entry* Insert(std::string_view key, Value value);
  // Sets `key` to `value`, replacing any old value and clearing its expiry
  // unless `keep_ttl`. Returns the entry.
  Entry* Set(std::string_view key, Value value, bool keep_ttl = false);
  // Deletes `key`; false if it was absent (or expired).
  bool Delete(std::string_view key);
  // Moves the entry out of this database (MOVE, RENAME): the caller owns it,
  // deadline included. nullptr if absent.
  Entry* Detach(std::string_view key);
  // Adopts an entry detached from a database (possibly under a new key).
  // REQUIRES: its key is absent here.
  void Attach(Entry* e);

  // Sets the deadline (unix ms) of a live entry; -1 removes it.
  void SetExpire(Entry* e, int64_t expire_ms);

  // Expiry of keys nobody reads: samples keys with deadlines and deletes the
  // expired ones, until fewer than a quarter of a sample are expired or
  // `budget_us` runs out. Returns how many keys were deleted.
  size_t ActiveExpire(int64_t budget_us);

  // One SCAN step over keys; visits live entries only.
  uint64_t Scan(uint64_t cursor, size_t count, const std::function<void(Entry*)>& fn);
  // Visits every live entry (KEYS).
  void ForEach(const std::function<void(Entry*)>& fn);
  // A random live key's entry, or nullptr when empty.
  Entry* Random();
  // A random live key that has a deadline, or nullptr when there is none
  // (volatile-* eviction). Expired ones met are deleted.
  Entry* RandomVolatile();

  // Access tracking for LFU eviction: while `s->enabled`, every touching
  // lookup updates the key's LFU counter. `s` must outlive the database.
  void set_lfu(const LfuSettings* s) { lfu_ = s; }
  const LfuSettings& lfu() const { return *lfu_; }

  // Deletes every key (FLUSHDB), touching every watched key.
  void Clear();
  // Exchanges contents with `other` (SWAPDB): watchers and blocked clients
  // stay with their database index and are touched.
  void SwapContents(Database& other);

  // --- Modification signals ---
  // Marks `key` modified: WATCHers dirty; blocked clients' key ready.
  void Touch(std::string_view key);
  void Watch(std::string_view key, Watcher* w);
  void Unwatch(std::string_view key, Watcher* w);
  // Keys with blocked clients that were touched since the last call.
  void AddBlockedKey(std::string_view key) { blocked_keys_[std::string(key)]++; }
  void RemoveBlockedKey(std::string_view key);
  std::vector<std::string> TakeReadyKeys() { return std::move(ready_keys_); }
  bool has_ready_keys() const { return !ready_keys_.empty(); }

  // Called with each key deleted because it expired (lazily or actively),
  // before it is freed: the log records it as a DEL.
  std::function<void(int db, std::string_view key)> on_expired;

  // Every Touch increments *counter (the server's count of modifications).
  void set_modification_counter(uint64_t* counter) { mod_counter_ = counter; }

  // Count of keys deleted because they expired (INFO expired_keys).
  uint64_t expired_count() const { return expired_count_; }

 private:
  bool IsExpired(const Entry* e) const;
  void Free(Entry* e);  // unlinks from expiring_ and deletes
  void RemoveFromExpiring(Entry* e);
  void TouchWatchedExisting(const Database* replacement);

  int index_;
  ScanTable<Entry> table_;
  std::vector<Entry*> expiring_;  // entries with a deadline, any order
  absl::flat_hash_map<std::string, std::vector<Watcher*>, StrHash, StrEq> watched_;
  absl::flat_hash_map<std::string, int, StrHash, StrEq> blocked_keys_;  // key -> blocked count
  std::vector<std::string> ready_keys_;
  std::mt19937_64 rng_{0x72616e6b64ULL};
  uint64_t expired_count_ = 0;
  uint64_t local_mods_ = 0;
  uint64_t* mod_counter_ = &local_mods_;
  static inline const LfuSettings kNoLfu{};
  const LfuSettings* lfu_ = &kNoLfu;
};

}  // namespace rankd
