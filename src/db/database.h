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
// Member expiry (issue 17): a sorted set's members may have deadlines
// (SortedSet::SetMemberExpire). An entry whose set has any is indexed by its
// earliest member deadline; Find reclaims the due members of the key it
// returns, so no command ever sees an expired member, and
// ActiveExpireMembers reclaims them for keys nobody reads by walking that
// index from the earliest deadline (never scanning a set). Each reclaim is
// reported through on_members_expired (the log records it as ZREM) and
// touches the key; a key whose last member expires is deleted. Commands that
// change member deadlines call SyncMemberExpire afterwards.
//
// On a replica (Redis 7.0 expireIfNeeded with masterhost set) nothing
// expires by itself: see ReplicaExpiry and db/replica_expiry.cc.
//
// Modification signals: commands call Touch(key) after changing a key (Redis
// signalModifiedKey). That marks WATCHers dirty and, when a client is blocked
// on the key, queues it as ready for the server to serve after the command.
// Not thread-safe: the owning shard thread only.

#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/btree_set.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "base/str_hash.h"
#include "core/scan_table.h"
#include "db/entry.h"
#include "db/slot_index.h"
#include "db/lfu.h"
#include "db/lazy_free.h"
#include "db/value.h"

namespace rankd {

// A client's WATCH state: set dirty when any watched key changes.
struct Watcher {
  bool dirty = false;
};

// How expiry behaves on a replica. The server owns one, shared by its
// databases, and updates it as its role and the running command change.
struct ReplicaExpiry {
  // This server replicates a primary. Its keys past their deadline read as
  // missing to its own clients (GET, EXISTS, TTL, KEYS, SCAN) but stay in
  // place (DBSIZE counts them) until the primary's DEL arrives; due sorted
  // set members and hash fields are not removed here either (the primary's
  // ZREM / HDEL remove them), so the data stays the primary's.
  bool replica = false;
  // The running command comes from the primary's stream (or the log
  // replay): nothing is expired for it, so it acts on a key the primary
  // still has as the primary did (Redis: "keys are never expired for the
  // master").
  bool from_primary = false;
  // The running command is a write of the replica's own client (a writable
  // replica): a key past its deadline that it looks up is deleted (Redis
  // lookupKeyWrite), and a deadline it sets is the replica's own to expire
  // (Redis slaveKeysWithExpire: ActiveExpire on a replica).
  bool local_write = false;
};

class Database {
 public:
  using Entry = KeyEntry;  // db/entry.h

  explicit Database(int index) : index_(index) {}
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  int index() const { return index_; }
  size_t size() const { return table_.size(); }
  size_t expires_size() const { return expiring_.size(); }
  // The key table's chain statistics (DEBUG HTSTATS). O(buckets + keys).
  ChainStats KeyTableStats() const { return table_.Stats(); }
  // Slots of the open-addressing table of deadlines (DEBUG HTSTATS).
  size_t expires_capacity() const { return deadlines_.capacity(); }

  // The live entry for `key`, or nullptr if absent or expired (an expired key
  // is deleted here, except while paused and on a replica: ReplicaExpiry).
  // Updates the access time unless `touch_access` is false.
  Entry* Find(std::string_view key, bool touch_access = true);
  // Like Find but never deletes and never updates access time (read-only
  // inspection: returns nullptr for expired keys too).
  const Entry* Peek(std::string_view key) const;
  // The entry for `key` even if its deadline passed (DEBUG OBJECT, as
  // Redis's raw lookup): no expiry, no access time.
  const Entry* PeekRaw(std::string_view key) const { return Lookup(key); }

  // Group prefetching (issue 16): starts loading what a command on `key`
  // (and, for a sorted set, on its `member`; "" for none) will touch, in
  // two steps, step 1 once step 0's loads arrived: step 0 the key's bucket
  // and the member's index slot, step 1 the key's entry and the member's
  // records. Only live addresses are hinted (base/prefetch.h).
  // A hint only: no expiry, no access time, nothing changes.
  void Prefetch(std::string_view key, std::string_view member, int step) const;

