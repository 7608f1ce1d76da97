// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// AuthThrottle: slows down password guessing (beyond Redis, which answers
// every failed AUTH at once). Each failed AUTH or HELLO AUTH is counted
// against its connection and against its source address; the first
// failures are free, each further one gets its error reply later than the
// one before (the event loop keeps serving everyone else meanwhile), and a
// connection that keeps failing is closed. docs/security.md describes the
// settings (rankd-auth-*, server/config.h).
//
// An address's count is forgotten once it has seen no failure for
// kAddressWindowMs, so a client that mistyped a password is not punished
// later. Not thread-safe: the event loop thread owns it.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"

namespace rankd {

struct AuthThrottleSettings {
  int64_t free_failures = 10;           // per connection, answered at once
  int64_t address_free_failures = 100;  // per source address, within the window
  int64_t delay_ms = 10;                // the first delayed reply; doubles after
  int64_t max_delay_ms = 2000;          // the delay never grows beyond this
  int64_t max_failures = 100;           // per connection, then it is closed; 0: never
};

class AuthThrottle {
 public:
  static constexpr int64_t kAddressWindowMs = 60000;
  // Addresses remembered at most; beyond it the stale ones are swept and,
  // if still full, the table starts over (a flood of addresses gains only
  // the free failures of each).
  static constexpr size_t kMaxAddresses = 100000;

  AuthThrottle() = default;
  AuthThrottle(const AuthThrottle&) = delete;
  AuthThrottle& operator=(const AuthThrottle&) = delete;

  void set_settings(const AuthThrottleSettings& s) { settings_ = s; }

  struct Verdict {
    int64_t delay_ms = 0;  // hold the error reply this long (0: answer now)
    bool close = false;    // close the connection after the reply
  };
  // Records one failed authentication by a connection that had already
  // failed `*connection_failures` times (incremented here) from
  // `address` (the peer without its port; "" for none), at monotonic time
  // `now_ms`, and says how to answer it.
  Verdict Failed(std::string_view address, uint64_t* connection_failures, int64_t now_ms);

  // Failures counted for `address` within the window (tests, INFO).
  uint64_t address_failures(std::string_view address, int64_t now_ms) const;

 private:
  struct Address {
    uint64_t failures = 0;
    int64_t last_ms = 0;
  };
  void Sweep(int64_t now_ms);

  AuthThrottleSettings settings_;
  absl::flat_hash_map<std::string, Address> addresses_;
};

// The address part of a peer "ip:port" or "[v6]:port" ("" when none).
std::string_view PeerAddress(std::string_view peer);

}  // namespace rankd
