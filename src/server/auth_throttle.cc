// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/auth_throttle.h"

#include <algorithm>

namespace rankd {

std::string_view PeerAddress(std::string_view peer) {
  const size_t colon = peer.rfind(':');
  if (colon == std::string_view::npos) return peer;
  std::string_view host = peer.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return host;
}

void AuthThrottle::Sweep(int64_t now_ms) {
  absl::erase_if(addresses_, [&](const auto& entry) {
    return now_ms - entry.second.last_ms >= kAddressWindowMs;
  });
  if (addresses_.size() >= kMaxAddresses) addresses_.clear();
}

AuthThrottle::Verdict AuthThrottle::Failed(std::string_view address,
                                           uint64_t* connection_failures, int64_t now_ms) {
  const uint64_t mine = ++*connection_failures;
  uint64_t theirs = 0;
  if (!address.empty()) {
    if (addresses_.size() >= kMaxAddresses) Sweep(now_ms);
    Address& a = addresses_[std::string(address)];
    if (now_ms - a.last_ms >= kAddressWindowMs) a.failures = 0;
    a.failures++;
    a.last_ms = now_ms;
    theirs = a.failures;
  }
  Verdict v;
  const auto over = [](uint64_t count, int64_t allowance) -> uint64_t {
    const uint64_t free = static_cast<uint64_t>(std::max<int64_t>(allowance, 0));
    return count > free ? count - free : 0;
  };
  // The n-th failure beyond the free ones waits delay_ms * 2^(n-1), capped.
  const uint64_t excess = std::max(over(mine, settings_.free_failures),
                                   over(theirs, settings_.address_free_failures));
  if (excess > 0 && settings_.delay_ms > 0) {
    const int64_t cap = std::max(settings_.max_delay_ms, settings_.delay_ms);
    v.delay_ms = settings_.delay_ms;
    for (uint64_t i = 1; i < excess && v.delay_ms < cap; i++) v.delay_ms *= 2;
    v.delay_ms = std::min(v.delay_ms, cap);
  }
  v.close = settings_.max_failures > 0 && mine >= static_cast<uint64_t>(settings_.max_failures);
  return v;
}

uint64_t AuthThrottle::address_failures(std::string_view address, int64_t now_ms) const {
  auto it = addresses_.find(std::string(address));
  if (it == addresses_.end() || now_ms - it->second.last_ms >= kAddressWindowMs) return 0;
  return it->second.failures;
}

}  // namespace rankd