  // True if `key` is stored but its deadline has passed (not yet deleted).
  // EXEC uses it: a WATCHed key that expired since WATCH counts as modified.
  bool IsExpiredButPresent(std::string_view key) const {
    const Entry* e = Lookup(key);
    return e && IsExpired(e);
  }

  // Inserts `key` -> `value` with no expiry. REQUIRES: key absent (call Find
  // first). Returns the new entry.
  Entry* Insert(std::string_view key, Value value);
  // Sets `key` to `value`, replacing any old value (freed lazily under the
  // policy's server_del) and clearing its expiry unless `keep_ttl`. Returns
  // the entry.
  Entry* Set(std::string_view key, Value value, bool keep_ttl = false);
  // Deletes `key` as a command does implicitly (RENAME's destination, a
  // STORE destination): its value is freed lazily under the lazy-free
  // policy's server_del. False if it was absent (or expired).
  bool Delete(std::string_view key);
  // Deletes `key` and frees its value at once (DEL, eviction without
  // lazyfree-lazy-eviction). False if it was absent (or expired).
  bool DeleteSync(std::string_view key);
  // Deletes `key` because a command gave it a deadline in the past (EXPIRE,
  // GETEX): freed lazily under the policy's expire, as Redis.
  bool DeleteExpired(std::string_view key);
  // Delete, with the value handed to `freer` (UNLINK, lazy eviction): a
  // large value is destroyed off the event loop (db/lazy_free.h).
  // `count_bytes`: see LazyFreer::Free (eviction).
  bool DeleteLazily(std::string_view key, LazyFreer& freer, bool count_bytes = false);
  // Deletes the live entry `e` (from Random / RandomVolatile: eviction)
  // without looking its key up again; with `freer`, as DeleteLazily with
  // count_bytes, else freed at once.
  void DeleteEntry(Entry* e, LazyFreer* freer = nullptr);
  // Moves the entry out of this database (MOVE, RENAME): the caller owns it.
  // Its deadline stays here (read ExpireMs first; set it again after
  // Attach). nullptr if absent.
  Entry* Detach(std::string_view key);
  // Adopts an entry detached from a database (KeyEntry::Rekey gives it a
  // new key). REQUIRES: its key is absent here.
  void Attach(Entry* e);

  // Sets the deadline (unix ms) of a live entry; -1 removes it.
  void SetExpire(Entry* e, int64_t expire_ms);
  // The deadline (unix ms) of `e`, or -1 when it has none.
  int64_t ExpireMs(const Entry* e) const {
    return e->has(Entry::kHasExpire) ? deadlines_.find(e)->second.ms : -1;
  }
  // Milliseconds since `e` was last accessed (OBJECT IDLETIME, LRU
  // eviction). Meaningful while no LFU policy is selected.
  static int64_t IdleMs(const Entry* e) { return LruIdleMs(e->access()); }
  // The decayed LFU counter of `e` (OBJECT FREQ, LFU eviction). Meaningful
  // while an LFU policy is selected.
  uint8_t LfuFrequency(const Entry* e) const { return LfuFreq(e->access(), *lfu_); }

  // Re-reads the earliest member deadline of `e`'s value (a sorted set, or
  // anything else: none) into the member expiry index. Call after changing
  // member deadlines. O(log k) for k indexed keys.
  void SyncMemberExpire(Entry* e);
  // Reclaims the due members of keys in deadline order until none is due or
  // `budget_us` runs out. Returns how many members were removed.
  size_t ActiveExpireMembers(int64_t budget_us);
  // The earliest member deadline of any key here, or -1. O(1).
  int64_t next_member_expire() const {
    return member_expiring_.empty() ? -1 : member_expiring_.begin()->first;
  }
  // Members removed because they expired (INFO expired_members).
  uint64_t expired_members() const { return expired_members_; }

