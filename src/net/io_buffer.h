// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// IoBuffer: a connection's read buffer. Bytes are appended at the tail (by
// read(2) straight into it) and consumed from the head by moving an offset,
// so handing 100,000 pipelined commands to the parser costs no memmove per
// command. The unconsumed tail is moved to the front only when room is needed
// and at least as many bytes were consumed as remain, which keeps the total
// copying linear in the bytes read.
//
// Memory is allocated without zeroing; data() is valid until the next
// PrepareAppend() or Release().

#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>

namespace rankd {

class IoBuffer {
 public:
  IoBuffer() = default;
  IoBuffer(const IoBuffer&) = delete;
  IoBuffer& operator=(const IoBuffer&) = delete;

  // The unconsumed bytes.
  std::string_view data() const { return {buf_.get() + begin_, end_ - begin_}; }
  size_t size() const { return end_ - begin_; }
  bool empty() const { return begin_ == end_; }
  size_t capacity() const { return cap_; }

  // Returns room for at least `n` bytes after the data; then call Commit()
  // with how many were written. May move the data (invalidates views).
  char* PrepareAppend(size_t n) {
    if (cap_ - end_ < n) MakeRoom(n);
    return buf_.get() + end_;
  }
  // REQUIRES: n <= the room PrepareAppend() returned.
  void Commit(size_t n) { end_ += n; }

  // Drops the first `n` bytes. REQUIRES: n <= size().
  void Consume(size_t n) {
    begin_ += n;
    if (begin_ == end_) begin_ = end_ = 0;
  }

  // Frees the memory. REQUIRES: empty().
  void Release() {
    buf_.reset();
    cap_ = begin_ = end_ = 0;
  }

 private:
  void MakeRoom(size_t n) {
    const size_t size = end_ - begin_;
    if (begin_ >= size && cap_ - size >= n) {
      // Cheap enough: we move no more than was consumed since the last move.
      memmove(buf_.get(), buf_.get() + begin_, size);
    } else {
      size_t cap = cap_ < 4096 ? 4096 : cap_ * 2;
      if (cap < size + n) cap = size + n;  // e.g. exactly one big bulk
      std::unique_ptr<char[]> fresh(new char[cap]);
      if (size) memcpy(fresh.get(), buf_.get() + begin_, size);
      buf_ = std::move(fresh);
      cap_ = cap;
    }
    begin_ = 0;
    end_ = size;
  }

  std::unique_ptr<char[]> buf_;
  size_t cap_ = 0, begin_ = 0, end_ = 0;
};

}  // namespace rankd
