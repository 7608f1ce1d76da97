// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "db/database.h"

#include <algorithm>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/expiry_clock.h"
#include "core/periodic_board.h"

namespace rankd {

bool Database::IsExpired(const Entry* e) const {
  return e->has(Entry::kHasExpire) && !expiry_suspended_ && !replica_->from_primary &&
         ExpireMs(e) <= ExpiryNowMs();
}

void Database::ExpireKey(const std::string& k) {
  if (on_expired) on_expired(index_, k);
  Dispose(Unlink(k), lazy_->expire);
  expired_count_++;
  expiring_key_ = true;
  Touch(k);
  expiring_key_ = false;
}

Database::Entry* Database::Find(std::string_view key, bool touch_access) {
  Entry* e = Lookup(key);
  if (!e) return nullptr;
  if (IsExpired(e)) {
    if (DeletesExpired()) ExpireKey(std::string(key));  // `key` may point into the entry
    return nullptr;
  }
  if (e->value.type() == ValueType::kZSet) {
    if (e->value.zset().periodic()) MaybeRollPeriods(e);
    if (e->value.zset().snapshot_every_ms() > 0) MaybeTakeView(e);
  }
  if (e->has(Entry::kHasMemberExpire) && !replica_->replica && MembersDue(e, WallMs()) &&
      !ReclaimMembers(e, WallMs())) {
    return nullptr;
  }
  if (touch_access) e->set_access(AccessStamp(e->access(), *lfu_));
  return e;
}

const Database::Entry* Database::Peek(std::string_view key) const {
  const Entry* e = Lookup(key);
  return e && !IsExpired(e) ? e : nullptr;
}

Database::Entry* Database::Insert(std::string_view key, Value value) {
  // Paused expiry (and a replica) leaves expired entries in place: a write
  // replaces them.
  if ((expiry_paused_ || replica_->replica) && Lookup(key)) {
    Dispose(Unlink(std::string(key)), lazy_->server_del);
  }
  Entry* e = Entry::Make(key, std::move(value), NewAccessStamp(*lfu_));
  Link(e);
  if (on_new_key) on_new_key(index_, e->key());
  NoteIfFieldDeadlines(e);
  NoteIfBoard(e);
  SyncMemberExpire(e);
  return e;
}

Database::Entry* Database::Set(std::string_view key, Value value, bool keep_ttl) {
  Entry* e = Find(key, false);
  if (!e) return Insert(key, std::move(value));
  Value old = std::move(e->value);
  e->value = std::move(value);
  if (lazy_->server_del && lazy_->freer) lazy_->freer->Free(std::move(old));
  if (!lfu_->enabled) e->set_access(LruClock());  // an LFU counter carries over
  if (!keep_ttl) SetExpire(e, -1);
  NoteIfFieldDeadlines(e);
  NoteIfBoard(e);
  SyncMemberExpire(e);
  return e;
}

void Database::Prefetch(std::string_view key, std::string_view member, int step) const {
  if (member.empty()) {
    if (step == 0) {
      table_.PrefetchBucket(key);
    } else {
      table_.PrefetchChainHead(key);
    }
    return;
  }
  // Sorted-set commands name one key many times over: its entry is hot, so
  // one lookup (which loads bucket and chain anyway) replaces the hints.
  const Entry* e = Lookup(key);
  if (e && e->value.type() == ValueType::kZSet) e->value.zset().PrefetchMember(member, step);
}

bool Database::Delete(std::string_view key) {
  if (!FindToDelete(key)) return false;
  Dispose(Unlink(key), lazy_->server_del);
  return true;
}

bool Database::DeleteExpired(std::string_view key) {
  if (!Find(key, false)) return false;
  Dispose(Unlink(key), lazy_->expire);
  return true;
}

bool Database::DeleteSync(std::string_view key) {
  if (!FindToDelete(key)) return false;
  Free(Unlink(key));
  return true;
}

bool Database::DeleteLazily(std::string_view key, LazyFreer& freer, bool count_bytes) {
  if (!FindToDelete(key)) return false;
  Release(Unlink(key), &freer, count_bytes);
  return true;
}

void Database::DeleteEntry(Entry* e, LazyFreer* freer) {
  UnlinkNode(e);
  Release(e, freer, /*count_bytes=*/true);
}

Database::Entry* Database::Detach(std::string_view key) {
  if (!Find(key, false)) return nullptr;
  Entry* e = Unlink(key);
  RemoveFromExpiring(e);
  IndexMemberExpire(e, -1);  // member deadlines travel in the value
  return e;
}

void Database::Attach(Entry* e) {
  if ((expiry_paused_ || replica_->replica) && Lookup(e->key())) {
    Dispose(Unlink(std::string(e->key())), lazy_->server_del);
  }
  Link(e);
  NoteIfFieldDeadlines(e);
  NoteIfBoard(e);
  if (on_new_key) on_new_key(index_, e->key());
  SyncMemberExpire(e);
}

void Database::SetExpire(Entry* e, int64_t expire_ms) {
  if (expire_ms < 0) return RemoveFromExpiring(e);
  if (replica_->local_write && replica_ttl_keys_.emplace(e->key()).second) {
    replica_ttl_queue_.emplace_back(e->key());
  }
  if (e->has(Entry::kHasExpire)) {
    deadlines_.find(e)->second.ms = expire_ms;
    return;
  }
  deadlines_.emplace(e, Deadline{expire_ms, static_cast<uint32_t>(expiring_.size())});
  expiring_.push_back(e);
  e->set(Entry::kHasExpire, true);
}

void Database::RemoveFromExpiring(Entry* e) {
  if (!e->has(Entry::kHasExpire)) return;
  // Invariant: expiring_[deadlines_[e].pos] == e for every entry with a
  // deadline, and only those have kHasExpire.
  auto it = deadlines_.find(e);
  const uint32_t pos = it->second.pos;
  deadlines_.erase(it);
  Entry* last = expiring_.back();
  expiring_[pos] = last;
  if (last != e) deadlines_.find(last)->second.pos = pos;
  expiring_.pop_back();
  e->set(Entry::kHasExpire, false);
}

void Database::Dispose(Entry* e, bool lazy) { Release(e, lazy ? lazy_->freer : nullptr); }

void Database::Release(Entry* e, LazyFreer* freer, bool count_bytes) {
  if (!freer) return Free(e);
  Value value = std::move(e->value);
  e->value = Value();
  Free(e);
  freer->Free(std::move(value), count_bytes);
}

void Database::Free(Entry* e) {
  RemoveFromExpiring(e);
  IndexMemberExpire(e, -1);
  delete e;
}

void Database::SyncMemberExpire(Entry* e) {
  const bool zset = e->value.type() == ValueType::kZSet;
  IndexMemberExpire(e, zset ? e->value.zset().EarliestMemberExpire() : -1);
}

void Database::IndexMemberExpire(Entry* e, int64_t deadline_ms) {
  const int64_t indexed = MemberExpireMs(e);
  if (indexed == deadline_ms) return;
  // Invariant: member_expiring_ holds (ms, e) iff member_deadline_[e] == ms,
  // and only those entries have kHasMemberExpire.
  if (indexed >= 0) {
    member_expiring_.erase({indexed, e});
    member_deadline_.erase(e);
  }
  e->set(Entry::kHasMemberExpire, deadline_ms >= 0);
  if (deadline_ms >= 0) {
    member_expiring_.insert({deadline_ms, e});
    member_deadline_[e] = deadline_ms;
  }
}

bool Database::ReclaimMembers(Entry* e, int64_t now_ms, size_t limit) {
  if (e->value.type() != ValueType::kZSet) {
    SyncMemberExpire(e);
    return true;
  }
  const std::string k(e->key());
  SortedSet& z = e->value.zset();
  std::vector<std::string> gone = z.RemoveDue(now_ms, limit);
  expired_members_ += gone.size();
  const bool alive = !z.empty() || z.periodic();  // a periodic board keeps its periods
  if (alive) {
    SyncMemberExpire(e);
  } else {
    Free(Unlink(k));
  }
  if (!gone.empty()) {
    if (on_members_expired) on_members_expired(index_, k, gone, !alive);
    Touch(k);
  }
  return alive;
}

void Database::MaybeRollPeriods(Entry* e) {
  if (may_roll_periods && !may_roll_periods()) return;
  SortedSet& z = e->value.zset();
  // A loaded board is known from its first lookup on.
  if (!timed_boards_.contains(e->key())) timed_boards_.emplace(e->key());
  PeriodicBoard& p = *z.periodic();
  const int64_t index = p.CurrentIndex(PeriodNowMs());  // O(1) until the period ends
  if (!p.RollTo(z, index)) return;
  SyncMemberExpire(e);  // the open period's deadlines went with it
  const std::string k(e->key());
  if (on_period_rolled) on_period_rolled(index_, k, p.calendar().Id(index));
  Touch(k);
}

size_t Database::ActiveExpireMembers(int64_t budget_us) {
  if (replica_->replica) return 0;  // the primary's ZREMs remove them
  // Members per step: many members of one key due together are reclaimed
  // over several steps (and loop iterations), not in one long stall.
  constexpr size_t kMembersPerStep = 256;
  const int64_t deadline = MonoUs() + budget_us;
  const uint64_t before = expired_members_;
  while (!member_expiring_.empty()) {
    const int64_t now = WallMs();
    auto [due_ms, e] = *member_expiring_.begin();
    if (due_ms > now) break;
    if (IsExpired(e)) {
      Find(std::string(e->key()), /*touch_access=*/false);  // goes as a key
    } else {
      // A member of a period that has ended stays in the closed period.
      if (e->value.type() == ValueType::kZSet && e->value.zset().periodic()) MaybeRollPeriods(e);
      if (MembersDue(e, now)) ReclaimMembers(e, now, kMembersPerStep);
    }
    if (MonoUs() > deadline) break;
  }
  return expired_members_ - before;
}

size_t Database::ActiveExpire(int64_t budget_us) {
  if (replica_->replica) return ExpireReplicaKeys(budget_us);
  constexpr size_t kSample = 20;
  const int64_t deadline = MonoUs() + budget_us;
  size_t deleted = 0;
  while (!expiring_.empty()) {
    size_t expired_in_sample = 0;
    const int64_t now = WallMs();
    for (size_t i = 0; i < kSample && !expiring_.empty(); i++) {
      Entry* e = expiring_[rng_() % expiring_.size()];
      if (ExpireMs(e) > now) continue;
      ExpireKey(std::string(e->key()));
      expired_in_sample++;
    }
    deleted += expired_in_sample;
    if (expired_in_sample * 4 < kSample || MonoUs() > deadline) break;
  }
  return deleted;
}

uint64_t Database::Scan(uint64_t cursor, size_t count, const std::function<void(Entry*)>& fn) {
  std::vector<Entry*> expired;
  const int64_t now = WallMs();
  cursor = table_.Scan(cursor, count, [&](Entry* e) {
    if (IsExpired(e) || MembersDue(e, now)) {
      expired.push_back(e);
    } else {
      fn(e);
    }
  });
  VisitReclaimed(expired, fn);
  return cursor;
}

void Database::ForEach(const std::function<void(Entry*)>& fn) {
  std::vector<Entry*> expired;
  const int64_t now = WallMs();
  table_.ForEach([&](Entry* e) {
    if (IsExpired(e) || MembersDue(e, now)) {
      expired.push_back(e);
    } else {
      fn(e);
    }
  });
  VisitReclaimed(expired, fn);
}

void Database::VisitReclaimed(const std::vector<Entry*>& entries,
                              const std::function<void(Entry*)>& fn) {
  std::vector<std::string> keys;
  for (Entry* e : entries) keys.emplace_back(e->key());
  for (const std::string& k : keys) {
    // Deletes an expired key or reclaims due members; survivors are visited.
    if (Entry* e = Find(k, false)) fn(e);
  }
}

Database::Entry* Database::Random() {
  // Expired keys found while sampling are deleted; give up after a bounded
  // number of tries when almost everything has expired (as Redis does).
  for (int tries = 0; tries < 100 && table_.size() > 0; tries++) {
    Entry* e = table_.Random(rng_);
    if (!IsExpired(e) && !MembersDue(e, WallMs())) return e;
    // Redis dbRandomKey: on a replica whose keys all have deadlines (none
    // of them deleted here) the last try is answered, expired or not.
    if (replica_->replica && tries == 99 && expiring_.size() == table_.size()) return e;
    if (Entry* live = Find(std::string(e->key()), false)) return live;
  }
  return nullptr;
}

Database::Entry* Database::RandomVolatile() {
  std::uniform_int_distribution<size_t> pick;
  for (int tries = 0; tries < 100 && !expiring_.empty(); tries++) {
    Entry* e = expiring_[pick(rng_) % expiring_.size()];
    if (!IsExpired(e)) return e;
    Find(std::string(e->key()), false);
  }
  return nullptr;
}

void Database::Clear(LazyFreer* freer) {
  ++*mod_counter_;
  if (on_flush) on_flush(index_);
  TouchWatchedExisting(nullptr);
  // Blocked clients that answer a deleted key (XREADGROUP) are told.
  for (auto& [key, n] : blocked_keys_) {
    if (Peek(key)) ready_keys_.push_back(key);
  }
  expiring_.clear();
  deadlines_.clear();
  field_ttl_keys_.clear();
  replica_ttl_keys_.clear();
  replica_ttl_queue_.clear();
  board_keys_.clear();
  timed_boards_.clear();
  member_expiring_.clear();
  member_deadline_.clear();
  hot_ = nullptr;
  if (freer && table_.size() > 0) {
    // Redis emptyDbAsync: the old table goes whole, counted as its keys.
    const size_t keys = table_.size();
    freer->FreeObjects(std::make_shared<ScanTable<Entry>>(std::move(table_)), keys);
    table_ = ScanTable<Entry>();
  } else {
    table_.Clear();
  }
  if (slots_) slots_->Clear();
}

void Database::EnableSlotIndex() {
  if (!slots_) slots_ = std::make_unique<SlotIndex>();
  slots_->Clear();
  table_.ForEach([this](Entry* e) { slots_->Add(e); });
}

void Database::SwapContents(Database& other) {
  TouchWatchedExisting(&other);
  other.TouchWatchedExisting(this);
  std::swap(table_, other.table_);
  if (slots_) EnableSlotIndex();
  if (other.slots_) other.EnableSlotIndex();
  hot_ = other.hot_ = nullptr;
  std::swap(expiring_, other.expiring_);
  std::swap(deadlines_, other.deadlines_);
  std::swap(member_deadline_, other.member_deadline_);
  std::swap(field_ttl_keys_, other.field_ttl_keys_);
  std::swap(replica_ttl_keys_, other.replica_ttl_keys_);
  std::swap(replica_ttl_queue_, other.replica_ttl_queue_);
  std::swap(board_keys_, other.board_keys_);
  std::swap(timed_boards_, other.timed_boards_);
  std::swap(member_expiring_, other.member_expiring_);
  ++*mod_counter_;
  // Every blocked key is signalled: one that now exists may serve its
  // clients, one now missing answers those that want to know (XREADGROUP).
  for (auto& [key, n] : blocked_keys_) ready_keys_.push_back(key);
  for (auto& [key, n] : other.blocked_keys_) other.ready_keys_.push_back(key);
  if (on_swap) on_swap(index_);
  if (other.on_swap) other.on_swap(other.index_);
}

void Database::TouchSlow(std::string_view key) {
  if (!watched_.empty()) {
    auto it = watched_.find(key);
    if (it != watched_.end()) {
      for (WatchRef& ref : it->second) {
        // An expired watched key that is now gone: no logical change.
        if (ref.expired && Lookup(key) == nullptr) {
          ref.expired = false;
          continue;
        }
        ref.watcher->dirty = true;
      }
    }
  }
  SignalReady(key);
}

void Database::SignalReady(std::string_view key) {
  if (!blocked_keys_.empty() && blocked_keys_.contains(key)) {
    if (std::find(ready_keys_.begin(), ready_keys_.end(), key) == ready_keys_.end()) {
      ready_keys_.emplace_back(key);
    }
  }
  if (on_touch) on_touch(index_, key);
}

void Database::TouchWatchedExisting(const Database* replacement) {
  // As Redis 7.0 (touchAllWatchedKeysInDb): only a watched key that exists
  // here (or will exist, from the database swapped in) is modified by
  // emptying or swapping; a key watched as expired that goes away or stays
  // expired is not, nor is a missing key replaced by an expired one (it is
  // then watched as expired).
  for (auto& [key, refs] : watched_) {
    const bool here = Lookup(key) != nullptr;
    const Entry* incoming = replacement ? replacement->Lookup(key) : nullptr;
    if (!here && !incoming) continue;
    const bool incoming_expired = incoming && replacement->IsExpired(incoming);
    for (WatchRef& ref : refs) {
      if (ref.expired) {
        if (!incoming) {
          ref.expired = false;
          continue;
        }
        if (incoming_expired) continue;
      } else if (!here && incoming_expired) {
        ref.expired = true;
        continue;
      }
      ref.watcher->dirty = true;
    }
  }
}

void Database::Watch(std::string_view key, Watcher* w) {
  auto& v = watched_[key];
  for (const WatchRef& ref : v) {
    if (ref.watcher == w) return;
  }
  v.push_back({w, IsExpiredButPresent(key)});
}

void Database::Unwatch(std::string_view key, Watcher* w) {
  auto it = watched_.find(key);
  if (it == watched_.end()) return;
  auto& v = it->second;
  v.erase(std::remove_if(v.begin(), v.end(), [w](const WatchRef& ref) { return ref.watcher == w; }),
          v.end());
  if (v.empty()) watched_.erase(it);
}

bool Database::WatchedAsExpired(std::string_view key, const Watcher* w) const {
  auto it = watched_.find(key);
  if (it == watched_.end()) return false;
  for (const WatchRef& ref : it->second) {
    if (ref.watcher == w) return ref.expired;
  }
  return false;
}

void Database::RemoveBlockedKey(std::string_view key) {
  auto it = blocked_keys_.find(key);
  if (it != blocked_keys_.end() && --it->second == 0) blocked_keys_.erase(it);
}

}  // namespace rankd