  // Expiry of keys nobody reads: samples keys with deadlines and deletes the
  // expired ones, until fewer than a quarter of a sample are expired or
  // `budget_us` runs out. Returns how many keys were deleted. On a replica
  // only the keys whose deadline a local write set expire (all of them
  // that are due, as Redis expireSlaveKeys); the rest wait for the primary.
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
  // Which deletions this database makes on its own are freed lazily
  // (db/lazy_free.h). `p` must outlive the database; default: none.
  void set_lazy_free(const LazyFreePolicy* p) { lazy_ = p; }
  const LfuSettings& lfu() const { return *lfu_; }
  // The server's replica expiry state (above). `r` must outlive the
  // database; default: a primary's.
  void set_replica_expiry(const ReplicaExpiry* r) { replica_ = r; }

  // Deletes every key (FLUSHDB), touching every watched key. With `freer`
  // (FLUSHDB ASYNC) the keys are destroyed on its thread, counted as one
  // lazily freed object each.
  void Clear(LazyFreer* freer = nullptr);
  // Exchanges contents with `other` (SWAPDB): watchers and blocked clients
  // stay with their database index and are touched.
  void SwapContents(Database& other);

  // Cluster mode: keys indexed by slot from now on (db/slot_index.h).
  void EnableSlotIndex();
  const SlotIndex* slot_index() const { return slots_.get(); }

  // --- Modification signals ---
  // Marks `key` modified: WATCHers dirty; blocked clients' key ready. The
  // common case (nobody watches or waits on a key of this database, nobody
  // listens to touches) is a few inline checks.
  void Touch(std::string_view key) {
    ++*mod_counter_;
    if (!watched_.empty() || !blocked_keys_.empty() || (on_touch && touch_listened_())) {
      TouchSlow(key);
    }
  }
  // Adds `w` to `key`'s watchers. A key already past its deadline is
  // watched as expired (Redis 7.0 watchedKey.expired): its deletion by
  // expiry, a lookup or a flush is then no change (the flag is cleared, so
  // a later write still is one), and EXEC does not count it as expired.
  void Watch(std::string_view key, Watcher* w);
  void Unwatch(std::string_view key, Watcher* w);
  // Whether `w` watches `key` as expired (see Watch).
  bool WatchedAsExpired(std::string_view key, const Watcher* w) const;
  // Queues `key` for its blocked clients to be retried, without marking it
  // modified (a member's due time came: BZPOPDUE). No-op if none waits.
  void SignalReady(std::string_view key);
  // Keys with blocked clients that were touched since the last call.
  void AddBlockedKey(std::string_view key) { blocked_keys_[std::string(key)]++; }
  void RemoveBlockedKey(std::string_view key);
  std::vector<std::string> TakeReadyKeys() { return std::move(ready_keys_); }
  bool has_ready_keys() const { return !ready_keys_.empty(); }

  // Called with each key deleted because it expired (lazily or actively),
  // before it is freed: the log records it as a DEL.
  std::function<void(int db, std::string_view key)> on_expired;
  // Called with the members of `key` removed because their deadline passed,
  // after they are removed, and whether that left the set empty (the key
  // is gone): the log records them as ZREM key member ..., the hub
  // publishes "zexpired" (and "del" when emptied).
  std::function<void(int db, std::string_view key, const std::vector<std::string>& members,
                     bool emptied)>
      on_members_expired;

  // Periodic leaderboards (issue 17): Find rolls a periodic board whose open
  // period has ended (PeriodNowMs) before returning it, and reports each
  // roll here with the new open period's id (the log and the replicas
  // record it as LB.ROLL key id, so that they never roll on their own).
  std::function<void(int db, std::string_view key, const std::string& period_id)> on_period_rolled;
  // Whether Find may roll boards now: false while the log is replayed and on
  // a replica (they apply the LB.ROLLs of the stream). Unset: always.
  std::function<bool()> may_roll_periods;

  // Stable views (issue 17): Find takes a new view of a board with SNAPSHOT
  // EVERY whose view is due (none yet, or older than the schedule) before
  // returning it, when may_roll_periods allows (never on a replica or while
  // the log is replayed), and reports it here (the log and the replicas
  // record it as LB.SNAPSHOT key).
  std::function<void(int db, std::string_view key)> on_view_taken;

