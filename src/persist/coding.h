// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Byte encodings shared by the log and the snapshot: little-endian fixed
// width integers, LEB128 varints (7 bits per byte, low groups first, high
// bit = more), IEEE-754 doubles as their 8 bytes little-endian, and
// length-prefixed strings (varint length, then the bytes).
//
// Decoders take a std::string_view* cursor, consume what they read and
// return false (cursor unspecified) when the input is short or malformed.

#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace rankd::coding {

inline void PutFixed32(std::string* dst, uint32_t v) {
  char b[4];
  for (int i = 0; i < 4; i++) b[i] = static_cast<char>(v >> (8 * i));
  dst->append(b, 4);
}

inline void PutFixed64(std::string* dst, uint64_t v) {
  char b[8];
  for (int i = 0; i < 8; i++) b[i] = static_cast<char>(v >> (8 * i));
  dst->append(b, 8);
}

inline uint32_t DecodeFixed32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) v |= uint32_t{static_cast<uint8_t>(p[i])} << (8 * i);
  return v;
}

inline uint64_t DecodeFixed64(const char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  return v;
}

inline void PutVarint64(std::string* dst, uint64_t v) {
  char b[10];
  int n = 0;
  while (v >= 0x80) {
    b[n++] = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  b[n++] = static_cast<char>(v);
  dst->append(b, n);
}

inline void PutDouble(std::string* dst, double d) {
  uint64_t bits;
  memcpy(&bits, &d, 8);
  PutFixed64(dst, bits);
}

inline void PutLengthPrefixed(std::string* dst, std::string_view s) {
  PutVarint64(dst, s.size());
  dst->append(s);
}

[[nodiscard]] inline bool GetFixed32(std::string_view* in, uint32_t* v) {
  if (in->size() < 4) return false;
  *v = DecodeFixed32(in->data());
  in->remove_prefix(4);
  return true;
}

[[nodiscard]] inline bool GetFixed64(std::string_view* in, uint64_t* v) {
  if (in->size() < 8) return false;
  *v = DecodeFixed64(in->data());
  in->remove_prefix(8);
  return true;
}

[[nodiscard]] inline bool GetVarint64(std::string_view* in, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0, i = 0; shift <= 63 && i < static_cast<int>(in->size()); shift += 7, i++) {
    uint64_t byte = static_cast<uint8_t>((*in)[i]);
    result |= (byte & 0x7f) << shift;
    if (!(byte & 0x80)) {
      in->remove_prefix(i + 1);
      *v = result;
      return true;
    }
  }
  return false;
}

[[nodiscard]] inline bool GetDouble(std::string_view* in, double* d) {
  uint64_t bits;
  if (!GetFixed64(in, &bits)) return false;
  memcpy(d, &bits, 8);
  return true;
}

[[nodiscard]] inline bool GetLengthPrefixed(std::string_view* in, std::string_view* s) {
  uint64_t len;
  if (!GetVarint64(in, &len) || len > in->size()) return false;
  *s = in->substr(0, len);
  in->remove_prefix(len);
  return true;
}

}  // namespace rankd::coding
