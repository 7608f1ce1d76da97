// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Internals of the RDB reader (persist/rdb_reader.h) shared by its files:
// a bounds-checked cursor over the RDB bytes with Redis's length and string
// encodings (rdb_reader.cc), and the value decoders (rdb_values.cc).

#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "db/value.h"
#include "persist/snapshot.h"

namespace rankd::rdb {

class Cursor {
 public:
  explicit Cursor(std::string_view data) : data_(data) {}

  // Each read returns false at the end of the data or on a bad encoding,
  // with status() set; it then stays failed.
  bool Byte(uint8_t* b);
  bool Bytes(size_t n, std::string_view* out);
  // A length; *special is set (when given) for an encoded string's marker
  // (11xxxxxx) and the low 6 bits are returned in *len.
  bool Length(uint64_t* len, bool* special = nullptr);
  // A string in any of its encodings (integers come back as decimal text).
  bool String(std::string* out);
  // A string holding a decimal double (zset type 3: length byte 253 nan,
  // 254 +inf, 255 -inf).
  bool OldDouble(double* out);
  bool Fail(std::string what);
  // The encoding of the value being read, e.g. "Ziplist" (nullptr: none);
  // a failure inside it reads "<encoding> integrity check failed: <what>",
  // the words Redis's own load errors use and log watchers grep for.
  void set_encoding(const char* name) { encoding_ = name; }
  // An InvalidArgument error: valid RDB that rankd cannot hold.
  bool Unsupported(std::string what);

  // Calls `tick(pos)` each time the cursor has moved on `every` bytes since
  // the last call (progress reports inside a single huge value too).
  // `tick` must outlive the cursor.
  void set_tick(size_t every, const std::function<void(size_t pos)>* tick) {
    tick_every_ = every;
    tick_ = tick;
    next_tick_ = tick ? pos_ + every : SIZE_MAX;
  }

  size_t pos() const { return pos_; }
  std::string_view data() const { return data_; }
  const Status& status() const { return status_; }

 private:
  std::string_view data_;
  size_t pos_ = 0;
  size_t next_tick_ = SIZE_MAX, tick_every_ = 0;
  const std::function<void(size_t pos)>* tick_ = nullptr;
  const char* encoding_ = nullptr;
  Status status_;
};

// `n` bytes of `s` from `pos` as a little-endian unsigned integer.
inline uint64_t LittleEndian(std::string_view s, size_t pos, size_t n) {
  uint64_t u = 0;
  for (size_t i = 0; i < n; i++) {
    u |= static_cast<uint64_t>(static_cast<uint8_t>(s[pos + i])) << (8 * i);
  }
  return u;
}

// Appends the elements of listpack `lp` to *out (integers as decimal
// text), checked as Redis's lpValidateIntegrity; false with c's status set.
bool ParseListpack(std::string_view lp, Cursor& c, std::vector<std::string>* out);

// Decodes a stream of RDB type 15, 19 or 21 (rdb_stream.cc).
bool ReadStream(uint8_t type, Cursor& c, Value* out);
// A stream in rankd's snapshot: its RDB type byte and value (format.h).
// Corruption naming what is wrong.
Status ReadStreamBlob(std::string_view blob, Value* out);

// Decodes a value of RDB type `type` at `c` into `*out`; *empty is set for
// a collection without elements (Redis skips such keys too).
// The name Redis's load errors give value type `type`'s encoding ("Ziplist",
// "Hash listpack", ...); nullptr for a type with none.
const char* EncodingName(uint8_t type);

bool ReadValue(uint8_t type, Cursor& c, const SnapshotLoadOptions& opts, Value* out,
               bool* empty);

}  // namespace rankd::rdb