  // --- Boards that change with time (db/board_views.cc) ---
  // A periodic board, or one with SNAPSHOT EVERY, changes when the clock
  // crosses a boundary, whether or not anybody reads it. The database keeps
  // the names of such "timed" boards so that ActiveBoards (the server's
  // cron) rolls them and takes their views at the boundary; the roll then
  // reaches LB.WATCH, tracking, keyspace events, the log and the replicas
  // as a lookup's roll does. Insert / Set / Attach register such boards
  // themselves; a command that makes an existing board timed calls
  // NoteTimedBoard.
  void NoteTimedBoard(std::string_view key) { timed_boards_.emplace(key); }
  bool has_timed_boards() const { return !timed_boards_.empty(); }
  // Looks up each registered board (rolling it and taking a due view) and
  // forgets names that no longer hold one. O(timed boards): O(1) each until
  // a boundary is crossed.
  void ActiveBoards();
  // What INFO leaderboards counts (issue 33), over the live keys.
  struct BoardCounts {
    size_t boards = 0;      // keys holding a leaderboard
    size_t periodic = 0;    // ... that is periodic (PERIOD)
    size_t scheduled = 0;   // ... that has SNAPSHOT EVERY
    size_t views = 0;       // ... that holds a stable view now
  };
  // Counts the boards by the names registered when they were stored,
  // forgetting names that no longer hold one. O(boards), not O(keys).
  BoardCounts CountBoards();
  // Keys whose set has member deadlines, and how many members have one.
  // O(keys with member deadlines).
  size_t member_deadline_keys() const { return member_deadline_.size(); }
  size_t PendingMemberDeadlines() const;

  // While paused (CLIENT PAUSE), expired keys read as missing but are not
  // deleted, and ActiveExpire is not called (the server's cron checks).
  void set_expiry_paused(bool paused) { expiry_paused_ = paused; }
  // While the log is replayed no key expires (Redis keyIsExpired while
  // loading): a key whose deadline passed since it was logged is still
  // there for the commands logged after it, as when they first ran, and
  // expires once the replay is over.
  void set_expiry_suspended(bool suspended) { expiry_suspended_ = suspended; }

  // Called by every Touch (after WATCH and blocked-key bookkeeping) and by
  // Clear: the hub's "key changed" / "everything gone" signals.
  std::function<void(int db, std::string_view key)> on_touch;
  // Whether on_touch has anything to do now; Touch skips the call when not.
  // Unset: always call it. REQUIRES: cheap and without effects.
  bool (*touch_listened)(const void* arg) = nullptr;
  const void* touch_listened_arg = nullptr;
  std::function<void(int db)> on_flush;
  // Called by SwapContents for both databases (SWAPDB, a load): every key
  // may now hold something else.
  std::function<void(int db)> on_swap;

  // Called with each key added to this database (Insert, Attach), after
  // it is in place: Redis's "new" keyspace event.
  std::function<void(int db, std::string_view key)> on_new_key;

  // --- Hash field deadlines (HEXPIRE & co.) ---
  // Registers `key` as a hash with field deadlines, for active expiry.
  // Insert / Set / Attach register such hashes themselves (RENAME, COPY,
  // MOVE, loading); HEXPIRE calls this for a hash it gave a first deadline.
  void NoteFieldDeadlines(std::string_view key) { field_ttl_keys_.emplace(key); }
  // Removes the fields of hash entry `e` whose deadline is <= now_ms,
  // reporting them through on_fields_expired, and deletes the key (touching
  // it) when no field is left. Returns `e`, or nullptr when it was deleted.
  // REQUIRES: e holds a hash.
  Entry* ExpireFields(Entry* e, int64_t now_ms);
  // Active expiry of hash fields: visits up to `max_keys` registered hashes
  // and expires their due fields; forgets keys that no longer hold a hash
  // with deadlines. Returns the number of fields removed.
  size_t ActiveExpireFields(int64_t now_ms, size_t max_keys);
  bool has_field_deadlines() const { return !field_ttl_keys_.empty(); }
  // Called with the fields of `key` removed because their deadline passed,
  // and whether that left the hash empty (the key is deleted next): the log
  // records them as HDEL key field..., the hub publishes "hexpired" (and
  // "del" when emptied).
  std::function<void(int db, std::string_view key, const std::vector<std::string>& fields,
                     bool emptied)>
      on_fields_expired;

