// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/resp_peek.h"

namespace rankd {
namespace {

constexpr size_t kMaxPeekArgs = 1024;
constexpr size_t kMaxPeekBulk = 64 * 1024;

// Reads "<digits>\r\n" at *p (after the type byte) into *value, moving *p
// past it. Pointers rather than string_view indexing: this runs for every
// pipelined command, and bounds checks per byte were most of its cost.
inline bool ReadCount(const char** p, const char* end, size_t limit, size_t* value) {
  const char* q = *p;
  size_t v = 0;
  while (q < end && static_cast<unsigned char>(*q - '0') <= 9) {
    v = v * 10 + static_cast<size_t>(*q - '0');
    if (v > limit) return false;
    q++;
  }
  if (q == *p || end - q < 2 || q[0] != '\r' || q[1] != '\n') return false;
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
  for (size_t i = 0; i < argc; i++) {
    if (p >= end || *p != '$') return false;
    p++;
    size_t len;
    if (!ReadCount(&p, end, kMaxPeekBulk, &len)) return false;
    if (static_cast<size_t>(end - p) < len + 2) return false;
    if (i < PeekedCommand::kMaxArgs) out->args[i] = std::string_view(p, len);
    p += len + 2;
  }
  out->argc = argc;
  out->end = static_cast<size_t>(p - begin);
  return true;
}

}  // namespace rankd
