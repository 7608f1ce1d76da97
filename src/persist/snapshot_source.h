// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The snapshot reader's input (persist/snapshot_reader.cc): a refillable
// buffer over a SequentialFile that extends the CRC-32C over the bytes as
// they are consumed, with the format's primitive reads (persist/coding.h).
// MemFile serves a snapshot held in memory (the "rankd-entry" RDB field).

#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "persist/coding.h"
#include "persist/crc32c.h"
#include "persist/env.h"

namespace rankd::snapshot_internal {

constexpr size_t kReadChunk = 1 << 20;

class Source {
 public:
  Source(SequentialFile* file, uint64_t size, std::string path)
      : file_(file), size_(size), path_(std::move(path)) {}

  uint64_t offset() const { return base_ + pos_; }
  uint64_t remaining() const { return size_ - offset(); }
  const Status& status() const { return status_; }
  // Everything consumed so far, for the trailer check.
  uint32_t ConsumedCrc() { return Checksum(), crc_; }

  Status Corrupt(const std::string& what) {
    if (status_.ok()) {
      status_ = Status::Corruption(path_ + ": " + what + " at offset " + std::to_string(offset()));
    }
    return status_;
  }

  // Makes `n` unconsumed bytes available; false (status set) if the file ends.
  bool Need(size_t n) {
    if (Fill(n)) return true;
    if (status_.ok()) (void)Corrupt("unexpected end of file");
    return false;
  }
  // True if `n` unconsumed bytes are already buffered (no read, no move).
  bool Buffered(size_t n) const { return buf_.size() - pos_ >= n; }

  bool Byte(uint8_t* b) {
    if (!Need(1)) return false;
    *b = static_cast<uint8_t>(buf_[pos_++]);
    return true;
  }
  bool Varint(uint64_t* v) {
    if (!Fill(10) && !Need(1)) return false;  // fewer than 10 only near EOF
    std::string_view in(buf_.data() + pos_, buf_.size() - pos_);
    size_t before = in.size();
    if (!coding::GetVarint64(&in, v)) return (void)Corrupt("bad varint"), false;
    pos_ += before - in.size();
    return true;
  }
  bool Fixed32(uint32_t* v) {
    if (!Need(4)) return false;
    *v = coding::DecodeFixed32(buf_.data() + pos_);
    pos_ += 4;
    return true;
  }
  bool Fixed64(uint64_t* v) {
    if (!Need(8)) return false;
    *v = coding::DecodeFixed64(buf_.data() + pos_);
    pos_ += 8;
    return true;
  }
  // A length-prefixed string; the view is valid until the next read.
  bool String(std::string_view* s) {
    uint64_t len;
    if (!Varint(&len)) return false;
    if (len > size_ - offset()) return (void)Corrupt("string length past end of file"), false;
    if (!Need(static_cast<size_t>(len))) return false;
    *s = std::string_view(buf_.data() + pos_, len);
    pos_ += len;
    return true;
  }
  bool Bytes(size_t n, std::string_view* s) {
    if (!Need(n)) return false;
    *s = std::string_view(buf_.data() + pos_, n);
    pos_ += n;
    return true;
  }

 private:
  void Checksum() {
    crc_ = crc32c::Extend(crc_, buf_.data() + crc_pos_, pos_ - crc_pos_);
    crc_pos_ = pos_;
  }

  // Makes `n` unconsumed bytes available if the file has them; false at EOF
  // (status unchanged) or on a read error (status set).
  bool Fill(size_t n) {
    if (buf_.size() - pos_ >= n) return true;
    if (!status_.ok()) return false;
    Checksum();
    buf_.erase(0, pos_);
    base_ += pos_;
    pos_ = crc_pos_ = 0;
    while (buf_.size() < n) {
      uint64_t left = size_ - base_ - buf_.size();
      if (left == 0) return false;
      size_t want =
          static_cast<size_t>(std::min<uint64_t>(std::max(n - buf_.size(), kReadChunk), left));
      size_t old = buf_.size();
      buf_.resize(old + want);
      std::string_view got;
      Status s = file_->Read(want, &got, buf_.data() + old);
      buf_.resize(old + got.size());
      if (!s.ok()) {
        status_ = s;
        return false;
      }
      if (got.empty()) return false;
    }
    return true;
  }

  SequentialFile* file_;
  const uint64_t size_;
  const std::string path_;
  std::string buf_;
  size_t pos_ = 0;      // next unconsumed byte in buf_
  size_t crc_pos_ = 0;  // bytes of buf_ before this are in crc_
  uint64_t base_ = 0;   // file offset of buf_[0]
  uint32_t crc_ = 0;
  Status status_;
};

// A snapshot held in memory (EncodeEntrySnapshot's blobs).
class MemFile : public SequentialFile {
 public:
  explicit MemFile(std::string_view data) : data_(data) {}
  Status Read(size_t n, std::string_view* result, char* scratch) override {
    n = data_.copy(scratch, n, pos_);
    pos_ += n;
    *result = std::string_view(scratch, n);
    return Status::OK();
  }

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

}  // namespace rankd::snapshot_internal
