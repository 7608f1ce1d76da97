// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/lzf.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <algorithm>

namespace rankd {
namespace {

constexpr size_t kMaxLiteral = 32;     // bytes one literal item carries
constexpr size_t kMaxOffset = 8192;    // how far back a reference reaches
constexpr size_t kMaxMatch = 264;      // bytes one reference copies
constexpr int kHashLog = 16;           // liblzf's HLOG
constexpr size_t kHashSize = size_t{1} << kHashLog;

// liblzf's IDX(NEXT(FRST(p), p)) with VERY_FAST: the slot of the 3 bytes
// at p. Only the low 24 bits of the running value matter, so it is
// computed from the 3 bytes afresh.
inline uint32_t Slot(const uint8_t* p) {
  const uint32_t h = (uint32_t{p[0]} << 16) | (uint32_t{p[1]} << 8) | p[2];
  return ((h >> (3 * 8 - kHashLog)) - h * 5) & (kHashSize - 1);
}

// Slot -> last position hashed there, valid when its stamp is this call's
// (a table that starts empty without clearing 256 KB per call). An empty
// slot reads as position 0, which liblzf never refers to.
struct HashTable {
  uint32_t pos[kHashSize];
  uint32_t stamp[kHashSize];
  uint32_t now = 0;

  void Begin() {
    if (++now == 0) {  // wrapped: forget every stamp
      std::memset(stamp, 0, sizeof(stamp));
      now = 1;
    }
  }
  uint32_t Swap(uint32_t slot, uint32_t p) {
    const uint32_t old = stamp[slot] == now ? pos[slot] : 0;
    pos[slot] = p;
    stamp[slot] = now;
    return old;
  }
};

HashTable& Table() {
  thread_local auto table = std::make_unique<HashTable>();
  return *table;
}

}  // namespace

// The algorithm of liblzf 3.6's lzf_compress (HLOG 16, VERY_FAST, the
// settings Redis and Debian's liblzf build with), so that RDB strings and
// DUMP payloads are byte for byte Redis's: which matches are taken, the
// literal runs cut at 32 bytes, no reference to position 0, a match never
// reaching the last 2 bytes' lookahead, and only the last 2 positions of a
// match hashed.
size_t LzfCompress(std::string_view input, char* output, size_t out_cap) {
  const auto* in = reinterpret_cast<const uint8_t*>(input.data());
  auto* out = reinterpret_cast<uint8_t*>(output);
  const size_t n = input.size();
  if (n == 0 || out_cap == 0) return 0;
  HashTable& table = Table();
  table.Begin();
  size_t ip = 0, op = 1;  // op - lit - 1: the open literal run's control byte
  size_t lit = 0;
  // One more byte into the open run; a full run (32) is closed and the
  // next opened. False when out of room.
  auto copy_literal = [&] {
    if (op >= out_cap) return false;
    lit++;
    out[op++] = in[ip++];
    if (lit == kMaxLiteral) {
      out[op - lit - 1] = static_cast<uint8_t>(lit - 1);
      lit = 0;
      op++;
    }
    return true;
  };
  while (ip + 2 < n) {
    const size_t ref = table.Swap(Slot(in + ip), static_cast<uint32_t>(ip));
    if (ref < ip && ip - ref - 1 < kMaxOffset && ref > 0 && in[ref] == in[ip] &&
        in[ref + 1] == in[ip + 1] && in[ref + 2] == in[ip + 2]) {
      const size_t off = ip - ref - 1;
      const size_t maxlen = std::min(n - ip - 2, kMaxMatch);
      if (op + 3 + 1 >= out_cap && op - (lit == 0) + 3 + 1 >= out_cap) return 0;
      out[op - lit - 1] = static_cast<uint8_t>(lit - 1);  // close the run
      op -= (lit == 0);                                   // an empty one is dropped
      // liblzf first compares 16 bytes unrolled when maxlen > 16, which may
      // run up to 2 bytes past maxlen (to the end of the input): kept.
      size_t len = 2;
      bool ended = false;
      for (int k = 0; k < 16 && maxlen > 16 && !ended; k++) {
        len++;
        ended = in[ref + len] != in[ip + len];
      }
      if (!ended) {
        do {
          len++;
        } while (len < maxlen && in[ref + len] == in[ip + len]);
      }
      len -= 2;  // the encoded length: bytes copied - 2
      if (len < 7) {
        out[op++] = static_cast<uint8_t>((off >> 8) + (len << 5));
      } else {
        out[op++] = static_cast<uint8_t>((off >> 8) + (7 << 5));
        out[op++] = static_cast<uint8_t>(len - 7);
      }
      out[op++] = static_cast<uint8_t>(off);
      lit = 0;
      op++;  // open a new run
      ip += len + 2;
      if (ip + 2 >= n) break;
      // Hash the match's last 2 positions (VERY_FAST).
      table.Swap(Slot(in + ip - 2), static_cast<uint32_t>(ip - 2));
      table.Swap(Slot(in + ip - 1), static_cast<uint32_t>(ip - 1));
      continue;
    }
    if (!copy_literal()) return 0;
  }
  if (op + 3 > out_cap) return 0;  // at most 3 literal bytes remain
  while (ip < n) {
    if (!copy_literal()) return 0;
  }
  out[op - lit - 1] = static_cast<uint8_t>(lit - 1);
  op -= (lit == 0);
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
