// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// LogWriter appends records (persist/format.h) to one log file and keeps the
// promise that matters: after a failure the file never holds a partial or
// unreliable record in front of later ones.
//
//   AddRecord()  encodes into the pending buffer; no I/O.
//   Flush(sync)  writes the pending bytes, then fsyncs if `sync`.
//   BeginSync()/EndSync()  an fsync run elsewhere (the everysec thread).
//
// Failure model: a failed write may leave a prefix of the bytes in the file;
// a failed fsync may leave bytes written since the last good fsync never
// durable (Linux marks the pages clean). So after any failure the next
// Flush() first truncates the file back to the last known-good size and
// writes again everything after it, which the writer kept in memory. Known
// good is the last successful fsync when `track_unsynced` (always/everysec:
// at most a second of bytes is kept), or the last successful write when not
// (appendfsync no promises nothing about fsync).
//
// Single-threaded: every method runs on the owner thread. Only the
// WritableFile::Sync() between BeginSync() and EndSync() may run elsewhere.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"
#include "persist/env.h"
#include "persist/format.h"

namespace rankd {

// Appends one encoded record (header + payload) to *dst.
void EncodeRecord(std::string* dst, format::RecordType type, std::string_view payload);

class LogWriter {
 public:
  // `file` is open for appending and currently `size` bytes long, all of
  // them durable (a file just created, or one recovery truncated and synced).
  LogWriter(std::unique_ptr<WritableFile> file, uint64_t size, bool track_unsynced);
  LogWriter(const LogWriter&) = delete;
  LogWriter& operator=(const LogWriter&) = delete;

  // Queues one record. REQUIRES: payload.size() <= format::kMaxRecordPayload.
  void AddRecord(format::RecordType type, std::string_view payload);

  // Queues bytes as they are, with no record framing: a Redis-format AOF
  // (persist/redis_aof.h), whose unit is a whole command.
  void AddRaw(std::string_view bytes) { pending_.append(bytes); }

  // Writes everything pending (after repairing an earlier failure), then
  // fsyncs when `sync`. OK: all records added so far are in the file (and
  // durable when `sync`). On error nothing pending is dropped: a later Flush
  // retries it; the file ends at a record boundary after any Flush that got
  // as far as truncating (see above).
  Status Flush(bool sync);

  // An fsync of the bytes written so far, run by another thread: BeginSync()
  // returns the ticket, that thread calls file()->Sync(), then the owner
  // calls EndSync(ticket, status). Tickets from before a repair are ignored.
  struct SyncTicket {
    uint64_t size = 0;
    uint64_t generation = 0;
  };
  SyncTicket BeginSync() const { return {written_size_, generation_}; }
  void EndSync(const SyncTicket& ticket, const Status& status);

  // The file, for the everysec thread's Sync(). Owned by the writer.
  WritableFile* file() { return file_.get(); }
  // Closes the file without flushing.
  Status Close() { return file_->Close(); }

  // Changes `track_unsynced` (CONFIG SET appendfsync). Turning it on fsyncs
  // what was written untracked; returns that fsync's status.
  Status set_track_unsynced(bool track);

  // Bytes in the file, counting everything written successfully.
  uint64_t written_size() const { return written_size_; }
  // Bytes known durable.
  uint64_t synced_size() const { return synced_size_; }
  // Bytes written but not known durable (kept in memory when tracking).
  uint64_t unsynced_bytes() const { return written_size_ - synced_size_; }
  // Bytes waiting for Flush() (aof_buffer_length).
  size_t pending_bytes() const { return pending_.size(); }
  // True while an earlier failure still needs the repair Flush() performs.
  bool needs_repair() const { return needs_repair_; }

 private:
  std::unique_ptr<WritableFile> file_;
  bool track_unsynced_;
  std::string pending_;   // added, not yet written
  std::string unsynced_;  // written after synced_size_ (when tracking)
  uint64_t written_size_;
  uint64_t synced_size_;
  uint64_t generation_ = 0;  // bumped by each repair
  bool needs_repair_ = false;
};

}  // namespace rankd
