// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// AppendLog: one incremental log file being appended to, with the fsync
// policy of `appendfsync`:
//   kAlways    Commit() writes the batch and fsyncs before returning, so the
//              caller may acknowledge the batch's commands when it returns OK;
//   kEverySec  Commit() writes; Tick() has a background thread fsync about
//              once a second (at most ~1 s of acknowledged writes at risk);
//              if more than kMaxUnsyncedBytes pile up unsynced (a slow
//              disk), Commit() waits for an fsync, bounding memory and loss;
//   kNo        Commit() writes; the kernel decides when to fsync.
//
// Batches: Add() collects the effects of one event-loop iteration; Commit()
// seals them into one record, so a crash keeps or loses the batch whole (a
// MULTI/EXEC or script is never half-replayed).
//
// Errors: a failed write or fsync puts the log in error state (ok() false).
// Commit() then only seals batches in memory and returns the error; Tick()
// retries (repairing the file as persist/log_writer.h describes) and clears
// the state once everything is written, and fsynced unless kNo. Callers
// refuse writes while !ok() (Redis's MISCONF).
//
// Threads: every method runs on the owner thread; only the everysec fsync
// runs on the log's own thread. Safe across fork(): the child never uses it.

#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/status.h"
#include "persist/env.h"
#include "persist/log_writer.h"

namespace rankd {

enum class FsyncPolicy { kAlways, kEverySec, kNo };

// Parses "always" / "everysec" / "no".
bool ParseFsyncPolicy(std::string_view name, FsyncPolicy* out);

class AppendLog {
 public:
  static constexpr uint64_t kMaxUnsyncedBytes = 64u << 20;

  // Opens `path` for appending, creating it if absent. A new or empty file
  // gets the header record (written and fsynced here). REQUIRES: an existing
  // file ends at a record boundary (recovery truncated any torn tail).
  // With `redis_format`, the file is a Redis AOF (persist/redis_aof.h): no
  // header, and each batch is written as RESP commands (SELECT when the
  // database changes, MULTI/EXEC around a batch of several commands).
  static Status Open(Env* env, const std::string& path, FsyncPolicy policy,
                     std::unique_ptr<AppendLog>* out, bool redis_format = false);
  ~AppendLog();  // stops the fsync thread; does not flush
  AppendLog(const AppendLog&) = delete;
  AppendLog& operator=(const AppendLog&) = delete;

  // Adds one command to the current batch. No I/O.
  void Add(int db, std::span<const std::string_view> args);
  bool batch_empty() const { return batch_.empty(); }

  // Seals the current batch and, unless in error state, writes every pending
  // record (and fsyncs under kAlways). OK: every command added so far is in
  // the file (durable under kAlways). Otherwise the error; the commands stay
  // pending and are retried by Tick(). Cheap when nothing was added.
  // With `batch_prefix` < batch_bytes(), only the batch's first bytes are
  // sealed (REQUIRES: a command boundary, a value batch_bytes() had); the
  // rest stays in the batch (a script still running).
  Status Commit(size_t batch_prefix = SIZE_MAX);
  // Bytes of the current batch so far.
  size_t batch_bytes() const { return batch_.size(); }

  // Periodic work (the server cron): collects a finished background fsync,
  // starts one under kEverySec when a second has passed, retries after an
  // error. `now_ms` is monotonic.
  void Tick(int64_t now_ms);

  // Seals, writes and fsyncs everything now, waiting for any background
  // fsync first (shutdown, switching files, appendfsync changes).
  Status FlushAndSync();

  void set_policy(FsyncPolicy policy);

  // DEBUG AOF-FLUSH-SLEEP: every write of pending bytes first sleeps this
  // long (microseconds; 0: never), for tests that need a slow disk.
  // Process-wide, as Redis's.
  static void set_debug_flush_sleep_us(int64_t us) { debug_flush_sleep_us_ = us; }
  FsyncPolicy policy() const { return policy_; }

  // --- State for INFO and the write gate ---
  bool ok() const { return write_status_.ok() && fsync_status_.ok(); }
  // The last write error (OK if the last write succeeded).
  const Status& write_status() const { return write_status_; }
  // The last fsync error (OK if the last fsync succeeded).
  const Status& fsync_status() const { return fsync_status_; }
  // The first outstanding error of the two.
  const Status& error() const { return write_status_.ok() ? fsync_status_ : write_status_; }
  // File size including pending bytes (aof_current_size).
  uint64_t size() const { return writer_->written_size() + writer_->pending_bytes() + batch_.size(); }
  size_t pending_bytes() const { return writer_->pending_bytes() + batch_.size(); }
  bool fsync_in_progress() const { return sync_in_flight_; }
  const std::string& path() const { return path_; }

 private:
  AppendLog(std::string path, std::unique_ptr<LogWriter> writer, FsyncPolicy policy,
            bool redis_format);
  void Seal();
  // Queues the batch's first `n` bytes (a command boundary) in the file's
  // format and drops them from the batch.
  void SealPrefix(size_t n);
  void StartBackgroundSync(int64_t now_ms);
  void ReapBackgroundSync(bool wait);
  void SyncThread();

  static inline std::atomic<int64_t> debug_flush_sleep_us_{0};
  const std::string path_;
  const bool redis_format_;
  // Redis format: the database the file is in once the batch is written
  // (-1: none selected yet), and where each of the batch's commands starts
  // in batch_ (after its SELECT).
  int redis_db_ = -1;
  std::vector<size_t> redis_commands_;
  std::unique_ptr<LogWriter> writer_;
  FsyncPolicy policy_;
  std::string batch_;  // commands of the current batch
  Status write_status_;
  Status fsync_status_;
  int64_t last_sync_ms_ = 0;
  int64_t last_retry_ms_ = 0;

  // Background fsync (kEverySec).
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool requested_ = false, done_ = false, stop_ = false;  // guarded by mu_
  Status thread_status_;                                   // guarded by mu_
  bool sync_in_flight_ = false;                            // owner thread
  LogWriter::SyncTicket ticket_;
};

// The errno text of an I/O Status ("path: No space left on device" -> "No
// space left on device"), for Redis's MISCONF message.
std::string ErrorDetail(const Status& s);

}  // namespace rankd
