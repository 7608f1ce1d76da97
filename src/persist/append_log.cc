// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/append_log.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>

#include "base/clock.h"
#include "base/logging.h"
#include "persist/coding.h"
#include "persist/command_codec.h"
#include "persist/format.h"

namespace rankd {

bool ParseFsyncPolicy(std::string_view name, FsyncPolicy* out) {
  if (name == "always") {
    *out = FsyncPolicy::kAlways;
  } else if (name == "everysec") {
    *out = FsyncPolicy::kEverySec;
  } else if (name == "no") {
    *out = FsyncPolicy::kNo;
  } else {
    return false;
  }
  return true;
}

std::string ErrorDetail(const Status& s) {
  const std::string& m = s.message();
  size_t colon = m.rfind(": ");
  return colon == std::string::npos ? m : m.substr(colon + 2);
}

Status AppendLog::Open(Env* env, const std::string& path, FsyncPolicy policy,
                       std::unique_ptr<AppendLog>* out, bool redis_format) {
  uint64_t size = 0;
  if (env->FileExists(path)) {
    Status s = env->GetFileSize(path, &size);
    if (!s.ok()) return s;
  }
  std::unique_ptr<WritableFile> file;
  Status s = env->NewAppendableFile(path, &file);
  if (!s.ok()) return s;
  auto writer = std::make_unique<LogWriter>(std::move(file), size, policy != FsyncPolicy::kNo);
  if (size == 0 && !redis_format) {
    std::string header(format::kLogMagic);
    coding::PutFixed32(&header, format::kLogVersion);
    writer->AddRecord(format::RecordType::kHeader, header);
    s = writer->Flush(true);
    if (s.ok()) s = env->SyncDir(DirName(path));
    if (!s.ok()) return s;
  }
  out->reset(new AppendLog(path, std::move(writer), policy, redis_format));
  return Status::OK();
}

AppendLog::AppendLog(std::string path, std::unique_ptr<LogWriter> writer, FsyncPolicy policy,
                     bool redis_format)
    : path_(std::move(path)),
      redis_format_(redis_format),
      writer_(std::move(writer)),
      policy_(policy) {
  last_sync_ms_ = MonoMs();
}

AppendLog::~AppendLog() {
  if (thread_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }
}

void AppendLog::Add(int db, std::span<const std::string_view> args) {
  if (!redis_format_) {
    AppendCommand(&batch_, db, args);
  } else {
    // Redis's AOF text as it is added, so sealing only frames it: SELECT
    // whenever the database changes (before MULTI at a batch's start, as
    // Redis writes it).
    if (db != redis_db_) {
      char index[12];
      const auto end = std::to_chars(index, index + sizeof(index), db).ptr;
      const std::string_view select[] = {"SELECT", std::string_view(index, end - index)};
      AppendRespCommand(&batch_, select);
      redis_db_ = db;
    }
    redis_commands_.push_back(batch_.size());
    AppendRespCommand(&batch_, args);
  }
  if (batch_.size() >= format::kBatchSplitBytes) Seal();
}

void AppendLog::Seal() { SealPrefix(batch_.size()); }

void AppendLog::SealPrefix(size_t n) {
  if (n == 0) return;
  const std::string_view sealed = std::string_view(batch_).substr(0, n);
  if (!redis_format_) {
    writer_->AddRecord(format::RecordType::kBatch, sealed);
  } else {
    // MULTI ... EXEC around a batch of several commands, so Redis and rankd
    // apply it whole or not at all.
    const auto first = redis_commands_.begin();
    const auto past = std::lower_bound(first, redis_commands_.end(), n);
    if (past - first > 1) {
      static constexpr std::string_view kMulti = "*1\r\n$5\r\nMULTI\r\n";
      static constexpr std::string_view kExec = "*1\r\n$4\r\nEXEC\r\n";
      writer_->AddRaw(sealed.substr(0, *first));  // a SELECT, if any
      writer_->AddRaw(kMulti);
      writer_->AddRaw(sealed.substr(*first));
      writer_->AddRaw(kExec);
    } else {
      writer_->AddRaw(sealed);
    }
    redis_commands_.erase(first, past);
    for (size_t& at : redis_commands_) at -= n;
  }
  batch_.erase(0, n);
}

Status AppendLog::Commit(size_t batch_prefix) {
  SealPrefix(std::min(batch_prefix, batch_.size()));
  if (!ok()) return error();
  if (writer_->pending_bytes() == 0) return Status::OK();
  bool sync = policy_ == FsyncPolicy::kAlways;
  if (policy_ == FsyncPolicy::kEverySec && writer_->unsynced_bytes() > kMaxUnsyncedBytes) {
    ReapBackgroundSync(/*wait=*/true);  // the disk is slow: do not pile up more
    sync = writer_->unsynced_bytes() > kMaxUnsyncedBytes;
  }
  if (const int64_t us = debug_flush_sleep_us_.load(); us > 0) usleep(static_cast<useconds_t>(us));
  Status s = writer_->Flush(sync);
  if (!s.ok()) {
    LOG_WARNING("Error writing to the AOF file %s: %s", path_.c_str(), s.message().c_str());
    write_status_ = s;
  }
  return s;
}

void AppendLog::Tick(int64_t now_ms) {
  ReapBackgroundSync(false);
  if (!ok()) {
    if (now_ms - last_retry_ms_ < 100) return;
    last_retry_ms_ = now_ms;
    if (sync_in_flight_) return;
    Seal();
    Status s = writer_->Flush(policy_ != FsyncPolicy::kNo);
    if (s.ok()) {
      LOG_WARNING("AOF write error looks solved, Redis can write again.");
      write_status_ = Status::OK();
      fsync_status_ = Status::OK();
      last_sync_ms_ = now_ms;
    }
    return;
  }
  if (policy_ == FsyncPolicy::kEverySec && !sync_in_flight_ && now_ms - last_sync_ms_ >= 1000 &&
      writer_->synced_size() < writer_->written_size()) {
    StartBackgroundSync(now_ms);
  }
}

Status AppendLog::FlushAndSync() {
  ReapBackgroundSync(true);
  Seal();
  Status s = writer_->Flush(true);
  if (s.ok()) {
    write_status_ = Status::OK();
    fsync_status_ = Status::OK();
  } else {
    write_status_ = s;
  }
  return s;
}

void AppendLog::set_policy(FsyncPolicy policy) {
  if (policy == policy_) return;
  ReapBackgroundSync(true);
  Status s = writer_->set_track_unsynced(policy != FsyncPolicy::kNo);
  if (!s.ok()) fsync_status_ = s;
  policy_ = policy;
}

void AppendLog::StartBackgroundSync(int64_t now_ms) {
  if (!thread_.joinable()) thread_ = std::thread([this] { SyncThread(); });
  ticket_ = writer_->BeginSync();
  sync_in_flight_ = true;
  last_sync_ms_ = now_ms;
  {
    std::lock_guard<std::mutex> lock(mu_);
    requested_ = true;
  }
  cv_.notify_one();
}

void AppendLog::ReapBackgroundSync(bool wait) {
  if (!sync_in_flight_) return;
  Status s;
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (wait) cv_.wait(lock, [this] { return done_; });
    if (!done_) return;
    done_ = false;
    s = thread_status_;
  }
  sync_in_flight_ = false;
  writer_->EndSync(ticket_, s);
  if (!s.ok()) {
    LOG_WARNING("Error syncing the AOF file %s: %s", path_.c_str(), s.message().c_str());
    fsync_status_ = s;
  }
}

void AppendLog::SyncThread() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return requested_ || stop_; });
    if (stop_) return;
    requested_ = false;
    lock.unlock();
    Status s = writer_->file()->Sync();
    lock.lock();
    thread_status_ = s;
    done_ = true;
    cv_.notify_all();
  }
}

}  // namespace rankd
