// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// FaultEnv: an in-memory Env for tests that can fail and crash on purpose
// (LevelDB's fault_injection_test idea). It models exactly the durability
// contract of persist/env.h:
//   - each file has its current bytes and the bytes of its last Sync();
//   - the directory has its current entries and those of its last SyncDir();
//   - Crash() reverts both to their durable state, as a power cut would.
// Faults, all sticky until changed:
//   - set_space_left(n): Append writes at most n more bytes in total, then
//     fails with ENOSPC after a short write (-1: unlimited);
//   - set_sync_error(true): Sync fails with EIO and, as Linux may, forgets
//     that the unsynced bytes were dirty: a later successful Sync does not
//     make them durable (they read back as zeros after a Crash()) unless
//     the file was truncated below them and they were written again;
//   - set_rename_error(true): RenameFile fails with EIO.
// Thread-safe (one mutex), so the everysec fsync thread may use it.

#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "persist/env.h"

namespace rankd {

class FaultEnv : public Env {
 public:
  FaultEnv() = default;
  FaultEnv(const FaultEnv&) = delete;
  FaultEnv& operator=(const FaultEnv&) = delete;

  // ---- Faults ----
  void set_space_left(int64_t bytes);
  void set_sync_error(bool fail);
  void set_rename_error(bool fail);
  // Reverts every file to its last synced bytes and the directory to its
  // last synced entries. Open WritableFiles keep writing to their (now
  // orphaned, if unsynced) files, as after a real crash nobody would.
  void Crash();

  // ---- Inspection ----
  // The current bytes of `path`, or "" when absent.
  std::string Contents(const std::string& path);
  // Overwrites a file's current and durable bytes (tests damage files).
  void SetContents(const std::string& path, std::string data);

  // ---- Env ----
  Status NewWritableFile(const std::string& path, std::unique_ptr<WritableFile>* out) override;
  Status NewAppendableFile(const std::string& path, std::unique_ptr<WritableFile>* out) override;
  Status NewSequentialFile(const std::string& path, std::unique_ptr<SequentialFile>* out) override;
  bool FileExists(const std::string& path) override;
  Status GetFileSize(const std::string& path, uint64_t* size) override;
  Status RenameFile(const std::string& from, const std::string& to) override;
  Status RemoveFile(const std::string& path) override;
  Status TruncateFile(const std::string& path, uint64_t size) override;
  Status CreateDir(const std::string& path) override;
  Status SyncDir(const std::string& path) override;
  Status GetChildren(const std::string& path, std::vector<std::string>* names) override;

  struct Inode {
    std::string data;    // what reads see
    std::string synced;  // what survives a crash
    // Bytes whose fsync failed: the kernel forgot they were dirty, so later
    // fsyncs never write them; only a truncate below them and a rewrite
    // repairs them. Empty when lost_begin == lost_end.
    uint64_t lost_begin = 0, lost_end = 0;
  };

 private:
  friend class FaultFile;
  Status OpenFile(const std::string& path, bool truncate, std::unique_ptr<WritableFile>* out);

  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Inode>> live_;     // path -> file
  std::map<std::string, std::shared_ptr<Inode>> durable_;  // as of the last SyncDir
  int64_t space_left_ = -1;
  bool sync_error_ = false;
  bool rename_error_ = false;
};

}  // namespace rankd
