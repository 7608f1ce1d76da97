// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Hash: a Redis hash (field -> value), one API over two encodings, as Redis 7.0:
//
//   - listpack: one allocation holding the pair count, the byte count and
//     the packed (field, value) pairs in insertion order,
//       entry := varint flen | field | varint vlen | value
//     Lookups scan it (n <= hash-max-listpack-entries). Replacing a value
//     keeps the pair in place; deleting closes the gap, so the order is
//     Redis's listpack order and HGETALL of a small hash replies as Redis.
//     The Hash object itself is two words (it lives inside the keyspace's
//     Value), so a small hash costs one allocation sized to its bytes.
//   - hashtable: a ScanTable of nodes, one allocation per field holding the
//     field and value bytes together (SCAN-safe cursor, like Redis's dict).
//
// A listpack converts to a hashtable (never back) when a field or value
// longer than hash-max-listpack-value is written, or when it grows past
// hash-max-listpack-entries fields; Redis does the same in hashTypeSet.
//
// Field expiry (Redis 7.4's HEXPIRE family) is a side table of deadlines,
// allocated only for a hash that has a field with a TTL, so hashes without
// TTLs pay one null pointer. This class stores deadlines only; removing the
// fields that are due (and logging their deletion) is the caller's job
// (RemoveExpired), which the command layer does before every access, so an
// expired field is never seen.
//
// string_views returned here are valid until the next mutation. Not
// thread-safe.

#pragma once

#include <cstdint>
#include <utility>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "base/str_hash.h"
#include "core/scan_table.h"

namespace rankd {

struct HashLimits {
  size_t max_listpack_entries = 512;  // hash-max-listpack-entries
  size_t max_listpack_value = 64;     // hash-max-listpack-value
};

class Hash {
 public:
  using FieldDeadlines = absl::flat_hash_map<std::string, int64_t, StrHash, StrEq>;
  using Visitor = absl::FunctionRef<void(std::string_view field, std::string_view value)>;

  Hash() = default;
  ~Hash() { Reset(); }
  Hash(const Hash&) = delete;
  Hash& operator=(const Hash&) = delete;
  Hash(Hash&& o) noexcept : rep_(o.rep_), deadlines_(o.deadlines_) {
    o.rep_ = 0;
    o.deadlines_ = nullptr;
  }
  Hash& operator=(Hash&& o) noexcept {
    if (this != &o) {
      Reset();
      std::swap(rep_, o.rep_);
      std::swap(deadlines_, o.deadlines_);
    }
    return *this;
  }
  // Deep copy, same encoding and field deadlines (COPY).
  std::unique_ptr<Hash> Clone() const;

  size_t size() const;
  bool empty() const { return size() == 0; }
  bool is_listpack() const { return (rep_ & kTableBit) == 0; }
  // "listpack" or "hashtable" (OBJECT ENCODING).
  std::string_view EncodingName() const { return is_listpack() ? "listpack" : "hashtable"; }
  // The hashtable's chain statistics (DEBUG HTSTATS-KEY). REQUIRES: !is_listpack().
  ChainStats TableStats() const;
  size_t MemoryUsage() const;

  // The value of `field`, or nullopt. O(1) for a hashtable, O(n) listpack.
  std::optional<std::string_view> Get(std::string_view field) const;
  bool Contains(std::string_view field) const { return Get(field).has_value(); }

  // Sets `field` to `value`; returns true when the field is new. Converts
  // to a hashtable first if either is longer than the value limit, and
  // after inserting if the size passes the entries limit. Overwriting a
  // field clears its deadline (Redis 7.4: HSET persists a field).
  bool Set(std::string_view field, std::string_view value, const HashLimits& limits);
  // Converts a listpack to a hashtable (Redis hashTypeTryConversion: HSET
  // checks every argument's length before writing). No-op for a hashtable.
  void ConvertToHashtable();

  // Removes `field`; false if absent.
  bool Delete(std::string_view field);

  // Visits every pair: listpack in insertion order, hashtable in table order.
  void ForEach(Visitor fn) const;
  // HSCAN step with Redis's guarantee; a listpack is returned whole (cursor 0).
  uint64_t Scan(uint64_t cursor, size_t count, Visitor fn) const;

  // ---- Field deadlines (unix ms) ----
  // The deadline of `field`, or -1 when it has none. REQUIRES: it exists.
  int64_t FieldExpire(std::string_view field) const;
  // Sets (ms >= 0) or clears (ms < 0) the deadline of an existing field.
  void SetFieldExpire(std::string_view field, int64_t ms);
  // True when some field has a deadline.
  bool has_field_deadlines() const { return deadlines_ && !deadlines_->empty(); }
  // The earliest field deadline, or -1 when none.
  int64_t NextFieldDeadline() const;
  // Deletes every field whose deadline is <= now_ms; returns their names.
  std::vector<std::string> RemoveExpired(int64_t now_ms);

 private:
  struct Node {
    Node* next = nullptr;
    uint64_t hash = 0;
    uint32_t field_len = 0;
    std::string bytes;  // field then value
    std::string_view key() const { return std::string_view(bytes).substr(0, field_len); }
    std::string_view value() const { return std::string_view(bytes).substr(field_len); }
  };
  // The listpack allocation: pair and byte counts, then the packed pairs.
  // Its capacity is the allocator's usable size.
  struct Packed {
    uint32_t count;
    uint32_t used;
    char* data() { return reinterpret_cast<char*>(this + 1); }
    const char* data() const { return reinterpret_cast<const char*>(this + 1); }
  };
  static constexpr uintptr_t kTableBit = 1;

  Packed* packed() const { return reinterpret_cast<Packed*>(rep_); }  // listpack only
  ScanTable<Node>* table() const { return reinterpret_cast<ScanTable<Node>*>(rep_ & ~kTableBit); }
  // The listpack bytes (empty when none is allocated).
  std::string_view bytes() const;
  // Replaces `erase` bytes at `off` of the listpack with `insert` bytes for
  // the caller to write at the returned address (nullptr when nothing is
  // allocated and nothing inserted), growing or trimming the allocation so
  // it stays close to the bytes held. erase == insert moves nothing.
  char* Splice(size_t off, size_t erase, size_t insert);
  // Frees the representation and the deadlines.
  void Reset();
  // Offset of the entry whose field is `field` in the listpack, or npos.
  size_t FindEntry(std::string_view field) const;
  void InsertNode(std::string_view field, std::string_view value);

  uintptr_t rep_ = 0;  // 0: empty listpack; Packed*, or ScanTable<Node>* | kTableBit
  FieldDeadlines* deadlines_ = nullptr;
};

}  // namespace rankd
