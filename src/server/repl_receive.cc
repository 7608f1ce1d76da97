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
  // A mark that starts in the held-back tail ends within `in`'s first
  // kMarkSize - 1 bytes: only that joint is searched in a copy; the rest of
  // `in` is searched and written where it lies.
  const size_t held = tail_.size();
  std::string joint = tail_;
  joint.append(in.substr(0, std::min(in.size(), kMarkSize - 1)));
  size_t at = joint.find(mark_);
  if (at != std::string::npos) {
    if (!Write(std::string_view(joint).substr(0, at), err)) return Result::kError;
    *used = at + kMarkSize - held;  // the mark ends inside `in`
    return Finish(err);
  }
  at = in.find(mark_);
  if (at != std::string_view::npos) {
    if (!Write(tail_, err) || !Write(in.substr(0, at), err)) return Result::kError;
    *used = at + kMarkSize;
    return Finish(err);
  }
  // No mark yet: everything but the last kMarkSize - 1 bytes seen is payload.
  *used = in.size();
  if (in.size() >= kMarkSize - 1) {
    if (!Write(tail_, err) || !Write(in.substr(0, in.size() - (kMarkSize - 1)), err)) {
      return Result::kError;
    }
    tail_.assign(in.substr(in.size() - (kMarkSize - 1)));
    return Result::kMore;
  }
  const size_t keep = std::min(joint.size(), kMarkSize - 1);
  if (!Write(std::string_view(joint).substr(0, joint.size() - keep), err)) return Result::kError;
  tail_ = joint.substr(joint.size() - keep);
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
