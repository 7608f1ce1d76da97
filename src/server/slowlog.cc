// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/slowlog.h"

#include <ctime>

#include "base/numbers.h"
#include "server/redact.h"

namespace rankd {

void SlowLog::Add(std::span<const std::string_view> sent, int64_t duration_us, size_t max_len,
                  std::string_view peer, std::string_view client_name) {
  const std::vector<std::string_view> args = RedactSecrets(sent);
  constexpr size_t kMaxArgs = 32, kMaxArgLen = 128;
  Entry e{next_id_++, static_cast<int64_t>(time(nullptr)), duration_us, {}, std::string(peer),
          std::string(client_name)};
  size_t n = std::min(args.size(), kMaxArgs);
  for (size_t i = 0; i < n; i++) {
    if (i == kMaxArgs - 1 && args.size() > kMaxArgs) {
      e.args.push_back("... (" + FormatInt64(static_cast<int64_t>(args.size() - kMaxArgs + 1)) +
                       " more arguments)");
      break;
    }
    std::string_view a = args[i];
    if (a.size() > kMaxArgLen) {
      e.args.push_back(std::string(a.substr(0, kMaxArgLen)) + "... (" +
                       FormatInt64(static_cast<int64_t>(a.size() - kMaxArgLen)) + " more bytes)");
    } else {
      e.args.emplace_back(a);
    }
  }
  entries_.push_front(std::move(e));
  Trim(max_len);
}

}  // namespace rankd
