// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// A Redis RDB file from rankd's databases (persist/rdb_file.h): one
// streaming pass, the CRC64 extended as each 1 MiB buffer goes out.

#include "persist/rdb_file.h"

#include <functional>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "persist/buffered_sink.h"
#include "persist/coding.h"
#include "persist/key_delay.h"
#include "persist/rdb_reader.h"

namespace rankd {
namespace {

// RDB opcodes (Redis rdb.h).
enum : uint8_t {
  kOpFunction2 = 245,
  kOpAux = 250,
  kOpResizeDb = 251,
  kOpExpireMs = 252,
  kOpSelectDb = 254,
  kOpEof = 255,
};

void PutAux(std::string* buf, std::string_view key, std::string_view value) {
  buf->push_back(static_cast<char>(kOpAux));
  rdb::PutString(buf, key);
  rdb::PutString(buf, value);
}

}  // namespace

Status WriteRedisRdbStream(WritableFile* file, std::span<Database* const> dbs,
                           const SnapshotAux& aux, const DumpOptions& values,
                           SnapshotWriteStats* stats) {
  *stats = SnapshotWriteStats{};
  uint64_t crc = 0;
  BufferedSink sink(file, [&crc](std::string_view bytes) { crc = Crc64Redis(crc, bytes); });
  std::string& buf = sink.buf();
  buf.append("REDIS00").append(std::to_string(kRdbFileVersion));
  const int64_t now = WallMs();
  PutAux(&buf, "redis-ver", "7.0.15");
  PutAux(&buf, "redis-bits", "64");
  PutAux(&buf, "ctime", std::to_string(now / 1000));
  PutAux(&buf, "used-mem", "0");
  std::string_view functions, aof_base = "0";
  for (const auto& [key, value] : aux) {
    if (key == "functions") functions = value;
    else if (key == "aof-base") aof_base = value;
    else PutAux(&buf, key, value);
  }
  PutAux(&buf, "aof-base", aof_base);
  PutAux(&buf, "rankd-ver", "0.1.0");
  // A FUNCTION DUMP payload is the function records plus a 10-byte footer.
  if (functions.size() > 10) buf.append(functions.substr(0, functions.size() - 10));
  for (size_t i = 0; i < dbs.size(); i++) {
    Database& db = *dbs[i];
    if (db.size() == 0) continue;
    buf.push_back(static_cast<char>(kOpSelectDb));
    rdb::PutLength(&buf, i);
    buf.push_back(static_cast<char>(kOpResizeDb));
    rdb::PutLength(&buf, db.size());
    rdb::PutLength(&buf, db.expires_size());  // a sizing hint, as db.size()
    Status s;
    // A long value is written out as it grows (DumpOptions::spill); its key
    // goes in after the type byte first (the value's encoding decides it).
    size_t type_at = 0;
    bool key_placed = false;
    std::string key;
    const std::function<void(std::string*)> spill = [&](std::string* out) {
      if (!key_placed) out->insert(type_at + 1, key);
      key_placed = true;
      s = sink.MaybeFlush();
      if (!s.ok()) out->clear();  // the save has failed: hold no more
    };
    DumpOptions spilling = values;
    spilling.spill = &spill;
    // The keys ForEach visits: live ones, and also those past their deadline
    // not yet deleted while the caller suspends expiry (SAVE, BGSAVE, a log
    // base: as Redis, the file holds them and its loader drops them).
    db.ForEach([&](Database::Entry* e) {
      const int64_t expire_ms = db.ExpireMs(e);
      if (!s.ok()) return;
      if (expire_ms >= 0) {
        buf.push_back(static_cast<char>(kOpExpireMs));
        coding::PutFixed64(&buf, static_cast<uint64_t>(expire_ms));
      }
      // The type byte comes first, then the key, then the encoding.
      type_at = buf.size();
      key_placed = false;
      key.clear();
      rdb::PutString(&key, e->key());
      rdb::PutValue(&buf, e->value, spilling);
      if (!key_placed) buf.insert(type_at + 1, key);
      // What the plain value lost, for rankd's own reload (redis-server
      // skips auxiliary fields it does not know).
      if (HasRankdExtras(e->value)) {
        PutAux(&buf, kRankdEntryAux, EncodeEntrySnapshot(static_cast<int>(i), *e, expire_ms));
      }
      stats->keys++;
      s = sink.MaybeFlush();
      KeySaved();
    });
    if (!s.ok()) return s;
  }
  buf.push_back(static_cast<char>(kOpEof));
  Status s = sink.Finish([&crc] {
    std::string trailer;
    coding::PutFixed64(&trailer, crc);
    return trailer;
  });
  stats->bytes = sink.bytes();
  return s;
}

Status WriteRedisRdbFile(Env* env, const std::string& path, const std::string& tmp_path,
                         std::span<Database* const> dbs, const SnapshotAux& aux,
                         const DumpOptions& values, SnapshotWriteStats* stats) {
  return WriteFileVia(env, path, tmp_path, [&](WritableFile* file) {
    return WriteRedisRdbStream(file, dbs, aux, values, stats);
  });
}

}  // namespace rankd
