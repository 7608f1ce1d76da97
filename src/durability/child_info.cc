// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "durability/child_info.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "base/clock.h"
#include "persist/key_delay.h"

namespace rankd {
namespace {

struct Report {
  uint64_t keys;
  uint64_t cow_bytes;
};

// The child's side (one child per process image).
int child_fd = -1;
uint64_t child_keys = 0;
int64_t child_last_ms = 0;

// Private_Dirty of this process, in bytes (0 when /proc cannot tell).
uint64_t PrivateDirtyBytes() {
  FILE* f = fopen("/proc/self/smaps_rollup", "r");
  if (!f) return 0;
  char line[256];
  uint64_t kb = 0;
  while (fgets(line, sizeof(line), f)) {
    unsigned long long v = 0;
    if (sscanf(line, "Private_Dirty: %llu kB", &v) == 1) kb += v;
  }
  fclose(f);
  return kb * 1024;
}

void Send() {
  const Report r{child_keys, PrivateDirtyBytes()};
  // A full pipe drops the report: the next one carries newer numbers.
  (void)!write(child_fd, &r, sizeof(r));
}

void OnKeySaved() {
  child_keys++;
  const int64_t now = MonoMs();
  if (now - child_last_ms < 100) return;
  child_last_ms = now;
  Send();
}

}  // namespace

ChildInfo::~ChildInfo() { Close(); }

void ChildInfo::Close() {
  for (int& fd : fds_) {
    if (fd >= 0) close(fd);
    fd = -1;
  }
}

bool ChildInfo::Open(uint64_t keys_total) {
  Close();
  keys_total_ = keys_total;
  keys_ = cow_ = 0;
  cow_ms_ = 0;
  if (pipe2(fds_, O_CLOEXEC | O_NONBLOCK) != 0) {
    fds_[0] = fds_[1] = -1;
    return false;
  }
  return true;
}

void ChildInfo::StartReporting() {
  if (fds_[1] < 0) return;
  close(fds_[0]);
  fds_[0] = -1;
  child_fd = fds_[1];
  child_keys = 0;
  child_last_ms = MonoMs();
  SetKeySavedHook(&OnKeySaved);
}

void ChildInfo::ReportDone() {
  if (child_fd >= 0) Send();
}

void ChildInfo::ParentForked() {
  if (fds_[1] >= 0) close(fds_[1]);
  fds_[1] = -1;
}

void ChildInfo::Poll() {
  if (fds_[0] < 0) return;
  Report r;
  while (read(fds_[0], &r, sizeof(r)) == static_cast<ssize_t>(sizeof(r))) {
    keys_ = r.keys;
    cow_ = r.cow_bytes;
    cow_ms_ = MonoMs();
  }
}

uint64_t ChildInfo::Finish() {
  Poll();
  Close();
  return cow_;
}

}  // namespace rankd
