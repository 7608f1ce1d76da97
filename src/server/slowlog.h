// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SlowLog: the last `max_len` commands that took longer than the configured
// threshold (SLOWLOG GET / LEN / RESET), newest first, arguments truncated as
// Redis does (32 arguments, 128 bytes each), secrets read "(redacted)"
// (server/redact.h).

#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankd {

class SlowLog {
 public:
  struct Entry {
    uint64_t id;
    int64_t unix_s;
    int64_t duration_us;
    std::vector<std::string> args;
    std::string peer;
    std::string client_name;
  };

  // Records the command if `duration_us` >= `threshold_us` (threshold < 0
  // disables the log), trimming to `max_len` entries.
  // The threshold test is inline: it runs after every command, and most
  // are fast.
  void Record(std::span<const std::string_view> args, int64_t duration_us, int64_t threshold_us,
              size_t max_len, std::string_view peer, std::string_view client_name) {
    if (threshold_us < 0 || duration_us < threshold_us) return;
    Add(args, duration_us, max_len, peer, client_name);
  }
  void Reset() { entries_.clear(); }
  void Trim(size_t max_len) {
    while (entries_.size() > max_len) entries_.pop_back();
  }
  const std::deque<Entry>& entries() const { return entries_; }

 private:
  void Add(std::span<const std::string_view> args, int64_t duration_us, size_t max_len,
           std::string_view peer, std::string_view client_name);

  std::deque<Entry> entries_;
  uint64_t next_id_ = 0;
};

}  // namespace rankd
