// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/lzf.h"

#include <cstdint>
#include <cstring>

namespace rankd {
namespace {

constexpr size_t kMaxLiteral = 32;     // bytes one literal item carries
constexpr size_t kMaxOffset = 8192;    // how far back a reference reaches
constexpr size_t kMaxMatch = 264;      // bytes one reference copies
constexpr int kHashLog = 13;           // 8192 slots of 4 bytes

inline uint32_t Hash3(const uint8_t* p) {
  const uint32_t v = (uint32_t{p[0]} << 16) | (uint32_t{p[1]} << 8) | p[2];
  return (v * 2654435761u) >> (32 - kHashLog);
}

// Appends in[from, to) as literal items. False when out of room.
bool PutLiterals(const uint8_t* in, size_t from, size_t to, uint8_t* out, size_t cap,
                 size_t* op) {
  while (from < to) {
    const size_t n = to - from < kMaxLiteral ? to - from : kMaxLiteral;
    if (*op + 1 + n > cap) return false;
    out[(*op)++] = static_cast<uint8_t>(n - 1);
    std::memcpy(out + *op, in + from, n);
    *op += n;
    from += n;
  }
  return true;
}

}  // namespace

size_t LzfCompress(std::string_view input, char* output, size_t out_cap) {
  const auto* in = reinterpret_cast<const uint8_t*>(input.data());
  auto* out = reinterpret_cast<uint8_t*>(output);
  const size_t n = input.size();
  if (n == 0) return 0;
  // Slot -> last position whose next 3 bytes hashed there. Stale or
  // colliding slots are harmless: a candidate is checked byte by byte.
  uint32_t table[size_t{1} << kHashLog];
  std::memset(table, 0, sizeof(table));
  size_t ip = 0, lit = 0, op = 0;  // lit: start of the pending literals
  while (ip + 2 < n) {
    const uint32_t h = Hash3(in + ip);
    const size_t ref = table[h];
    table[h] = static_cast<uint32_t>(ip);
    if (ref >= ip || ip - ref > kMaxOffset || std::memcmp(in + ref, in + ip, 3) != 0) {
      ip++;
      continue;
    }
    const size_t limit = n - ip < kMaxMatch ? n - ip : kMaxMatch;
    size_t len = 3;
    while (len < limit && in[ref + len] == in[ip + len]) len++;
    if (!PutLiterals(in, lit, ip, out, out_cap, &op)) return 0;
    const size_t off = ip - ref - 1;  // 0..8191
    const size_t code = len - 2;      // 1..262
    if (op + (code < 7 ? 2 : 3) > out_cap) return 0;
    if (code < 7) {
      out[op++] = static_cast<uint8_t>((code << 5) | (off >> 8));
    } else {
      out[op++] = static_cast<uint8_t>((7 << 5) | (off >> 8));
      out[op++] = static_cast<uint8_t>(code - 7);
    }
    out[op++] = static_cast<uint8_t>(off & 0xff);
    // Index the positions inside the match so later data can refer to them.
    for (size_t p = ip + 1; p < ip + len && p + 2 < n; p++) {
      table[Hash3(in + p)] = static_cast<uint32_t>(p);
    }
    ip += len;
    lit = ip;
  }
  if (!PutLiterals(in, lit, n, out, out_cap, &op)) return 0;
  return op;
}

bool LzfDecompress(std::string_view in, char* out, size_t out_len) {
  size_t ip = 0, op = 0;
  while (ip < in.size()) {
    size_t ctrl = static_cast<uint8_t>(in[ip++]);
    if (ctrl < 32) {  // a literal run of ctrl + 1 bytes
      ctrl++;
      if (op + ctrl > out_len || ip + ctrl > in.size()) return false;
      std::memcpy(out + op, in.data() + ip, ctrl);
      op += ctrl;
      ip += ctrl;
      continue;
    }
    size_t len = ctrl >> 5;  // a back reference
    size_t back = (ctrl & 0x1f) << 8;
    if (len == 7) {
      if (ip >= in.size()) return false;
      len += static_cast<uint8_t>(in[ip++]);
    }
    if (ip >= in.size()) return false;
    back += static_cast<uint8_t>(in[ip++]);
    len += 2;
    if (back + 1 > op || op + len > out_len) return false;
    for (size_t i = 0; i < len; i++, op++) out[op] = out[op - back - 1];  // may overlap
  }
  return op == out_len;
}

}  // namespace rankd
