// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Value is what a key holds: a string, a sorted set, a plain set, a hash or a
// list. The type
// decides which commands may touch it (others get WRONGTYPE); the encoding of
// each is the type's own business (core/), reported by EncodingName().

#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "core/hash.h"
#include "core/plain_set.h"
#include "core/quick_list.h"
#include "core/sorted_set.h"

namespace rankd {

enum class ValueType : uint8_t { kString = 0, kZSet = 1, kSet = 2, kHash = 3, kList = 4 };

class Value {
 public:
  Value() : v_(std::string()) {}
  explicit Value(std::string s) : v_(std::move(s)) {}
  explicit Value(std::unique_ptr<SortedSet> z) : v_(std::move(z)) {}
  explicit Value(std::unique_ptr<PlainSet> s) : v_(std::move(s)) {}
  explicit Value(std::unique_ptr<Hash> h) : v_(std::move(h)) {}
  explicit Value(std::unique_ptr<QuickList> l) : v_(std::move(l)) {}
  Value(Value&&) = default;
  Value& operator=(Value&&) = default;

  ValueType type() const { return static_cast<ValueType>(v_.index()); }

  // REQUIRES: type() matches.
  std::string& str() { return std::get<0>(v_); }
  const std::string& str() const { return std::get<0>(v_); }
  SortedSet& zset() { return *std::get<1>(v_); }
  const SortedSet& zset() const { return *std::get<1>(v_); }
  PlainSet& set() { return *std::get<2>(v_); }
  const PlainSet& set() const { return *std::get<2>(v_); }
  Hash& hash() { return *std::get<3>(v_); }
  const Hash& hash() const { return *std::get<3>(v_); }
  QuickList& list() { return *std::get<4>(v_); }
  const QuickList& list() const { return *std::get<4>(v_); }

  // Deep copy (COPY command).
  Value Clone() const;

  // OBJECT ENCODING's answer, with the names Redis clients expect:
  // strings "int" / "embstr" / "raw"; sorted sets "listpack" / "skiplist";
  // sets "intset" / "hashtable"; hashes "listpack" / "hashtable";
  // lists "quicklist" (Redis 7.0 reports every list so).
  std::string_view EncodingName() const;

  // TYPE's answer: "string", "zset", "set", "hash", "list".
  std::string_view TypeName() const;

  // Approximate bytes owned by this value (MEMORY USAGE, used_memory).
  size_t MemoryUsage() const;

  // Strings only: marks the value as grown in place (APPEND, SETRANGE), which
  // Redis reports as "raw" even when short.
  void set_raw(bool raw) { raw_ = raw; }
  // Strings only: a number-like value that Redis never re-encoded as an
  // integer (INCRBYFLOAT's result) reports "embstr" (or "raw"), not "int".
  void set_no_int(bool no_int) { no_int_ = no_int; }

 private:
  std::variant<std::string, std::unique_ptr<SortedSet>, std::unique_ptr<PlainSet>,
               std::unique_ptr<Hash>, std::unique_ptr<QuickList>>
      v_;
  bool raw_ = false;
  bool no_int_ = false;
};

}  // namespace rankd