  // Every Touch increments *counter (the server's count of modifications).
  void set_modification_counter(uint64_t* counter) { mod_counter_ = counter; }

  // Count of keys deleted because they expired (INFO expired_keys).
  uint64_t expired_count() const { return expired_count_; }
  // True while an expired key's removal signals its change (on_touch): the
  // change is the server's, not the running command's (tracking NOLOOP).
  bool expiring_key() const { return expiring_key_; }

 private:
  bool IsExpired(const Entry* e) const;
  // Deletes `k` because its deadline passed (reported through on_expired,
  // counted, touched).
  void ExpireKey(const std::string& k);
  // Whether a lookup deletes a key past its deadline now: not while paused,
  // nor on a replica except for a local write.
  bool DeletesExpired() const {
    return !expiry_paused_ && (!replica_->replica || replica_->local_write);
  }
  // The entry a Delete removes: the live one, or on a replica also one past
  // its deadline (Redis's DEL deletes and counts it there).
  Entry* FindToDelete(std::string_view key) {
    return replica_->replica ? Lookup(key) : Find(key, false);
  }
  // ActiveExpire on a replica: looks at the names of replica_ttl_queue_ in
  // turn, each at most once per call, until `budget_us` is spent; deletes
  // the due keys and forgets names that lost their deadline.
  size_t ExpireReplicaKeys(int64_t budget_us);
  void Free(Entry* e);  // unlinks from expiring_ and deletes
  // Free, with the value handed to the lazy freer when `lazy` (and one is set).
  void Dispose(Entry* e, bool lazy);
  // Free, with the value handed to `freer` when there is one (`count_bytes`:
  // see LazyFreer::Free). Every lazy delete path ends here.
  void Release(Entry* e, LazyFreer* freer, bool count_bytes = false);
  // Removes the due members of `e` (REQUIRES: a member deadline is due), at
  // most `limit` of them (the active cycle's step; lookups take them all).
  // Returns false if that emptied the set and the key was deleted.
  bool ReclaimMembers(Entry* e, int64_t now_ms, size_t limit = SIZE_MAX);
  void IndexMemberExpire(Entry* e, int64_t deadline_ms);
  // Rolls the periodic board of `e` to the current period if it ended.
  void MaybeRollPeriods(Entry* e);
  // Takes the view of `e`'s board if its schedule says so (db/board_views.cc).
  void MaybeTakeView(Entry* e);
  // Registers `e`'s key in board_keys_ (a board) and timed_boards_ (a
  // timed one) when it holds such a board.
  void NoteIfBoard(const Entry* e);
  // Find()s each entry's key (reclaiming it) and visits the survivors.
  void VisitReclaimed(const std::vector<Entry*>& entries, const std::function<void(Entry*)>& fn);
  // True when `e` has a member deadline at or before now.
  bool MembersDue(const Entry* e, int64_t now_ms) const {
    return e->has(Entry::kHasMemberExpire) && MemberExpireMs(e) <= now_ms;
  }
  // The earliest member deadline of `e` as indexed, or -1.
  int64_t MemberExpireMs(const Entry* e) const {
    return e->has(Entry::kHasMemberExpire) ? member_deadline_.find(e)->second : -1;
  }
  void RemoveFromExpiring(Entry* e);
  void TouchWatchedExisting(const Database* replacement);
  void TouchSlow(std::string_view key);  // Touch past its inline checks
  bool touch_listened_() const {
    return touch_listened == nullptr || touch_listened(touch_listened_arg);
  }
  // Registers `e` in field_ttl_keys_ when it is a hash with field deadlines.
  void NoteIfFieldDeadlines(const Entry* e) {
    if (e->value.type() == ValueType::kHash && e->value.hash().has_field_deadlines()) {
      NoteFieldDeadlines(e->key());
    }
  }

