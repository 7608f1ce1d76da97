// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/resp_peek.h"

namespace rankd {
namespace {

constexpr size_t kMaxPeekArgs = 1024;
constexpr size_t kMaxPeekBulk = 64 * 1024;

// Reads "<digits>\r\n" at data[*pos] (after the type byte) into *value.
bool ReadCount(std::string_view data, size_t* pos, size_t limit, size_t* value) {
  size_t i = *pos, v = 0, digits = 0;
  while (i < data.size() && data[i] >= '0' && data[i] <= '9') {
    v = v * 10 + static_cast<size_t>(data[i] - '0');
    if (v > limit) return false;
    i++, digits++;
  }
  if (digits == 0 || i + 1 >= data.size() || data[i] != '\r' || data[i + 1] != '\n') return false;
  *pos = i + 2;
  *value = v;
  return true;
}

}  // namespace

bool PeekCommand(std::string_view data, size_t pos, PeekedCommand* out) {
  if (pos >= data.size() || data[pos] != '*') return false;
  pos++;
  size_t argc;
  if (!ReadCount(data, &pos, kMaxPeekArgs, &argc) || argc == 0) return false;
  for (size_t i = 0; i < argc; i++) {
    if (pos >= data.size() || data[pos] != '$') return false;
    pos++;
    size_t len;
    if (!ReadCount(data, &pos, kMaxPeekBulk, &len)) return false;
    if (data.size() - pos < len + 2) return false;
    if (i < PeekedCommand::kMaxArgs) out->args[i] = data.substr(pos, len);
    pos += len + 2;
  }
  out->argc = argc;
  out->end = pos;
  return true;
}

}  // namespace rankd
