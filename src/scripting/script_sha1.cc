// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// FIPS 180-1 SHA-1, one 64-byte block at a time.

#include "scripting/script_sha1.h"

#include <cstdint>
#include <cstring>

namespace rankd {
namespace {

uint32_t Rol(uint32_t v, int n) { return (v << n) | (v >> (32 - n)); }

void Block(uint32_t h[5], const unsigned char* p) {
  uint32_t w[80];
  for (int i = 0; i < 16; i++) {
    w[i] = (uint32_t{p[4 * i]} << 24) | (uint32_t{p[4 * i + 1]} << 16) |
           (uint32_t{p[4 * i + 2]} << 8) | uint32_t{p[4 * i + 3]};
  }
  for (int i = 16; i < 80; i++) w[i] = Rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
  for (int i = 0; i < 80; i++) {
    uint32_t f, k;
    if (i < 20) {
      f = (b & c) | (~b & d), k = 0x5A827999;
    } else if (i < 40) {
      f = b ^ c ^ d, k = 0x6ED9EBA1;
    } else if (i < 60) {
      f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDC;
    } else {
      f = b ^ c ^ d, k = 0xCA62C1D6;
    }
    uint32_t t = Rol(a, 5) + f + e + k + w[i];
    e = d, d = c, c = Rol(b, 30), b = a, a = t;
  }
  h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

}  // namespace

std::string Sha1Hex(std::string_view data) {
  uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  size_t n = data.size();
  size_t full = n / 64 * 64;
  for (size_t i = 0; i < full; i += 64) Block(h, p + i);
  // Tail: the rest, 0x80, zeros, then the bit length big-endian.
  unsigned char tail[128] = {};
  size_t rest = n - full;
  memcpy(tail, p + full, rest);
  tail[rest] = 0x80;
  size_t tail_len = rest + 9 <= 64 ? 64 : 128;
  uint64_t bits = static_cast<uint64_t>(n) * 8;
  for (int i = 0; i < 8; i++) tail[tail_len - 1 - i] = static_cast<unsigned char>(bits >> (8 * i));
  Block(h, tail);
  if (tail_len == 128) Block(h, tail + 64);
  static const char kHex[] = "0123456789abcdef";
  std::string out(40, '0');
  for (int i = 0; i < 20; i++) {
    unsigned char byte = static_cast<unsigned char>(h[i / 4] >> (24 - 8 * (i % 4)));
    out[2 * i] = kHex[byte >> 4];
    out[2 * i + 1] = kHex[byte & 15];
  }
  return out;
}

}  // namespace rankd
