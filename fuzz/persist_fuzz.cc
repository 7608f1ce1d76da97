// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for the persistence loaders: the first input byte picks
// the snapshot loader or the log reader (with batch decoding); the rest is
// the file. Both must return a Status for any input, never crash.
// Needs rankd_persist linked: see the fuzzers loop in CMakeLists.txt.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "persist/command_codec.h"
#include "persist/fault_env.h"
#include "persist/log_reader.h"
#include "persist/snapshot.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rankd;
  if (size == 0) return 0;
  FaultEnv env;
  env.SetContents("f", std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  if (data[0] & 1) {
    std::vector<std::unique_ptr<Database>> dbs;
    for (int i = 0; i < 4; i++) dbs.push_back(std::make_unique<Database>(i));
    SnapshotLoadOptions o;
    SnapshotLoadStats stats;
    (void)LoadSnapshot(
        &env, "f", [&](int i) { return i < 4 ? dbs[i].get() : nullptr; }, o, &stats);
  } else {
    LogFileInfo info;
    (void)ReadLogFile(
        &env, "f",
        [](std::string_view payload, uint64_t) {
          BatchReader r(payload);
          int db;
          std::vector<std::string_view> args;
          while (r.Next(&db, &args)) {
          }
          return Status::OK();
        },
        &info);
  }
  return 0;
}
