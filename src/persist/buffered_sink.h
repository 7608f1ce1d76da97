// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// BufferedSink: what a streaming file writer (a snapshot, a Redis RDB)
// appends goes into a buffer that is handed to the file once it holds
// kFlushBytes, each flushed piece shown first to an observer (the writer's
// running checksum). The first error sticks. Not thread-safe.

#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "persist/env.h"

namespace rankd {

class BufferedSink {
 public:
  static constexpr size_t kFlushBytes = 1 << 20;
  using Observer = std::function<void(std::string_view bytes)>;

  // `file` outlives the sink; `seen` gets every byte flushed, in order.
  BufferedSink(WritableFile* file, Observer seen) : file_(file), seen_(std::move(seen)) {}
  BufferedSink(const BufferedSink&) = delete;
  BufferedSink& operator=(const BufferedSink&) = delete;

  // The buffer to append to.
  std::string& buf() { return buf_; }
  // Writes the buffer out once it holds kFlushBytes (always when `force`).
  Status MaybeFlush(bool force = false) {
    if (!status_.ok() || buf_.empty() || (!force && buf_.size() < kFlushBytes)) return status_;
    seen_(buf_);
    return Write();
  }
  // Flushes, then writes `trailer` unseen (the checksum of what was seen).
  // `trailer` is called once everything else was seen.
  Status Finish(const std::function<std::string()>& trailer) {
    if (!MaybeFlush(true).ok()) return status_;
    buf_ = trailer();
    return Write();
  }
  // Bytes written to the file so far.
  uint64_t bytes() const { return bytes_; }

 private:
  Status Write() {
    bytes_ += buf_.size();
    status_ = file_->Append(buf_);
    buf_.clear();
    return status_;
  }

  WritableFile* file_;
  Observer seen_;
  std::string buf_;
  uint64_t bytes_ = 0;
  Status status_;
};

}  // namespace rankd
