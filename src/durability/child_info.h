// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// What a fork()ed child tells its parent while it writes a snapshot, as
// Redis's child info pipe: the keys written so far and its copy-on-write
// size (the pages that became its own because the parent changed them:
// Private_Dirty in /proc/self/smaps_rollup). INFO persistence shows them as
// current_save_keys_processed, current_cow_size and current_fork_perc, and
// the last size as rdb_last_cow_size / aof_last_cow_size.
//
// The parent opens the pipe before fork(); the child reports from the
// snapshot writers' per-key hook (persist/key_delay.h) at most every 100 ms,
// and once more when done. The parent reads without blocking (its cron).
// Not thread-safe; one per PersistManager.

#pragma once

#include <cstdint>

namespace rankd {

class ChildInfo {
 public:
  ChildInfo() = default;
  ~ChildInfo();
  ChildInfo(const ChildInfo&) = delete;
  ChildInfo& operator=(const ChildInfo&) = delete;

  // Parent, before fork(): a fresh pipe; `keys_total` is the data set's key
  // count (current_save_keys_total). False if the pipe cannot be made (the
  // child then reports nothing).
  bool Open(uint64_t keys_total);
  // Child, right after fork(): reports from the writers' per-key hook.
  void StartReporting();
  // Child, after its file is complete: the final report.
  void ReportDone();
  // Parent, after fork(): closes the child's end.
  void ParentForked();
  // Parent: reads what arrived (non-blocking).
  void Poll();
  // Parent, once the child exited: the last report read, then the pipe
  // closed. Returns the child's final copy-on-write size in bytes.
  uint64_t Finish();

  uint64_t keys_processed() const { return keys_; }
  uint64_t keys_total() const { return keys_total_; }
  uint64_t cow_bytes() const { return cow_; }
  // Monotonic ms of the last copy-on-write report (0: none yet).
  int64_t cow_updated_ms() const { return cow_ms_; }
  bool active() const { return fds_[0] >= 0; }

 private:
  void Close();

  int fds_[2] = {-1, -1};
  uint64_t keys_total_ = 0, keys_ = 0, cow_ = 0;
  int64_t cow_ms_ = 0;
};

}  // namespace rankd
