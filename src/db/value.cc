// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "db/value.h"

#include <malloc.h>

#include "base/numbers.h"

namespace rankd {

namespace {

// A packed string: its length, then its bytes, in one allocation.
uint32_t PackedLen(const char* p) {
  uint32_t n;
  std::memcpy(&n, p, 4);
  return n;
}

}  // namespace

Value::Value(std::string s) {
  if (s.size() <= kPackedMax) {
    SetSmallStr(s);
  } else {
    SetPtr(ValueType::kString, new std::string(std::move(s)));
    SetBit(kHeapStr, true);
  }
}

Value Value::Str(std::string_view s) {
  if (s.size() > kPackedMax) return Value(std::string(s));
  Value v;
  v.SetSmallStr(s);
  return v;
}

void Value::SetSmallStr(std::string_view s) {
  if (s.size() <= kInlineMax) return SetInline(s);
  auto* p = static_cast<char*>(::operator new(4 + s.size()));
  const auto n = static_cast<uint32_t>(s.size());
  std::memcpy(p, &n, 4);
  std::memcpy(p + 4, s.data(), s.size());
  SetPtr(ValueType::kString, p);
  SetBit(kPacked, true);
}

void Value::Destroy() {
  switch (type()) {
    case ValueType::kString:
      if (Has(kHeapStr)) delete Ptr<std::string>();
      if (Has(kPacked)) ::operator delete(Ptr<char>());
      break;
    case ValueType::kZSet:
      zset().~SortedSet();
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
    case ValueType::kStream:
      delete Ptr<Stream>();
      break;
  }
}

std::string_view Value::str() const {
  if (Has(kHeapStr)) return *Ptr<std::string>();
  if (Has(kPacked)) return std::string_view(Ptr<char>() + 4, PackedLen(Ptr<char>()));
  return std::string_view(reinterpret_cast<const char*>(b_ + 2), b_[1]);
}

std::string& Value::mutable_str() {
  if (!Has(kHeapStr)) {
    auto* s = new std::string(str());
    const uint8_t flags = b_[0];
    if (Has(kPacked)) ::operator delete(Ptr<char>());
    SetPtr(ValueType::kString, s);
    b_[0] = (flags & ~kPacked) | kHeapStr;
  }
  return *Ptr<std::string>();
}

Value Value::Clone() const {
  switch (type()) {
    case ValueType::kString: {
      Value v = Str(str());
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
    case ValueType::kStream:
      return Value(stream().Clone());
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
    case ValueType::kStream:
      return "stream";
  }
  return "";
}

std::string_view Value::TypeName() const {
  static constexpr std::string_view kNames[] = {"string", "zset", "set", "hash", "list",
                                                 "stream"};
  return kNames[static_cast<int>(type())];
}

size_t Value::MemoryUsage() const {
  switch (type()) {
    case ValueType::kString:
      if (Has(kPacked)) return sizeof(Value) + malloc_usable_size(Ptr<char>());
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
    case ValueType::kStream:
      return sizeof(Value) + stream().MemoryUsage();
  }
  return sizeof(Value);
}

}  // namespace rankd
