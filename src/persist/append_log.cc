// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/append_log.h"

#include <unistd.h>

#include <cassert>

#include "base/clock.h"
#include "base/logging.h"
#include "persist/coding.h"
#include "persist/command_codec.h"
#include "persist/format.h"
#include "persist/redis_aof.h"

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
  AppendCommand(&batch_, db, args);
  if (batch_.size() >= format::kBatchSplitBytes) Seal();
}

void AppendLog::Seal() {
  if (batch_.empty()) return;
  SealPayload(batch_);
  batch_.clear();
}

void AppendLog::SealPayload(std::string_view payload) {
  if (!redis_format_) return writer_->AddRecord(format::RecordType::kBatch, payload);
  std::string resp;
  bool ok = BatchToRedisAof(payload, &redis_selected_db_, &resp);
  assert(ok);  // Invariant: Add() built the payload.
  (void)ok;
  writer_->AddRaw(resp);
}

Status AppendLog::Commit(size_t batch_prefix) {
  if (batch_prefix >= batch_.size()) {
    Seal();
  } else if (batch_prefix > 0) {
    SealPayload(std::string_view(batch_).substr(0, batch_prefix));
    batch_.erase(0, batch_prefix);
  }
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
