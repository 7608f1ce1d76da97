// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/resp_peek.h"

namespace rankd {

bool PeekCommand(std::string_view data, size_t pos, PeekedCommand* out) {
  const char* const begin = data.data();
  const char* const end = begin + data.size();
  if (pos >= data.size() || begin[pos] != '*') return false;
  const char* p = begin + pos + 1;
  uint64_t argc;
  if (!ReadCanonicalCount(&p, end, kMaxPeekArgs, &argc) || argc == 0) return false;
  size_t max_len = 0;
  for (size_t i = 0; i < argc; i++) {
    if (p >= end || *p != '$') return false;
    p++;
    uint64_t len;
    if (!ReadCanonicalCount(&p, end, kMaxPeekBulk, &len)) return false;
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
