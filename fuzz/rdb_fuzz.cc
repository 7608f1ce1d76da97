// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for Redis's RDB formats: the first input byte picks a
// DUMP payload (RESTORE's decoder, footer not required) or a whole RDB file
// (LoadRedisRdb, as --load-redis-rdb, rankd-check and a Redis full sync use
// it). Any input must give a Status, never crash; a payload that decodes
// must DUMP again into a payload that decodes to the same type.
// Needs rankd_persist linked: see the fuzzers loop in CMakeLists.txt.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "persist/rdb_reader.h"
#include "persist/rdb_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rankd;
  if (size == 0) return 0;
  const std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  SnapshotLoadOptions opts;
  if (data[0] & 1) {
    if (in.size() < 10) return 0;
    Value v;
    if (!ReadDumpPayload(in, opts, &v).ok()) return 0;
    const std::string again = DumpPayload(v);
    Value back;
    if (!DumpFooterOk(again) || !ReadDumpPayload(again, opts, &back).ok() ||
        back.type() != v.type()) {
      abort();
    }
  } else {
    std::vector<std::unique_ptr<Database>> dbs;
    for (int i = 0; i < 4; i++) dbs.push_back(std::make_unique<Database>(i));
    opts.on_function = [](std::string_view) { return Status::OK(); };
    SnapshotLoadStats stats;
    (void)LoadRedisRdb(
        in, [&](int i) { return i < 4 ? dbs[i].get() : nullptr; }, opts, &stats);
  }
  return 0;
}
