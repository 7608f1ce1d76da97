// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// LogReader reads a log file's records (persist/format.h) in order and
// classifies how the file ends:
//   - clean: the last record ends exactly at the end of the file;
//   - torn tail: from some offset on, no valid record starts anywhere, and
//     what is there is what a crash leaves: a record cut short (its header or
//     payload runs past the end of the file) or zero fill (blocks never
//     written) over its last sector; recovery drops those bytes;
//   - corruption: a bad record is followed later by a valid one, so data in
//     the middle is damaged; or the last record is all there (full length,
//     not zero fill) yet fails its checksum, type or length check, which is
//     damage to a record that was written whole, not a torn write. Recovery
//     must stop and a person decide.
// The distinction is made by scanning the rest of the file for any offset
// where a well-formed record with a correct CRC starts, then looking at the
// bad record itself. Both only run when a bad record is found.
// Not thread-safe.

#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"
#include "persist/env.h"
#include "persist/format.h"

namespace rankd {

class LogReader {
 public:
  // `file_size` bounds the read (the size when the file was opened).
  // `name` is used in error messages.
  LogReader(std::unique_ptr<SequentialFile> file, uint64_t file_size, std::string name);
  LogReader(const LogReader&) = delete;
  LogReader& operator=(const LogReader&) = delete;

  // Reads the next record. True with *type and *payload (valid until the
  // next call); false at the end, which status(), torn_tail() describe.
  bool ReadRecord(format::RecordType* type, std::string_view* payload);

  // After ReadRecord returned false: OK (clean end or torn tail) or
  // Corruption("<name>: <what> at offset <n>") / an I/O error.
  const Status& status() const { return status_; }
  // Start offset of the record last returned.
  uint64_t record_offset() const { return record_offset_; }
  // Bytes of the file made of whole valid records read so far.
  uint64_t valid_size() const { return offset_; }
  // Bytes after valid_size() that a torn tail drops (0 if none).
  uint64_t torn_bytes() const { return torn_bytes_; }
  uint64_t file_size() const { return file_size_; }

 private:
  // Makes at least `n` unread bytes available in buf_ (fewer only at EOF).
  bool Fill(size_t n);
  // Decides between torn tail and corruption for a bad record at offset_.
  void ClassifyBadRecord(const char* what);

  std::unique_ptr<SequentialFile> file_;
  const uint64_t file_size_;
  const std::string name_;
  std::string buf_;    // bytes read from the file, starting at buf_offset_
  size_t pos_ = 0;     // read position in buf_
  uint64_t offset_ = 0;  // file offset of buf_[pos_]
  uint64_t record_offset_ = 0;
  uint64_t torn_bytes_ = 0;
  bool eof_ = false;
  Status status_;
};

// What reading a whole log file found.
struct LogFileInfo {
  uint64_t file_size = 0;
  uint64_t valid_size = 0;  // whole valid records (on Corruption: up to the damage)
  uint64_t torn_bytes = 0;  // dropped torn tail
  uint64_t records = 0;     // kBatch records
  uint64_t commands = 0;    // commands inside them (when counted)
};

// Reads every kBatch record of the log file at `path`, checking the header
// record, and calls fn(payload, record_offset) for each; a non-OK status from
// fn stops the read and is returned. Returns Corruption naming the path and
// offset for damage before the tail; *info is filled in either case. Does
// not modify the file.
Status ReadLogFile(Env* env, const std::string& path,
                   const std::function<Status(std::string_view payload, uint64_t offset)>& fn,
                   LogFileInfo* info);

}  // namespace rankd
