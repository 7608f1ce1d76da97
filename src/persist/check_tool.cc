// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/check_tool.h"

#include <cinttypes>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "persist/command_codec.h"
#include "persist/format.h"
#include "persist/log_reader.h"
#include "persist/manifest.h"
#include "persist/rdb_reader.h"
#include "persist/redis_aof.h"
#include "persist/snapshot.h"

namespace rankd {
namespace {

enum Result { kClean = 0, kDamaged = 1, kError = 2 };

bool StartsWith(Env* env, const std::string& path, std::string_view magic) {
  std::unique_ptr<SequentialFile> f;
  if (!env->NewSequentialFile(path, &f).ok()) return false;
  std::string buf(magic.size(), '\0');
  std::string_view got;
  return f->Read(magic.size(), &got, buf.data()).ok() && got == magic;
}

Result CheckSnapshot(Env* env, const std::string& path, FILE* out) {
  SnapshotLoadStats stats;
  Status s = VerifySnapshot(env, path, &stats);
  if (!s.ok()) {
    fprintf(out, "%s: %s\n", path.c_str(), s.message().c_str());
    fprintf(out, "%s: a damaged snapshot cannot be repaired; restore a previous copy\n",
            path.c_str());
    return s.code() == Status::Code::kCorruption ? kDamaged : kError;
  }
  fprintf(out, "%s: snapshot OK, %" PRIu64 " keys, %" PRIu64 " bytes\n", path.c_str(),
          stats.keys_loaded, stats.bytes);
  return kClean;
}

// Decodes an RDB (a file, or an AOF's preamble) into scratch databases, as
// rankd would load it; `dbs` gets one per database the RDB names.
Status DecodeRdb(std::string_view data, const SnapshotLoadOptions& opts,
                 std::map<int, std::unique_ptr<Database>>* dbs, SnapshotLoadStats* stats) {
  return LoadRedisRdb(
      data,
      [&](int i) -> Database* {
        auto& db = (*dbs)[i];
        if (!db) db = std::make_unique<Database>(i);
        return db.get();
      },
      opts, stats);
}

// A Redis RDB (dump.rdb of redis-server, for --load-redis-rdb): magic,
// version, every value decoded as rankd would load it, the CRC64 trailer.
Result CheckRedisRdb(Env* env, const std::string& path, FILE* out) {
  std::string data;
  Status s = ReadFileToString(env, path, &data);
  if (!s.ok()) {
    fprintf(out, "%s: %s\n", path.c_str(), s.message().c_str());
    return kError;
  }
  std::map<int, std::unique_ptr<Database>> dbs;
  std::string redis_ver = "?";
  uint64_t libraries = 0;
  SnapshotLoadOptions opts;  // now_ms 0: keys past their deadline are checked too
  opts.on_aux = [&](std::string_view key, std::string_view value) {
    if (key == "redis-ver") redis_ver = value;
    return Status::OK();
  };
  opts.on_function = [&](std::string_view) {
    libraries++;
    return Status::OK();
  };
  SnapshotLoadStats stats;
  s = DecodeRdb(data, opts, &dbs, &stats);
  fprintf(out, "%s: Redis RDB, %zu bytes, version %s, written by redis %s\n", path.c_str(),
          data.size(), data.size() >= 9 ? data.substr(5, 4).c_str() : "?", redis_ver.c_str());
  if (!s.ok()) {
    const bool unsupported = s.code() == Status::Code::kInvalidArgument;
    fprintf(out, "%s: %s: %s\n", path.c_str(), unsupported ? "NOT LOADABLE" : "CORRUPT",
            s.message().c_str());
    return kDamaged;
  }
  for (const auto& [index, db] : dbs) {
    if (db->size()) fprintf(out, "%s: db%d: %zu keys\n", path.c_str(), index, db->size());
  }
  const bool crc = data.size() >= 8 && data.compare(data.size() - 8, 8, std::string(8, '\0')) != 0;
  fprintf(out, "%s: %" PRIu64 " keys, %" PRIu64 " function libraries, checksum %s\n",
          path.c_str(), stats.keys_loaded + stats.keys_expired, libraries,
          crc ? "verified" : "absent (rdbchecksum no)");
  fprintf(out, "%s: Redis RDB OK (rankd --load-redis-rdb can load it)\n", path.c_str());
  return kClean;
}

Result CheckLog(Env* env, const std::string& path, bool fix, FILE* out) {
  uint64_t commands = 0;
  uint64_t bad_record = UINT64_MAX;  // offset of a record whose batch is malformed
  LogFileInfo info;
  Status s = ReadLogFile(
      env, path,
      [&](std::string_view payload, uint64_t offset) -> Status {
        BatchReader batch(payload);
        int db;
        std::vector<std::string_view> args;
        while (batch.Next(&db, &args)) commands++;
        if (!batch.error().empty()) {
          bad_record = offset;
          return Status::Corruption(path + ": " + batch.error() + " in the record at offset " +
                                    std::to_string(offset));
        }
        return Status::OK();
      },
      &info);
  if (!s.ok() && s.code() != Status::Code::kCorruption) {
    fprintf(out, "%s: %s\n", path.c_str(), s.message().c_str());
    return kError;
  }
  fprintf(out, "%s: %" PRIu64 " bytes, %" PRIu64 " batches, %" PRIu64 " commands\n", path.c_str(),
          info.file_size, info.records, commands);
  if (!s.ok() && s.message().find("not a rankd log file") != std::string::npos) {
    fprintf(out, "%s: %s; not touching it\n", path.c_str(), s.message().c_str());
    return kDamaged;
  }
  uint64_t cut;
  if (!s.ok()) {
    cut = bad_record != UINT64_MAX ? bad_record : info.valid_size;
    fprintf(out, "%s: CORRUPT: %s\n", path.c_str(), s.message().c_str());
    fprintf(out, "%s: valid up to offset %" PRIu64 "; %" PRIu64 " bytes after it\n", path.c_str(),
            cut, info.file_size - cut);
  } else if (info.torn_bytes > 0) {
    cut = info.valid_size;
    fprintf(out, "%s: torn tail: %" PRIu64 " bytes at offset %" PRIu64
            " (a crash cut the last write short; start-up drops it by itself unless "
            "aof-load-truncated is no)\n",
            path.c_str(), info.torn_bytes, cut);
  } else {
    fprintf(out, "%s: log OK\n", path.c_str());
    return kClean;
  }
  if (!fix) {
    fprintf(out, "%s: run again with --fix to truncate it at offset %" PRIu64 "\n", path.c_str(),
            cut);
    return kDamaged;
  }
  Status t = env->TruncateFile(path, cut);
  if (!t.ok()) {
    fprintf(out, "%s: truncate failed: %s\n", path.c_str(), t.message().c_str());
    return kError;
  }
  fprintf(out, "%s: truncated to %" PRIu64 " bytes (%" PRIu64 " bytes dropped%s)\n", path.c_str(),
          cut, info.file_size - cut,
          s.ok() ? "" : ", including every record after the damage");
  return kClean;
}

// A Redis AOF file (".aof": an optional RDB preamble, then RESP commands):
// whole commands counted; a torn tail truncated with --fix. For
// bad bytes in the middle, redis-check-aof --fix is the tool.
Result CheckRedisAof(Env* env, const std::string& path, bool fix, FILE* out) {
  std::string data;
  Status s = ReadFileToString(env, path, &data);
  if (!s.ok()) {
    fprintf(out, "%s: %s\n", path.c_str(), s.message().c_str());
    return kError;
  }
  size_t start = 0;
  if (IsRedisRdb(data)) {
    SnapshotLoadOptions opts;
    opts.progress = [&](uint64_t done, uint64_t, uint64_t) { start = done; };
    opts.on_function = [](std::string_view) { return Status::OK(); };
    std::map<int, std::unique_ptr<Database>> dbs;
    SnapshotLoadStats stats;
    s = DecodeRdb(data, opts, &dbs, &stats);
    if (!s.ok()) {
      fprintf(out, "%s: CORRUPT: RDB preamble: %s\n", path.c_str(), s.message().c_str());
      return kDamaged;
    }
  }
  RedisAofEnd end;
  s = ReadRedisAofCommands(
      data, start, [](std::span<const std::string_view>, uint64_t) { return Status::OK(); },
      &end);
  if (!s.ok()) return kError;
  fprintf(out, "%s: Redis AOF, %zu bytes, %" PRIu64 " commands\n", path.c_str(), data.size(),
          end.commands);
  if (end.kind == RedisAofEnd::Kind::kClean) return kClean;
  const uint64_t cut = end.valid_size;
  if (end.kind == RedisAofEnd::Kind::kBadFormat) {
    fprintf(out, "%s: CORRUPT: not RESP at offset %" PRIu64 " (redis-check-aof --fix repairs)\n",
            path.c_str(), cut);
    return kDamaged;
  }
  fprintf(out, "%s: torn tail at offset %" PRIu64 " (%zu bytes)\n", path.c_str(), cut,
          static_cast<size_t>(data.size() - cut));
  if (!fix) return kDamaged;
  s = env->TruncateFile(path, cut);
  if (!s.ok()) return kError;
  fprintf(out, "%s: truncated at offset %" PRIu64 "\n", path.c_str(), cut);
  return kClean;
}

Result CheckManifest(Env* env, const std::string& path, bool fix, FILE* out) {
  std::string text;
  Status s = ReadFileToString(env, path, &text);
  Manifest m;
  if (s.ok()) s = Manifest::Parse(path, text, &m);
  if (!s.ok()) {
    fprintf(out, "%s: %s\n", path.c_str(), s.message().c_str());
    return s.code() == Status::Code::kCorruption ? kDamaged : kError;
  }
  const std::string dir = DirName(path);
  Result worst = kClean;
  for (const Manifest::File& f : m.files) {
    const std::string p = JoinPath(dir, f.name);
    Result r;
    const bool rdb = f.name.size() > 4 && f.name.compare(f.name.size() - 4, 4, ".rdb") == 0;
    if (rdb && StartsWith(env, p, "REDIS")) {
      r = CheckRedisRdb(env, p, out);
    } else if (IsRedisAofFileName(f.name)) {
      r = CheckRedisAof(env, p, fix, out);
    } else {
      r = f.base ? CheckSnapshot(env, p, out) : CheckLog(env, p, fix, out);
    }
    worst = std::max(worst, r);
  }
  return worst;
}

}  // namespace

int RunCheckTool(Env* env, int argc, char** argv, FILE* out) {
  bool fix = false;
  std::string path;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--fix") {
      fix = true;
    } else if (path.empty()) {
      path = a;
    } else {
      path.clear();
      break;
    }
  }
  if (path.empty()) {
    fprintf(out, "Usage: rankd --check-aof [--fix] <appendonlydir | manifest | log | snapshot | "
                 "Redis RDB>\n");
    return kError;
  }
  // A directory: look for its manifest.
  std::vector<std::string> names;
  if (env->GetChildren(path, &names).ok()) {
    for (const std::string& n : names) {
      if (n.size() > format::kManifestSuffix.size() &&
          n.compare(n.size() - format::kManifestSuffix.size(), std::string::npos,
                    format::kManifestSuffix) == 0) {
        return CheckManifest(env, JoinPath(path, n), fix, out);
      }
    }
    fprintf(out, "%s: no manifest in this directory\n", path.c_str());
    return kError;
  }
  if (!env->FileExists(path)) {
    fprintf(out, "%s: no such file\n", path.c_str());
    return kError;
  }
  if (StartsWith(env, path, format::kSnapshotMagic)) return CheckSnapshot(env, path, out);
  if (StartsWith(env, path, "REDIS")) return CheckRedisRdb(env, path, out);
  if (path.size() > format::kManifestSuffix.size() &&
      path.compare(path.size() - format::kManifestSuffix.size(), std::string::npos,
                   format::kManifestSuffix) == 0) {
    return CheckManifest(env, path, fix, out);
  }
  return CheckLog(env, path, fix, out);
}

}  // namespace rankd
