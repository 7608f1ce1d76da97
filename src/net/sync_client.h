// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SyncConnection: a blocking TCP client connection with a deadline on every
// call, for MIGRATE. As in Redis (connBlockingConnect, connSyncWrite,
// connSyncReadLine), the server's event loop waits while it runs: MIGRATE's
// timeout bounds each step. Plain TCP only (no TLS). Not thread-safe.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace rankd {

class SyncConnection {
 public:
  // Starts connecting to host:port and waits up to timeout_ms for it.
  // nullptr when the address does not resolve or no socket can be made
  // (*err says why); a refused or unfinished connection is returned and
  // its first write fails, as with Redis's connBlockingConnect.
  static std::unique_ptr<SyncConnection> Connect(const std::string& host, int port,
                                                 int64_t timeout_ms, std::string* err);
  ~SyncConnection();
  SyncConnection(const SyncConnection&) = delete;
  SyncConnection& operator=(const SyncConnection&) = delete;

  // Sends all of `data`; false on an error or when timeout_ms passes
  // without progress (timed_out() then true).
  bool WriteAll(std::string_view data, int64_t timeout_ms);
  // Reads one line, returned without its "\r\n"; false on an error, the
  // peer closing, or timeout_ms passing without a whole line.
  bool ReadLine(std::string* line, int64_t timeout_ms);
  bool timed_out() const { return timed_out_; }

 private:
  explicit SyncConnection(int fd) : fd_(fd) {}
  // Waits for `events` on the socket; false on timeout (sets timed_out_).
  bool Wait(short events, int64_t timeout_ms);

  const int fd_;
  std::string in_;  // bytes read past the last line returned
  bool timed_out_ = false;
};

}  // namespace rankd
