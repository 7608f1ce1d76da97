// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/notify.h"

#include "server/server.h"

namespace rankd {
namespace {

constexpr struct {
  char ch;
  uint32_t bits;
} kFlagChars[] = {
    {'A', kNotifyAll},      {'g', kNotifyGeneric}, {'$', kNotifyString},   {'l', kNotifyList},
    {'s', kNotifySet},      {'h', kNotifyHash},    {'z', kNotifyZset},     {'x', kNotifyExpired},
    {'e', kNotifyEvicted},  {'K', kNotifyKeyspace}, {'E', kNotifyKeyevent}, {'t', kNotifyStream},
    {'m', kNotifyKeyMiss},  {'d', kNotifyModule},  {'n', kNotifyNew},
};

}  // namespace

bool ParseNotifyFlags(std::string_view s, int64_t* flags) {
  int64_t out = 0;
  for (char ch : s) {
    bool known = false;
    for (auto [c, bits] : kFlagChars) {
      if (c == ch) {
        out |= bits;
        known = true;
      }
    }
    if (!known) return false;
  }
  *flags = out;
  return true;
}

std::string FormatNotifyFlags(int64_t flags) {
  std::string s;
  if ((flags & kNotifyAll) == kNotifyAll) {
    s = "A";
  } else {
    for (std::string_view part : {"g", "$", "l", "s", "h", "z", "x", "e", "t", "d", "n"}) {
      for (auto [c, bits] : kFlagChars) {
        if (c == part[0] && (flags & bits)) s += c;
      }
    }
  }
  if (flags & kNotifyKeyspace) s += 'K';
  if (flags & kNotifyKeyevent) s += 'E';
  if (flags & kNotifyKeyMiss) s += 'm';
  return s;
}

void KeyChanged(CommandContext& ctx, Database& db, std::string_view key, NotifyClass cls,
                std::string_view event) {
  db.Touch(key);
  ctx.server.NotifyKeyspaceEvent(cls, event, key, db.index());
}

void KeyEvent(CommandContext& ctx, Database& db, NotifyClass cls, std::string_view event,
              std::string_view key) {
  ctx.server.NotifyKeyspaceEvent(cls, event, key, db.index());
}

}  // namespace rankd
