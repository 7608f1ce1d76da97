// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "db/value.h"

#include "base/numbers.h"

namespace rankd {

Value::Value(std::string s) {
  if (s.size() <= kInlineMax) {
    SetInline(s);
  } else {
    SetPtr(ValueType::kString, new std::string(std::move(s)));
    SetBit(kHeapStr, true);
  }
}

void Value::Destroy() {
  switch (type()) {
    case ValueType::kString:
      if (Has(kHeapStr)) delete Ptr<std::string>();
      break;
    case ValueType::kZSet:
      delete Ptr<SortedSet>();
      break;
    case ValueType::kSet:
      delete Ptr<PlainSet>();
      break;
    case ValueType::kHash:
      hash().~Hash();
      break;
    case ValueType::kList:
      delete Ptr<QuickList>();
      break;
  }
}

std::string_view Value::str() const {
  if (Has(kHeapStr)) return *Ptr<std::string>();
  return std::string_view(reinterpret_cast<const char*>(b_ + 2), b_[1]);
}

std::string& Value::mutable_str() {
  if (!Has(kHeapStr)) {
    auto* s = new std::string(str());
    const uint8_t flags = b_[0];
    SetPtr(ValueType::kString, s);
    b_[0] = flags | kHeapStr;
  }
  return *Ptr<std::string>();
}

Value Value::Clone() const {
  switch (type()) {
    case ValueType::kString: {
      Value v{std::string(str())};
      v.set_raw(Has(kRaw));
      v.set_no_int(Has(kNoInt));
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
      if (!Has(kRaw) && !Has(kNoInt) && ParseInt64(str(), &ignored)) return "int";
      return !Has(kRaw) && str().size() <= 44 ? "embstr" : "raw";
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
      return sizeof(Value) +
             (Has(kHeapStr) ? sizeof(std::string) + Ptr<std::string>()->capacity() + 1 : 0);
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
