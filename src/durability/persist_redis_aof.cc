// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// PersistManager: Redis 7.0's append-only files (persist/redis_aof.h) as
// parts of the log. A manifest may name Redis's files (".aof", ".rdb", the
// old single file) as well as rankd's; each is read in its own format, so a
// Redis user starts rankd on redis-server's appendonlydir as it is. rankd
// keeps appending to a Redis ".incr.aof" in Redis's format (the files stay
// readable by redis-server and redis-check-aof) until the next rewrite,
// which writes rankd's own checksummed base and log (docs/persistence.md).

#include <cinttypes>

#include "base/clock.h"
#include "base/logging.h"
#include "durability/persist_manager.h"
#include "persist/rdb_reader.h"
#include "persist/redis_aof.h"
#include "scripting/script_engine.h"

namespace rankd {

Status PersistManager::AdoptOldRedisAof(Manifest* m) {
  const std::string& name = server_->config().appendfilename;
  const std::string in_dir = JoinPath(AofDir(), name);
  // An upgrade interrupted before its manifest was written leaves the file
  // in either place.
  if (!env_->FileExists(name) && !env_->FileExists(in_dir)) return Status::NotFound(name);
  if (env_->FileExists(name)) {
    Status s = env_->RenameFile(name, in_dir);
    if (s.ok()) s = env_->SyncDir(AofDir());
    if (!s.ok()) return s;
  }
  LOG_NOTICE("Creating AOF manifest for the old-style append only file %s", name.c_str());
  m->files = {{name, 1, true}};
  Status s = WriteManifest(env_, AofDir(), name, *m);
  if (!s.ok()) return s;
  LOG_NOTICE("Successfully migrated an old-style AOF into the AOF directory %s",
             AofDir().c_str());
  return Status::OK();
}

Manifest::File PersistManager::FirstIncr(const Manifest& m) const {
  const std::string& name = server_->config().appendfilename;
  // Redis numbers incrs apart from bases: the first incr is 1.
  const uint64_t seq = m.max_incr_seq() + 1;
  return {IncrFileName(name, seq, RedisFormat()), seq, false};
}

Status PersistManager::LoadBaseFile(const std::string& path) {
  if (IsRedisAofFileName(path)) return ReplayRedisAof(path, /*last=*/false);
  std::vector<Database*> dbs;
  for (int i = 0; i < server_->db_count(); i++) dbs.push_back(&server_->db(i));
  return LoadSnapshotFile(path, dbs, nullptr, nullptr, /*keep_expired=*/true);
}

// The RDB at the start of a Redis base (the preamble, or all of a ".rdb"),
// loaded into the (empty) databases; returns its length in *rdb_bytes.
Status PersistManager::LoadRedisPreamble(const std::string& path, std::string_view data,
                                         size_t* rdb_bytes) {
  SnapshotLoadOptions opts = LoadOptions();
  opts.now_ms = 0;  // as a base: the commands after it may touch expired keys
  // The last progress report is made at the end of the RDB (its CRC64).
  opts.progress = [&](uint64_t done, uint64_t, uint64_t) { *rdb_bytes = done; };
  std::vector<std::string> libraries;
  opts.on_function = [&](std::string_view code) {
    libraries.emplace_back(code);
    return Status::OK();
  };
  SnapshotLoadStats stats;
  Status s = LoadRedisRdb(
      data, [&](int i) { return i < server_->db_count() ? &server_->db(i) : nullptr; }, opts,
      &stats);
  if (!s.ok()) return Status::Corruption(path + ": " + s.message());
  FunctionLibraries& functions = ScriptEngine::Of(*server_).functions();
  for (const std::string& code : libraries) {
    std::string name, err = functions.Load(code, /*replace=*/true, &name);
    if (!err.empty()) return Status::Corruption(path + ": a function library: " + err);
  }
  LOG_NOTICE("Reading RDB base file on AOF loading... (%s: %" PRIu64 " keys)", path.c_str(),
             stats.keys_loaded);
  return Status::OK();
}

Status PersistManager::ReplayRedisAof(const std::string& path, bool last) {
  const int64_t start_ms = MonoMs();
  std::string data;
  Status s = ReadFileToString(env_, path, &data);
  if (!s.ok()) return s;
  size_t start = 0;
  if (IsRedisRdb(data)) {
    s = LoadRedisPreamble(path, data, &start);
    if (!s.ok()) return s;
  }
  Client client;
  client.obeyed = true;
  ReplyBuilder reply;
  client.reply = &reply;
  client.authenticated = true;
  RedisAofEnd end;
  loading_ = true;
  server_->set_hold_period_rolls(true);
  server_->set_loading(true);
  SuspendExpiry(true);
  s = ReadRedisAofCommands(
      data, start,
      [&](std::span<const std::string_view> args, uint64_t) -> Status {
        if (!server_->FindCommand(args[0])) {
          return Status::Corruption("Unknown command '" + std::string(args[0]) +
                                    "' reading the append only file " + path);
        }
        std::vector<std::string_view> argv(args.begin(), args.end());
        server_->Execute(client, argv, /*no_block=*/true);
        reply.buffer().clear();
        return Status::OK();
      },
      &end);
  loading_ = false;
  server_->set_hold_period_rolls(false);
  server_->set_loading(false);
  SuspendExpiry(false);
  if (!s.ok()) return s;
  using Kind = RedisAofEnd::Kind;
  if (end.kind == Kind::kBadFormat) {
    return Status::Corruption("Bad file format reading the append only file " + path +
                              ": make a backup of your AOF file, then use ./redis-check-aof "
                              "--fix <filename.manifest>");
  }
  if (end.kind == Kind::kTruncated) {
    if (!last || !server_->config().aof_load_truncated) {
      return Status::Corruption(
          "Unexpected end of file reading the append only file " + path +
          ". You can: 1) Make a backup of your AOF file, then use ./redis-check-aof --fix "
          "<filename.manifest>. 2) Alternatively you can set the 'aof-load-truncated' "
          "configuration option to yes and restart the server.");
    }
    LOG_WARNING("!!! Warning: short read while loading the AOF file %s!!!", path.c_str());
    LOG_WARNING("!!! Truncating the AOF at offset %" PRIu64 " !!!", end.valid_size);
    s = env_->TruncateFile(path, end.valid_size);
    if (!s.ok()) return s;
    LOG_WARNING("AOF %s loaded anyway because aof-load-truncated is enabled", path.c_str());
  }
  // Redis's line: "base file" or "incr file".
  const bool base = path.find(".base.") != std::string::npos;
  LOG_NOTICE("DB loaded from %s file %s: %.3f seconds, %" PRIu64 " commands",
             base ? "base" : "incr", path.c_str(), (MonoMs() - start_ms) / 1000.0, end.commands);
  return Status::OK();
}

}  // namespace rankd
