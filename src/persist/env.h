// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Env: every file operation persistence performs, behind one small interface
// (LevelDB's Env), so tests can substitute an Env that injects short writes,
// ENOSPC, EIO on fsync, and crashes that lose whatever was not fsynced
// (persist/fault_env.h). Env::Default() is the POSIX implementation.
//
// Durability contract (what the POSIX Env provides and FaultEnv models):
//   - Append()ed bytes survive a crash only after a successful Sync();
//   - a created, renamed or removed directory entry survives a crash only
//     after SyncDir() of its directory.
// Every method returns Status::IOError("<path>", strerror) on failure; the
// errno is available through Status text only (callers log it as is).

#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace rankd {

// A file being written at its end. Not thread-safe, except that Sync() may
// run on another thread concurrently with Append() (the everysec fsync).
class WritableFile {
 public:
  virtual ~WritableFile() = default;
  // Appends all of `data`, retrying short writes. On error a prefix of
  // `data` may have reached the file; the caller truncates it away.
  virtual Status Append(std::string_view data) = 0;
  // Makes every byte appended so far durable (fdatasync).
  virtual Status Sync() = 0;
  // Cuts the file to `size` bytes; later Appends continue from there.
  virtual Status Truncate(uint64_t size) = 0;
  // Closes the file (no sync). Idempotent; the destructor closes too.
  virtual Status Close() = 0;
};

// A file read from the start to its end.
class SequentialFile {
 public:
  virtual ~SequentialFile() = default;
  // Reads up to `n` bytes into `scratch` (REQUIRES: room for n bytes).
  // Returns the bytes read in *result: fewer than n only at end of file,
  // empty at end of file.
  virtual Status Read(size_t n, std::string_view* result, char* scratch) = 0;
};

class Env {
 public:
  virtual ~Env() = default;
  // The process-wide POSIX environment. Never deleted.
  static Env* Default();

  // Creates `path`, or truncates it to 0 bytes if it exists.
  virtual Status NewWritableFile(const std::string& path, std::unique_ptr<WritableFile>* out) = 0;
  // Opens `path` for appending at its end, creating it if absent.
  virtual Status NewAppendableFile(const std::string& path,
                                   std::unique_ptr<WritableFile>* out) = 0;
  virtual Status NewSequentialFile(const std::string& path,
                                   std::unique_ptr<SequentialFile>* out) = 0;

  virtual bool FileExists(const std::string& path) = 0;
  virtual Status GetFileSize(const std::string& path, uint64_t* size) = 0;
  // Atomically replaces `to` with `from` (rename(2)).
  virtual Status RenameFile(const std::string& from, const std::string& to) = 0;
  virtual Status RemoveFile(const std::string& path) = 0;
  // Cuts `path` to `size` bytes and syncs it.
  virtual Status TruncateFile(const std::string& path, uint64_t size) = 0;
  // Creates directory `path`; OK if it already exists.
  virtual Status CreateDir(const std::string& path) = 0;
  // Makes the directory's entries (creations, renames, removals) durable.
  virtual Status SyncDir(const std::string& path) = 0;
  // Names (not paths) of the entries of directory `path`.
  virtual Status GetChildren(const std::string& path, std::vector<std::string>* names) = 0;
};

// "a/b/c" -> "a/b"; "c" -> ".".
std::string DirName(const std::string& path);
// Joins a directory and a name ("." + x -> x).
std::string JoinPath(const std::string& dir, const std::string& name);

// Reads the whole of `path` into *out.
Status ReadFileToString(Env* env, const std::string& path, std::string* out);

// Writes `data` to `path` crash-safely: to "<path>.tmp", fsync, rename over
// `path`, fsync the directory. Afterwards `path` holds either the old or the
// new contents whatever happens.
Status WriteFileAtomic(Env* env, const std::string& path, std::string_view data);

// The same with the contents streamed: `write` fills a new file at
// `tmp_path`, which is then fsynced, closed, renamed over `path` and its
// directory fsynced. On any error `tmp_path` is removed and `path` untouched
// (snapshots, RDB files).
Status WriteFileVia(Env* env, const std::string& path, const std::string& tmp_path,
                    const std::function<Status(WritableFile*)>& write);

}  // namespace rankd
