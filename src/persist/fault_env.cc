// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/fault_env.h"

#include <errno.h>
#include <string.h>

#include <algorithm>
#include <cstring>

namespace rankd {

class FaultFile : public WritableFile {
 public:
  using Inode = FaultEnv::Inode;
  FaultFile(FaultEnv* env, std::string path, std::shared_ptr<FaultEnv::Inode> inode)
      : env_(env), path_(std::move(path)), inode_(std::move(inode)) {}

  Status Append(std::string_view data) override {
    std::lock_guard<std::mutex> lock(env_->mu_);
    size_t n = data.size();
    if (env_->space_left_ >= 0) n = std::min<size_t>(n, static_cast<size_t>(env_->space_left_));
    inode_->data.append(data.substr(0, n));
    if (env_->space_left_ >= 0) env_->space_left_ -= static_cast<int64_t>(n);
    if (n < data.size()) return Status::IOError(path_, strerror(ENOSPC));
    return Status::OK();
  }
  Status Sync() override {
    std::lock_guard<std::mutex> lock(env_->mu_);
    Inode& f = *inode_;
    if (env_->sync_error_) {
      if (f.lost_begin == f.lost_end) f.lost_begin = f.synced.size();
      f.lost_begin = std::min<uint64_t>(f.lost_begin, f.synced.size());
      f.lost_end = std::max<uint64_t>(f.lost_end, f.data.size());
      return Status::IOError(path_, strerror(EIO));
    }
    f.synced = f.data;
    for (uint64_t i = f.lost_begin; i < f.lost_end && i < f.synced.size(); i++) f.synced[i] = 0;
    return Status::OK();
  }
  Status Truncate(uint64_t size) override {
    std::lock_guard<std::mutex> lock(env_->mu_);
    Inode& f = *inode_;
    if (size < f.data.size()) f.data.resize(size);
    f.lost_end = std::min<uint64_t>(f.lost_end, size);
    if (f.lost_end <= f.lost_begin) f.lost_begin = f.lost_end = 0;
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }

 private:
  FaultEnv* const env_;
  const std::string path_;
  std::shared_ptr<FaultEnv::Inode> inode_;
};

namespace {

class MemSequentialFile : public SequentialFile {
 public:
  explicit MemSequentialFile(std::string data) : data_(std::move(data)) {}
  Status Read(size_t n, std::string_view* result, char* scratch) override {
    n = std::min(n, data_.size() - pos_);
    memcpy(scratch, data_.data() + pos_, n);
    pos_ += n;
    *result = std::string_view(scratch, n);
    return Status::OK();
  }

 private:
  const std::string data_;  // a copy: reads see the file as it was opened
  size_t pos_ = 0;
};

}  // namespace

void FaultEnv::set_space_left(int64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  space_left_ = bytes;
}

void FaultEnv::set_sync_error(bool fail) {
  std::lock_guard<std::mutex> lock(mu_);
  sync_error_ = fail;
}

void FaultEnv::set_rename_error(bool fail) {
  std::lock_guard<std::mutex> lock(mu_);
  rename_error_ = fail;
}

void FaultEnv::Crash() {
  std::lock_guard<std::mutex> lock(mu_);
  // After a reboot the page cache is empty: nothing is remembered as lost.
  for (auto* files : {&live_, &durable_}) {
    for (auto& [path, inode] : *files) {
      inode->data = inode->synced;
      inode->lost_begin = inode->lost_end = 0;
    }
  }
  live_ = durable_;
}

std::string FaultEnv::Contents(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.find(path);
  return it == live_.end() ? std::string() : it->second->data;
}

void FaultEnv::SetContents(const std::string& path, std::string data) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& inode = live_[path];
  if (!inode) inode = std::make_shared<Inode>();
  inode->data = data;
  inode->synced = std::move(data);
  durable_[path] = inode;
}

Status FaultEnv::OpenFile(const std::string& path, bool truncate,
                          std::unique_ptr<WritableFile>* out) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& inode = live_[path];
  if (!inode || truncate) inode = std::make_shared<Inode>();
  *out = std::make_unique<FaultFile>(this, path, inode);
  return Status::OK();
}

Status FaultEnv::NewWritableFile(const std::string& path, std::unique_ptr<WritableFile>* out) {
  return OpenFile(path, true, out);
}

Status FaultEnv::NewAppendableFile(const std::string& path, std::unique_ptr<WritableFile>* out) {
  return OpenFile(path, false, out);
}

Status FaultEnv::NewSequentialFile(const std::string& path,
                                   std::unique_ptr<SequentialFile>* out) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.find(path);
  if (it == live_.end()) return Status::IOError(path, strerror(ENOENT));
  *out = std::make_unique<MemSequentialFile>(it->second->data);
  return Status::OK();
}

bool FaultEnv::FileExists(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  return live_.count(path) > 0;
}

Status FaultEnv::GetFileSize(const std::string& path, uint64_t* size) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.find(path);
  if (it == live_.end()) return Status::IOError(path, strerror(ENOENT));
  *size = it->second->data.size();
  return Status::OK();
}

Status FaultEnv::RenameFile(const std::string& from, const std::string& to) {
  std::lock_guard<std::mutex> lock(mu_);
  if (rename_error_) return Status::IOError(from, strerror(EIO));
  auto it = live_.find(from);
  if (it == live_.end()) return Status::IOError(from, strerror(ENOENT));
  live_[to] = it->second;
  live_.erase(from);
  return Status::OK();
}

Status FaultEnv::RemoveFile(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!live_.erase(path)) return Status::IOError(path, strerror(ENOENT));
  return Status::OK();
}

Status FaultEnv::TruncateFile(const std::string& path, uint64_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.find(path);
  if (it == live_.end()) return Status::IOError(path, strerror(ENOENT));
  Inode& f = *it->second;
  if (size < f.data.size()) f.data.resize(size);
  f.lost_end = std::min<uint64_t>(f.lost_end, size);
  if (f.lost_end <= f.lost_begin) f.lost_begin = f.lost_end = 0;
  f.synced = f.data;
  return Status::OK();
}

Status FaultEnv::CreateDir(const std::string& path) { return Status::OK(); }

Status FaultEnv::SyncDir(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  // Entries of `path`: drop the durable ones, then copy the live ones.
  auto in_dir = [&](const std::string& p) { return DirName(p) == path; };
  for (auto it = durable_.begin(); it != durable_.end();) {
    it = in_dir(it->first) ? durable_.erase(it) : std::next(it);
  }
  for (auto& [p, inode] : live_) {
    if (in_dir(p)) durable_[p] = inode;
  }
  return Status::OK();
}

Status FaultEnv::GetChildren(const std::string& path, std::vector<std::string>* names) {
  std::lock_guard<std::mutex> lock(mu_);
  names->clear();
  if (live_.count(path)) return Status::IOError(path, strerror(ENOTDIR));
  for (auto& [p, inode] : live_) {
    if (DirName(p) == path) names->push_back(p.substr(p.rfind('/') == std::string::npos ? 0 : p.rfind('/') + 1));
  }
  return Status::OK();
}

}  // namespace rankd
