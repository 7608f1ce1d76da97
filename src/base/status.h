// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Status is the outcome of an I/O or recovery step (LevelDB style): ok, or a
// code with a message. Cheap to return when ok. Check it at once.

#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace rankd {

class [[nodiscard]] Status {
 public:
  enum class Code { kOk, kIOError, kCorruption, kInvalidArgument, kNotFound };

  Status() = default;
  static Status OK() { return Status(); }
  static Status IOError(std::string_view context, std::string_view detail) {
    return Status(Code::kIOError, std::string(context) + ": " + std::string(detail));
  }
  static Status Corruption(std::string msg) { return Status(Code::kCorruption, std::move(msg)); }
  static Status InvalidArgument(std::string msg) {
    return Status(Code::kInvalidArgument, std::move(msg));
  }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  // The message without a code prefix; empty when ok.
  const std::string& message() const { return msg_; }

 private:
  Status(Code code, std::string msg) : code_(code), msg_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string msg_;
};

}  // namespace rankd
