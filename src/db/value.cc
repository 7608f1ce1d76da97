// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "db/value.h"

#include "base/numbers.h"

namespace rankd {

Value Value::Clone() const {
  switch (type()) {
    case ValueType::kString: {
      Value v(str());
      v.raw_ = raw_;
      v.no_int_ = no_int_;
      return v;
    }
    case ValueType::kZSet:
      return Value(zset().Clone());
    case ValueType::kSet:
      return Value(set().Clone());
    case ValueType::kHash:
      return Value(hash().Clone());
    case ValueType::kList:
      return Value(list().Clone());
  }
  return Value();
}

std::string_view Value::EncodingName() const {
  switch (type()) {
    case ValueType::kString: {
      int64_t ignored;
      // Redis keeps integers of up to 20 chars as "int"; 44 bytes fit an embstr.
      if (!raw_ && !no_int_ && ParseInt64(str(), &ignored)) return "int";
      return !raw_ && str().size() <= 44 ? "embstr" : "raw";
    }
    case ValueType::kZSet:
      return zset().encoding() == SortedSet::Encoding::kCompact ? "listpack" : "skiplist";
    case ValueType::kSet:
      return set().EncodingName();
    case ValueType::kHash:
      return hash().EncodingName();
    case ValueType::kList:
      return list().EncodingName();
  }
  return "";
}

std::string_view Value::TypeName() const {
  static constexpr std::string_view kNames[] = {"string", "zset", "set", "hash", "list"};
  return kNames[static_cast<int>(type())];
}

size_t Value::MemoryUsage() const {
  switch (type()) {
    case ValueType::kString:
      return sizeof(Value) + (str().size() > 15 ? str().capacity() + 1 : 0);
    case ValueType::kZSet:
      return sizeof(Value) + zset().MemoryUsage();
    case ValueType::kSet:
      return sizeof(Value) + set().MemoryUsage();
    case ValueType::kHash:
      return sizeof(Value) + hash().MemoryUsage();
    case ValueType::kList:
      return sizeof(Value) + list().MemoryUsage();
  }
  return sizeof(Value);
}

}  // namespace rankd
