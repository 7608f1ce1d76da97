// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/command_codec.h"

#include <charconv>

#include "persist/coding.h"

namespace rankd {
namespace {

void AppendHeader(std::string* out, char prefix, size_t n) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), n);
  out->push_back(prefix);
  out->append(buf, end);
  out->append("\r\n");
}

}  // namespace

void AppendCommand(std::string* batch, int db, std::span<const std::string_view> args) {
  coding::PutVarint64(batch, static_cast<uint64_t>(db));
  AppendRespCommand(batch, args);
}

void AppendRespCommand(std::string* out, std::span<const std::string_view> args) {
  AppendHeader(out, '*', args.size());
  for (std::string_view a : args) {
    AppendHeader(out, '$', a.size());
    out->append(a);
    out->append("\r\n");
  }
}

bool BatchReader::Fail(const char* what) {
  error_ = what;
  in_ = {};
  return false;
}

// Reads "<prefix><digits>\r\n".
bool BatchReader::ReadLine(int64_t* value, char prefix) {
  if (in_.empty() || in_[0] != prefix) return false;
  size_t crlf = in_.find("\r\n");
  if (crlf == std::string_view::npos || crlf < 2) return false;
  auto [ptr, ec] = std::from_chars(in_.data() + 1, in_.data() + crlf, *value);
  if (ec != std::errc() || ptr != in_.data() + crlf || *value < 0) return false;
  in_.remove_prefix(crlf + 2);
  return true;
}

bool BatchReader::Next(int* db, std::vector<std::string_view>* args) {
  if (in_.empty()) return false;
  uint64_t dbv;
  if (!coding::GetVarint64(&in_, &dbv) || dbv > INT32_MAX) return Fail("bad database index");
  int64_t n;
  if (!ReadLine(&n, '*') || n == 0) return Fail("bad command array header");
  args->clear();
  for (int64_t i = 0; i < n; i++) {
    int64_t len;
    if (!ReadLine(&len, '$')) return Fail("bad bulk string header");
    if (in_.size() < static_cast<uint64_t>(len) + 2 || in_.substr(len, 2) != "\r\n") {
      return Fail("truncated bulk string");
    }
    args->push_back(in_.substr(0, len));
    in_.remove_prefix(len + 2);
  }
  *db = static_cast<int>(dbv);
  return true;
}

}  // namespace rankd