  // table_.Find behind a one-entry cache of the last key found: a pipeline
  // names the same key again and again (a leaderboard), and each command
  // looks it up up to three times (two prefetch steps and the command).
  // Every removal from table_ goes through Unlink / UnlinkNode, and every
  // wholesale change (Clear, SwapContents) clears the cache, so hot_ never
  // points at a freed entry.
  Entry* Lookup(std::string_view key) const {
    if (hot_ != nullptr && hot_->key() == key) return hot_;
    Entry* e = table_.Find(key);
    if (e != nullptr) hot_ = e;
    return e;
  }
  Entry* Unlink(std::string_view key) {
    hot_ = nullptr;
    Entry* e = table_.Remove(key);
    if (slots_ && e) slots_->Remove(e);
    return e;
  }
  void UnlinkNode(Entry* e) {
    hot_ = nullptr;
    if (slots_) slots_->Remove(e);
    table_.RemoveNode(e);
  }
  void Link(Entry* e) { table_.Insert(e); if (slots_) slots_->Add(e); }  // index kept in step

  int index_;
  ScanTable<Entry> table_;
  mutable Entry* hot_ = nullptr;  // Lookup's cache
  std::unique_ptr<SlotIndex> slots_;  // cluster mode only
  // Deadlines live beside the entries (only keys with a TTL pay for one):
  // the entry's kHasExpire flag says whether it has one here.
  struct Deadline {
    int64_t ms;    // unix ms
    uint32_t pos;  // index in expiring_
  };
  absl::flat_hash_map<const Entry*, Deadline> deadlines_;
  std::vector<Entry*> expiring_;  // entries with a deadline, any order
  // Earliest member deadline as indexed, for entries flagged kHasMemberExpire.
  absl::flat_hash_map<const Entry*, int64_t> member_deadline_;
  // Entries whose set has member deadlines, by earliest deadline.
  absl::btree_set<std::pair<int64_t, Entry*>> member_expiring_;
  uint64_t expired_members_ = 0;
  // One client's watch on a key; `expired`: see Watch.
  struct WatchRef {
    Watcher* watcher;
    bool expired;
  };
  absl::flat_hash_map<std::string, std::vector<WatchRef>, StrHash, StrEq> watched_;
  absl::flat_hash_map<std::string, int, StrHash, StrEq> blocked_keys_;  // key -> blocked count
  std::vector<std::string> ready_keys_;
  absl::flat_hash_set<std::string, StrHash, StrEq> field_ttl_keys_;
  // Names of keys stored holding a board, and of those that are timed
  // (periodic or SNAPSHOT EVERY); stale names are dropped when met.
  absl::flat_hash_set<std::string, StrHash, StrEq> board_keys_;
  absl::flat_hash_set<std::string, StrHash, StrEq> timed_boards_;
  std::mt19937_64 rng_{0x72616e6b64ULL};
  uint64_t expired_count_ = 0;
  bool expiring_key_ = false;
  bool expiry_paused_ = false;
  bool expiry_suspended_ = false;
  uint64_t local_mods_ = 0;
  uint64_t* mod_counter_ = &local_mods_;
  static inline const LfuSettings kNoLfu{};
  const LfuSettings* lfu_ = &kNoLfu;
  static inline const LazyFreePolicy kNoLazyFree{};
  const LazyFreePolicy* lazy_ = &kNoLazyFree;
  static inline const ReplicaExpiry kPrimary{};
  const ReplicaExpiry* replica_ = &kPrimary;
  // Keys whose deadline a writable replica's own client set (names; stale
  // ones are dropped when met): the only keys a replica expires itself. The
  // set holds each name once; the queue holds the same names in the order
  // the cron visits them (round robin).
  absl::flat_hash_set<std::string, StrHash, StrEq> replica_ttl_keys_;
  std::deque<std::string> replica_ttl_queue_;
};

}  // namespace rankd
