// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "server/repl_receive.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/numbers.h"

namespace rankd {
namespace {

constexpr size_t kMarkSize = 40;

}  // namespace

bool SnapshotReceiver::Start(std::string_view header, const std::string& path,
                             std::string* err) {
  Abort();
  int64_t len = 0;
  if (header.size() == 5 + kMarkSize && header.substr(0, 5) == "$EOF:") {
    mark_ = std::string(header.substr(5));
    left_ = 0;
  } else if (!header.empty() && header[0] == '$' && ParseInt64(header.substr(1), &len) &&
             len >= 0) {
    mark_.clear();
    left_ = len;
  } else {
    *err = "Bad protocol from MASTER, the first byte is not '$': " +
           std::string(header.substr(0, 64));
    return false;
  }
  fd_ = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    *err = "Opening the temp file needed for MASTER <-> REPLICA synchronization: " +
           std::string(strerror(errno));
    return false;
  }
  path_ = path;
  tail_.clear();
  written_ = 0;
  return true;
}

SnapshotReceiver::Result SnapshotReceiver::Feed(std::string_view in, size_t* used,
                                                std::string* err) {
  *used = 0;
  if (fd_ < 0) {
    *err = "no transfer in progress";
    return Result::kError;
  }
  if (mark_.empty()) {
    const size_t take = static_cast<size_t>(std::min<int64_t>(left_, in.size()));
    if (!Write(in.substr(0, take), err)) return Result::kError;
    *used = take;
    left_ -= static_cast<int64_t>(take);
    return left_ == 0 ? Finish(err) : Result::kMore;
  }
  // The held-back tail and the new bytes, searched together for the mark.
  const size_t held = tail_.size();
  std::string seen = std::move(tail_);
  seen.append(in);
  tail_.clear();
  const size_t at = seen.find(mark_);
  if (at != std::string::npos) {
    if (!Write(std::string_view(seen).substr(0, at), err)) return Result::kError;
    *used = at + kMarkSize - held;  // the mark ends inside `in`
    return Finish(err);
  }
  const size_t keep = std::min(seen.size(), kMarkSize - 1);
  if (!Write(std::string_view(seen).substr(0, seen.size() - keep), err)) return Result::kError;
  tail_ = seen.substr(seen.size() - keep);
  *used = in.size();
  return Result::kMore;
}

bool SnapshotReceiver::Write(std::string_view bytes, std::string* err) {
  while (!bytes.empty()) {
    ssize_t n = write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *err = "Write error writing the snapshot to disk, MASTER -> REPLICA: " +
             std::string(n < 0 ? strerror(errno) : "short write");
      Abort();
      return false;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
    written_ += static_cast<uint64_t>(n);
  }
  return true;
}

SnapshotReceiver::Result SnapshotReceiver::Finish(std::string* err) {
  const int fd = fd_;
  fd_ = -1;
  if (close(fd) != 0) {
    *err = "Closing the snapshot file: " + std::string(strerror(errno));
    (void)unlink(path_.c_str());
    return Result::kError;
  }
  return Result::kDone;
}

void SnapshotReceiver::Abort() {
  if (fd_ < 0) return;
  close(fd_);
  fd_ = -1;
  (void)unlink(path_.c_str());
}

}  // namespace rankd
