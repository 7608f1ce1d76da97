// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The commands inside a log batch record (persist/format.h): each is the
// database index as a varint, then the command as a RESP array of bulk
// strings, so `strings` or the check tool show them readably.

#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankd {

// Appends one command to a batch payload.
void AppendCommand(std::string* batch, int db, std::span<const std::string_view> args);

// Appends one command as a RESP array of bulk strings (what AppendCommand
// writes after the database; a line of a Redis AOF, persist/redis_aof.h).
void AppendRespCommand(std::string* out, std::span<const std::string_view> args);

// Iterates the commands of one batch payload.
class BatchReader {
 public:
  explicit BatchReader(std::string_view payload) : in_(payload) {}

  // The next command: true with *db and *args (views into the payload);
  // false at the end or on malformed input (then error() is non-empty).
  bool Next(int* db, std::vector<std::string_view>* args);
  // Why the last Next() failed, "" at a clean end.
  const std::string& error() const { return error_; }

 private:
  bool Fail(const char* what);
  bool ReadLine(int64_t* value, char prefix);

  std::string_view in_;
  std::string error_;
};

}  // namespace rankd
