// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SnapshotReceiver writes a full sync's snapshot, as it arrives from the
// primary, to a file, so a replica never holds the payload in memory (a
// 10^8-member board's is 2.5 GB). Two framings, both Redis's:
//   "$<len>\r\n" then exactly <len> bytes (a disk-based primary);
//   "$EOF:<40-byte mark>\r\n" then bytes up to that mark (a diskless one).
// The mark may arrive split across reads: the last 40 bytes seen are held
// back until more arrive. Not thread-safe; no event loop: the caller feeds it.

#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rankd {

class SnapshotReceiver {
 public:
  SnapshotReceiver() = default;
  ~SnapshotReceiver() { Abort(); }
  SnapshotReceiver(const SnapshotReceiver&) = delete;
  SnapshotReceiver& operator=(const SnapshotReceiver&) = delete;

  // Starts a transfer from its header line (without "\r\n") into a new
  // file at `path` (truncated if present). False with *err set for a header
  // that is neither framing, or a file that cannot be created.
  bool Start(std::string_view header, const std::string& path, std::string* err);

  enum class Result { kMore, kDone, kError };
  // Takes bytes of the transfer from `in`; *used is how many belong to the
  // snapshot (bytes after its end are the command stream, left to the
  // caller). kDone: the file is complete and closed; kError: *err says why
  // (the file is removed).
  Result Feed(std::string_view in, size_t* used, std::string* err);

  // Closes and removes an unfinished file; no-op when idle.
  void Abort();

  bool active() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }
  uint64_t bytes_written() const { return written_; }

 private:
  bool Write(std::string_view bytes, std::string* err);
  Result Finish(std::string* err);

  int fd_ = -1;
  std::string path_;
  int64_t left_ = 0;   // length framing: bytes still to come
  std::string mark_;   // mark framing: the end mark (empty: length framing)
  std::string tail_;   // mark framing: the last bytes seen, not yet written
  uint64_t written_ = 0;
};

}  // namespace rankd
