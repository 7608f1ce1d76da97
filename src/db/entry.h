// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// KeyEntry: one key of a Database, in one allocation sized for its key
// (issue 15: a million small keys must not cost more than Redis's
// dictEntry + key sds + robj). Layout:
//
//   next     chain link of the keyspace ScanTable (no stored hash: the
//            table rehashes the key when it resizes, as Redis's dict does)
//   value    the Value (db/value.h)
//   access   24 bits, Redis's robj.lru: LRU clock or LFU counter + minutes
//            (db/lfu.h), by the maxmemory policy in force at the access
//   meta     1 byte: 2 flag bits (has a deadline / has member deadlines;
//            their values live in the Database's side tables, so keys
//            without a TTL pay nothing) and a 6-bit key length; 63 means a
//            4-byte length precedes the key bytes
//   key      the key bytes
//
// 36 bytes before the key: a key of up to 12 bytes fits a 48-byte class.
//
// Entries are made with Make and freed with delete; their address is stable
// for their lifetime (the Database's indexes point at them). Not
// thread-safe.

#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string_view>
#include <utility>

#include "db/value.h"

namespace rankd {

class KeyEntry {
 public:
  enum Flag : uint8_t { kHasExpire = 1, kHasMemberExpire = 2 };

  // A new entry for `key` holding `value`, with access field `access`.
  static KeyEntry* Make(std::string_view key, Value value, uint32_t access) {
    const bool long_key = key.size() >= kLongKeyLen;
    const size_t bytes = KeyOffset() + (long_key ? 4 : 0) + key.size();
    void* mem = ::operator new(bytes < sizeof(KeyEntry) ? sizeof(KeyEntry) : bytes);
    auto* e = new (mem) KeyEntry(std::move(value), access);
    char* p = e->key_start();
    if (long_key) {
      e->meta_ = static_cast<uint8_t>(kLongKeyLen << kLenShift);
      const uint32_t n = static_cast<uint32_t>(key.size());
      std::memcpy(p, &n, 4);
      p += 4;
    } else {
      e->meta_ = static_cast<uint8_t>(key.size() << kLenShift);
    }
    std::memcpy(p, key.data(), key.size());
    return e;
  }

  // A copy of detached entry `e` under `key` (RENAME): value, access field
  // and flags move over; `e` is freed. REQUIRES: `e` in no table or index.
  static KeyEntry* Rekey(KeyEntry* e, std::string_view key) {
    KeyEntry* n = Make(key, std::move(e->value), e->access());
    n->meta_ = static_cast<uint8_t>((n->meta_ & ~kFlagMask) | (e->meta_ & kFlagMask));
    delete e;
    return n;
  }

  // Entries are variable-sized: freed as they were allocated.
  static void operator delete(void* p) { ::operator delete(p); }

  KeyEntry(const KeyEntry&) = delete;
  KeyEntry& operator=(const KeyEntry&) = delete;
  ~KeyEntry() = default;

  std::string_view key() const {
    const char* p = key_start();
    const uint8_t len = meta_ >> kLenShift;
    if (len < kLongKeyLen) return std::string_view(p, len);
    uint32_t n;
    std::memcpy(&n, p, 4);
    return std::string_view(p + 4, n);
  }

  uint32_t access() const { return access_[0] | (access_[1] << 8) | (access_[2] << 16); }
  void set_access(uint32_t v) {
    access_[0] = static_cast<uint8_t>(v);
    access_[1] = static_cast<uint8_t>(v >> 8);
    access_[2] = static_cast<uint8_t>(v >> 16);
  }

  bool has(Flag f) const { return (meta_ & f) != 0; }
  void set(Flag f, bool on) { meta_ = on ? (meta_ | f) : (meta_ & ~f); }

  KeyEntry* next = nullptr;  // ScanTable's chain link
  Value value;

 private:
  static constexpr uint8_t kFlagMask = 3, kLenShift = 2, kLongKeyLen = 63;

  KeyEntry(Value v, uint32_t access) : value(std::move(v)) { set_access(access); }

  static size_t KeyOffset();
  char* key_start() { return reinterpret_cast<char*>(&meta_) + 1; }
  const char* key_start() const { return reinterpret_cast<const char*>(&meta_) + 1; }

  uint8_t access_[3];
  uint8_t meta_ = 0;  // flags (low 2 bits), key length (high 6)
};

inline size_t KeyEntry::KeyOffset() {
  // The key bytes follow meta_ directly (no padding is spent on them).
  static const size_t offset = [] {
    alignas(KeyEntry) unsigned char probe[sizeof(KeyEntry)];
    auto* e = reinterpret_cast<KeyEntry*>(probe);
    return static_cast<size_t>(reinterpret_cast<unsigned char*>(&e->meta_) + 1 - probe);
  }();
  return offset;
}

}  // namespace rankd
