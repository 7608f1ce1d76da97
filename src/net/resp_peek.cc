// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/resp_peek.h"

namespace rankd {
namespace {

// ReadCanonicalCount for the usual counts, one or two digits with no
// leading zero ("3", "16"), read without its loop; anything else goes to it.
inline bool ReadCount(const char** p, const char* end, uint64_t max, uint64_t* out) {
  const char* q = *p;
  if (end - q >= 4) {
    const unsigned d0 = static_cast<unsigned char>(q[0] - '1');  // 0..8 for '1'..'9'
    const unsigned d1 = static_cast<unsigned char>(q[1] - '0');
    if (d0 <= 8 && q[1] == '\r' && q[2] == '\n' && d0 + 1 <= max) {
      *p = q + 3;
      *out = d0 + 1;
      return true;
    }
    if (d0 <= 8 && d1 <= 9 && q[2] == '\r' && q[3] == '\n' && (d0 + 1) * 10 + d1 <= max) {
      *p = q + 4;
      *out = (d0 + 1) * 10 + d1;
      return true;
    }
  }
  return ReadCanonicalCount(p, end, max, out);
}

}  // namespace

bool PeekCommand(std::string_view data, size_t pos, PeekedCommand* out) {
  const char* const begin = data.data();
  const char* const end = begin + data.size();
  if (pos >= data.size() || begin[pos] != '*') return false;
  const char* p = begin + pos + 1;
  uint64_t argc;
  if (!ReadCount(&p, end, kMaxPeekArgs, &argc) || argc == 0) return false;
  size_t max_len = 0;
  for (size_t i = 0; i < argc; i++) {
    if (p >= end || *p != '$') return false;
    p++;
    uint64_t len;
    if (!ReadCount(&p, end, kMaxPeekBulk, &len)) return false;
    if (static_cast<size_t>(end - p) < len + 2) return false;
    if (i < PeekedCommand::kMaxArgs) out->args[i] = std::string_view(p, len);
    max_len = len > max_len ? len : max_len;
    p += len + 2;
  }
  out->argc = argc;
  out->end = static_cast<size_t>(p - begin);
  out->size = out->end - pos;
  out->max_len = max_len;
  return true;
}

}  // namespace rankd
