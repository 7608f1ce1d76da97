// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The append-only log is several files in `appenddirname`, as in Redis 7's
// multi-part AOF, listed by a manifest:
//
//   appendonly.aof.3.base.rdb    a snapshot: the dataset when rewrite 3 forked
//   appendonly.aof.5.incr.aof    every effect after that moment
//   appendonly.aof.manifest      "file appendonly.aof.3.base.rdb seq 3 type b"
//                                "file appendonly.aof.5.incr.aof seq 5 type i"
//
// The names and formats are Redis 7.0's (bases and incrs numbered apart);
// rankd's older ".base.snap" / ".incr.log" files are still read.
//
// The dataset is the base (if any) followed by every incremental log in
// order. A rewrite opens incr N+1 at the moment it forks, so the child's base
// N+1 plus incr N+1 is complete; when the child finishes, the manifest is
// replaced (atomically) by [base N+1, incr N+1] and the old files deleted.
// A failed or interrupted rewrite leaves [base N, incr N, incr N+1], which
// is just as complete. Format details: persist/format.h.

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "persist/env.h"

namespace rankd {

struct Manifest {
  struct File {
    std::string name;  // relative to the manifest's directory
    uint64_t seq = 0;
    bool base = false;
  };
  std::vector<File> files;  // base (optional) first, then incrs in order
  // Files a rewrite replaced while aof-disable-auto-gc was on ("type h"):
  // nothing to load, kept until collected. Newest first, written between
  // the base and the incrs, as Redis 7.0 lists them.
  std::vector<File> history;

  // The highest of the bases' / of the incrs' numbers (Redis numbers them
  // apart; 0 when there is none).
  uint64_t max_base_seq() const;
  uint64_t max_incr_seq() const;
  const File* base_file() const;
  // The incremental log appended to now (the last one), or nullptr.
  const File* last_incr() const;

  std::string Serialize() const;
  // Parses manifest text; Corruption naming `name` and the line on error.
  static Status Parse(const std::string& name, std::string_view text, Manifest* out);
};

// File names for `appendfilename` and sequence `seq`.
// `redis`: Redis's names (".base.rdb", ".incr.aof"), else rankd's own
// (".base.snap", ".incr.log").
std::string BaseFileName(const std::string& appendfilename, uint64_t seq, bool redis = true);
std::string IncrFileName(const std::string& appendfilename, uint64_t seq, bool redis = true);
std::string ManifestFileName(const std::string& appendfilename);

// Reads dir/ManifestFileName(). NotFound if it does not exist.
Status ReadManifest(Env* env, const std::string& dir, const std::string& appendfilename,
                    Manifest* out);
// Replaces the manifest crash-safely (temp file, fsync, rename, fsync dir).
Status WriteManifest(Env* env, const std::string& dir, const std::string& appendfilename,
                     const Manifest& m);

}  // namespace rankd
