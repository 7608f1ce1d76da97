// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/resp_peek.h"

namespace rankd {
namespace {

// Reads "<digits>\r\n" at *p (after the type byte) into *value, moving *p
// past it; the digits written canonically ("0", or no leading zero), as
// the parser's one-pass path wants them. Pointers rather than string_view
// indexing: this runs for every pipelined command, and bounds checks per
// byte were most of its cost.
inline bool ReadCount(const char** p, const char* end, size_t limit, size_t* value) {
  const char* q = *p;
  size_t v = 0;
  while (q < end && static_cast<unsigned char>(*q - '0') <= 9) {
    v = v * 10 + static_cast<size_t>(*q - '0');
    if (v > limit) return false;
    q++;
  }
  if (q == *p || (**p == '0' && q - *p > 1)) return false;
  if (end - q < 2 || q[0] != '\r' || q[1] != '\n') return false;
  *p = q + 2;
  *value = v;
  return true;
}

}  // namespace

bool PeekCommand(std::string_view data, size_t pos, PeekedCommand* out) {
  const char* const begin = data.data();
  const char* const end = begin + data.size();
  if (pos >= data.size() || begin[pos] != '*') return false;
  const char* p = begin + pos + 1;
  size_t argc;
  if (!ReadCount(&p, end, kMaxPeekArgs, &argc) || argc == 0) return false;
  size_t max_len = 0;
  for (size_t i = 0; i < argc; i++) {
    if (p >= end || *p != '$') return false;
    p++;
    size_t len;
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
