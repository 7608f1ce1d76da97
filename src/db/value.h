// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Value is what a key holds: a string, a sorted set, a plain set, a hash, a
// list or a stream. The type
// decides which commands may touch it (others get WRONGTYPE); the encoding of
// each is the type's own business (core/), reported by EncodingName().

#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "core/hash.h"
#include "core/plain_set.h"
#include "core/quick_list.h"
#include "core/sorted_set.h"
#include "core/stream.h"

namespace rankd {

enum class ValueType : uint8_t {
  kString = 0,
  kZSet = 1,
  kSet = 2,
  kHash = 3,
  kList = 4,
  kStream = 5,
};

class Value {
 public:
  Value() { SetInline({}); }
  explicit Value(std::string s);
  // A string value copied from `s` (no intermediate std::string).
  static Value Str(std::string_view s);
  // A sorted set is embedded in the value: NewZSet builds it in place, and
  // the SortedSet&& form moves one built on the stack. The unique_ptr form
  // moves out of the heap object and frees it (an allocation that NewZSet
  // saves on every new key).
  template <class... Args>
  static Value NewZSet(Args&&... args) {
    Value v;
    v.b_[0] = static_cast<uint8_t>(ValueType::kZSet);
    new (v.b_ + kPayload) SortedSet(std::forward<Args>(args)...);
    return v;
  }
  explicit Value(SortedSet&& z) {
    b_[0] = static_cast<uint8_t>(ValueType::kZSet);
    new (b_ + kPayload) SortedSet(std::move(z));
  }
  explicit Value(std::unique_ptr<SortedSet> z) : Value(std::move(*z)) {}
  explicit Value(std::unique_ptr<PlainSet> s) { SetPtr(ValueType::kSet, s.release()); }
  explicit Value(std::unique_ptr<Hash> h) {
    b_[0] = static_cast<uint8_t>(ValueType::kHash);
    new (b_ + kPayload) Hash(std::move(*h));
  }
  explicit Value(std::unique_ptr<QuickList> l) { SetPtr(ValueType::kList, l.release()); }
  explicit Value(std::unique_ptr<Stream> s) { SetPtr(ValueType::kStream, s.release()); }
  // Every payload is relocatable by copying its bytes (owning raw pointers).
  Value(Value&& o) noexcept {
    std::memcpy(b_, o.b_, sizeof(b_));
    o.SetInline({});
  }
  Value& operator=(Value&& o) noexcept {
    if (this != &o) {
      Destroy();
      std::memcpy(b_, o.b_, sizeof(b_));
      o.SetInline({});
    }
    return *this;
  }
  ~Value() { Destroy(); }

  ValueType type() const { return static_cast<ValueType>(b_[0] & kTypeMask); }

  // REQUIRES: type() matches.
  // A string's bytes; valid until the value changes.
  std::string_view str() const;
  // A string to change in place (APPEND, SETRANGE, SETBIT): an inline or
  // packed string becomes a std::string first (Redis turns such a string
  // "raw" too).
  std::string& mutable_str();
  SortedSet& zset() { return *std::launder(reinterpret_cast<SortedSet*>(b_ + kPayload)); }
  const SortedSet& zset() const {
    return *std::launder(reinterpret_cast<const SortedSet*>(b_ + kPayload));
  }
  PlainSet& set() { return *Ptr<PlainSet>(); }
  const PlainSet& set() const { return *Ptr<PlainSet>(); }
  Hash& hash() { return *std::launder(reinterpret_cast<Hash*>(b_ + kPayload)); }
  const Hash& hash() const { return *std::launder(reinterpret_cast<const Hash*>(b_ + kPayload)); }
  QuickList& list() { return *Ptr<QuickList>(); }
  const QuickList& list() const { return *Ptr<QuickList>(); }
  Stream& stream() { return *Ptr<Stream>(); }
  const Stream& stream() const { return *Ptr<Stream>(); }

  // Deep copy (COPY command).
  Value Clone() const;

  // OBJECT ENCODING's answer, with the names Redis clients expect:
  // strings "int" / "embstr" / "raw"; sorted sets "listpack" / "skiplist";
  // sets "intset" / "hashtable"; hashes "listpack" / "hashtable";
  // lists "quicklist" (Redis 7.0 reports every list so); streams "stream".
  std::string_view EncodingName() const;

  // TYPE's answer: "string", "zset", "set", "hash", "list", "stream".
  std::string_view TypeName() const;

  // Approximate bytes owned by this value (MEMORY USAGE, used_memory).
  size_t MemoryUsage() const;

  // Strings only: marks the value as grown in place (APPEND, SETRANGE), which
  // Redis reports as "raw" even when short.
  void set_raw(bool raw) { SetBit(kRaw, raw); }
  // Strings only: a number-like value that Redis never re-encoded as an
  // integer (INCRBYFLOAT's result) reports "embstr" (or "raw"), not "int".
  void set_no_int(bool no_int) { SetBit(kNoInt, no_int); }

 private:
  // b_[0]: the type (3 bits) and the flags below. A string of up to
  // kInlineMax bytes is held inline: its length in b_[1], its bytes from
  // b_[2]. A longer one not changed in place is packed (Redis's embstr
  // role): one allocation of a 4-byte length and the bytes, at kPayload
  // (kPacked); one changed in place, or longer than kPackedMax (not worth a
  // copy), is a std::string* there (kHeapStr). Every other type's object is
  // a pointer at kPayload too; a Hash and a SortedSet are embedded there
  // (both relocatable by copying their words).
  static constexpr uint8_t kTypeMask = 7, kHeapStr = 8, kRaw = 16, kNoInt = 32, kPacked = 64;
  static constexpr size_t kPayload = 8;
  static constexpr size_t kInlineMax = 22;
  static constexpr size_t kPackedMax = 4096;

  // Sets a string of up to kPackedMax bytes, inline or packed.
  void SetSmallStr(std::string_view s);
  void SetInline(std::string_view s) {
    b_[0] = static_cast<uint8_t>(ValueType::kString);
    b_[1] = static_cast<uint8_t>(s.size());
    if (!s.empty()) std::memcpy(b_ + 2, s.data(), s.size());
  }
  void SetPtr(ValueType t, void* p) {
    b_[0] = static_cast<uint8_t>(t);
    std::memcpy(b_ + kPayload, &p, sizeof(p));
  }
  template <class T>
  T* Ptr() const {
    T* p;
    std::memcpy(&p, b_ + kPayload, sizeof(p));
    return p;
  }
  bool Has(uint8_t bit) const { return (b_[0] & bit) != 0; }
  void SetBit(uint8_t bit, bool on) { b_[0] = on ? (b_[0] | bit) : (b_[0] & ~bit); }
  void Destroy();

  alignas(8) unsigned char b_[24];
};

static_assert(sizeof(Value) == 24);

}  // namespace rankd
