// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "db/database.h"

#include <algorithm>

#include "base/clock.h"

namespace rankd {

bool Database::IsExpired(const Entry* e) const {
  return e->expire_ms >= 0 && e->expire_ms <= WallMs();
}

Database::Entry* Database::Find(std::string_view key, bool touch_access) {
  Entry* e = table_.Find(key);
  if (!e) return nullptr;
  if (IsExpired(e)) {
    if (on_expired) on_expired(index_, key);
    std::string k(key);  // `key` may point into the entry
    Free(table_.Remove(k));
    expired_count_++;
    Touch(k);
    return nullptr;
  }
  if (touch_access) {
    e->access_ms = CachedMonoMs();
    if (lfu_->enabled) LfuTouch(&e->lfu_counter, &e->lfu_minutes, *lfu_);
  }
  return e;
}

const Database::Entry* Database::Peek(std::string_view key) const {
  const Entry* e = table_.Find(key);
  return e && !IsExpired(e) ? e : nullptr;
}

Database::Entry* Database::Insert(std::string_view key, Value value) {
  Entry* e = new Entry;
  e->key_bytes.assign(key);
  e->value = std::move(value);
  e->access_ms = CachedMonoMs();
  e->lfu_minutes = LfuMinutes();
  table_.Insert(e);
  return e;
}

Database::Entry* Database::Set(std::string_view key, Value value, bool keep_ttl) {
  Entry* e = Find(key, false);
  if (!e) return Insert(key, std::move(value));
  e->value = std::move(value);
  e->access_ms = CachedMonoMs();
  if (!keep_ttl) SetExpire(e, -1);
  return e;
}

bool Database::Delete(std::string_view key) {
  if (!Find(key, false)) return false;
  Free(table_.Remove(key));
  return true;
}

Database::Entry* Database::Detach(std::string_view key) {
  if (!Find(key, false)) return nullptr;
  Entry* e = table_.Remove(key);
  const int64_t deadline = e->expire_ms;
  RemoveFromExpiring(e);
  e->expire_ms = deadline;  // travels with the entry; Attach re-registers it
  return e;
}

void Database::Attach(Entry* e) {
  table_.Insert(e);
  if (e->expire_ms >= 0) {
    e->expire_pos = static_cast<uint32_t>(expiring_.size());
    expiring_.push_back(e);
  }
}

void Database::SetExpire(Entry* e, int64_t expire_ms) {
  if (e->expire_ms < 0 && expire_ms >= 0) {
    e->expire_pos = static_cast<uint32_t>(expiring_.size());
    expiring_.push_back(e);
  } else if (e->expire_ms >= 0 && expire_ms < 0) {
    RemoveFromExpiring(e);
  }
  e->expire_ms = expire_ms;
}

void Database::RemoveFromExpiring(Entry* e) {
  if (e->expire_ms < 0) return;
  // Invariant: expiring_[e->expire_pos] == e for every entry with a deadline.
  Entry* last = expiring_.back();
  expiring_[e->expire_pos] = last;
  last->expire_pos = e->expire_pos;
  expiring_.pop_back();
  e->expire_ms = -1;
}

void Database::Free(Entry* e) {
  RemoveFromExpiring(e);
  delete e;
}

size_t Database::ActiveExpire(int64_t budget_us) {
  constexpr size_t kSample = 20;
  const int64_t deadline = MonoUs() + budget_us;
  size_t deleted = 0;
  while (!expiring_.empty()) {
    size_t expired_in_sample = 0;
    const int64_t now = WallMs();
    for (size_t i = 0; i < kSample && !expiring_.empty(); i++) {
      Entry* e = expiring_[rng_() % expiring_.size()];
      if (e->expire_ms > now) continue;
      std::string k = e->key_bytes;
      if (on_expired) on_expired(index_, k);
      Free(table_.Remove(k));
      Touch(k);
      expired_in_sample++;
    }
    deleted += expired_in_sample;
    expired_count_ += expired_in_sample;
    if (expired_in_sample * 4 < kSample || MonoUs() > deadline) break;
  }
  return deleted;
}

uint64_t Database::Scan(uint64_t cursor, size_t count, const std::function<void(Entry*)>& fn) {
  std::vector<Entry*> expired;
  cursor = table_.Scan(cursor, count, [&](Entry* e) {
    if (IsExpired(e)) {
      expired.push_back(e);
    } else {
      fn(e);
    }
  });
  for (Entry* e : expired) Find(e->key_bytes, false);  // lazily deletes
  return cursor;
}

void Database::ForEach(const std::function<void(Entry*)>& fn) {
  std::vector<Entry*> expired;
  table_.ForEach([&](Entry* e) {
    if (IsExpired(e)) {
      expired.push_back(e);
    } else {
      fn(e);
    }
  });
  for (Entry* e : expired) Find(e->key_bytes, false);
}

Database::Entry* Database::Random() {
  // Expired keys found while sampling are deleted; give up after a bounded
  // number of tries when almost everything has expired (as Redis does).
  for (int tries = 0; tries < 100 && table_.size() > 0; tries++) {
    Entry* e = table_.Random(rng_);
    if (!IsExpired(e)) return e;
    Find(std::string(e->key_bytes), false);
  }
  return nullptr;
}

Database::Entry* Database::RandomVolatile() {
  std::uniform_int_distribution<size_t> pick;
  for (int tries = 0; tries < 100 && !expiring_.empty(); tries++) {
    Entry* e = expiring_[pick(rng_) % expiring_.size()];
    if (!IsExpired(e)) return e;
    Find(std::string(e->key_bytes), false);
  }
  return nullptr;
}

void Database::Clear() {
  ++*mod_counter_;
  TouchWatchedExisting(nullptr);
  expiring_.clear();
  table_.Clear();
}

void Database::SwapContents(Database& other) {
  TouchWatchedExisting(&other);
  other.TouchWatchedExisting(this);
  std::swap(table_, other.table_);
  std::swap(expiring_, other.expiring_);
  ++*mod_counter_;
  for (auto& [key, n] : blocked_keys_) {
    if (Peek(key)) ready_keys_.push_back(key);
  }
  for (auto& [key, n] : other.blocked_keys_) {
    if (other.Peek(key)) other.ready_keys_.push_back(key);
  }
}

void Database::Touch(std::string_view key) {
  ++*mod_counter_;
  if (!watched_.empty()) {
    auto it = watched_.find(key);
    if (it != watched_.end()) {
      for (Watcher* w : it->second) w->dirty = true;
    }
  }
  if (!blocked_keys_.empty() && blocked_keys_.contains(key)) {
    if (std::find(ready_keys_.begin(), ready_keys_.end(), key) == ready_keys_.end()) {
      ready_keys_.emplace_back(key);
    }
  }
}

void Database::TouchWatchedExisting(const Database* replacement) {
  // As Redis: only a watched key that exists here (or will exist, from the
  // database swapped in) is modified by emptying or swapping.
  for (auto& [key, watchers] : watched_) {
    if (!table_.Find(key) && !(replacement && replacement->table_.Find(key))) continue;
    for (Watcher* w : watchers) w->dirty = true;
  }
}

void Database::Watch(std::string_view key, Watcher* w) {
  auto& v = watched_[key];
  if (std::find(v.begin(), v.end(), w) == v.end()) v.push_back(w);
}

void Database::Unwatch(std::string_view key, Watcher* w) {
  auto it = watched_.find(key);
  if (it == watched_.end()) return;
  auto& v = it->second;
  v.erase(std::remove(v.begin(), v.end(), w), v.end());
  if (v.empty()) watched_.erase(it);
}

void Database::RemoveBlockedKey(std::string_view key) {
  auto it = blocked_keys_.find(key);
  if (it != blocked_keys_.end() && --it->second == 0) blocked_keys_.erase(it);
}

}  // namespace rankd
