// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Replication, replica side: a full sync's snapshot. The bulk after
// +FULLRESYNC goes to a file as it arrives (server/repl_receive.h); once it
// is whole the durability layer loads it (load_snapshot), and the replica
// takes the primary's history and starts applying its stream.

#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "base/clock.h"
#include "base/logging.h"
#include "server/replication.h"
#include "server/server.h"

namespace rankd {
namespace {

// Where the snapshot lands (in the working directory, beside the dump).
std::string IncomingPath() { return "temp-repl-in-" + std::to_string(getpid()) + ".snap"; }

}  // namespace

void Replication::ReadSnapshot() {
  if (!receiver_.active()) {
    // Redis sends newlines as keep-alives while it prepares the snapshot.
    while (in_pos_ < in_.size() && in_[in_pos_] == '\n') in_pos_++;
    const size_t eol = in_.find("\r\n", in_pos_);
    if (eol == std::string::npos) return;
    std::string_view header(in_.data() + in_pos_, eol - in_pos_);
    std::string err;
    if (!receiver_.Start(header, IncomingPath(), &err)) {
      LOG_WARNING("%s", err.c_str());
      return DropLink(/*retry=*/true);
    }
    in_pos_ = eol + 2;
    if (header.substr(0, 5) == "$EOF:") {
      LOG_NOTICE("MASTER <-> REPLICA sync: receiving streamed RDB from master with EOF to disk");
    } else {
      LOG_NOTICE("MASTER <-> REPLICA sync: receiving %s bytes from master to disk",
                 std::string(header.substr(1)).c_str());
    }
  }
  size_t used = 0;
  std::string err;
  const SnapshotReceiver::Result r =
      receiver_.Feed(std::string_view(in_).substr(in_pos_), &used, &err);
  in_pos_ += used;
  if (r == SnapshotReceiver::Result::kError) {
    LOG_WARNING("%s", err.c_str());
    return DropLink(/*retry=*/true);
  }
  if (r == SnapshotReceiver::Result::kMore) return;
  LoadReceivedSnapshot();
}

void Replication::LoadReceivedSnapshot() {
  const std::string path = receiver_.path();
  LOG_NOTICE("MASTER <-> REPLICA sync: Loading DB in memory (%llu bytes)",
             static_cast<unsigned long long>(receiver_.bytes_written()));
  loaded_stream_db_ = 0;
  // As Redis's replica: a newline to the primary about once a second while
  // a long load blocks the loop, so the primary does not time the link out.
  int64_t last_sent_ms = MonoMs();
  const std::function<void()> keep_alive = [this, &last_sent_ms] {
    const int64_t now = MonoMs();
    if (fd_ < 0 || now - last_sent_ms < 1000 || !out_.empty()) return;
    last_sent_ms = now;
    (void)send(fd_, "\n", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
  };
  Status s = load_snapshot ? load_snapshot(path, keep_alive)
                           : Status::InvalidArgument("no loader");
  (void)unlink(path.c_str());
  // The load's time is not silence from the primary.
  last_io_ms_ = MonoMs();
  if (!s.ok()) {
    LOG_WARNING("Failed trying to load the MASTER synchronization DB: %s", s.message().c_str());
    return DropLink(/*retry=*/true);
  }
  // A new history: its replid and offset, an empty backlog from there, and
  // our own replicas must sync again from it.
  replid_ = pending_replid_;
  offset_ = pending_offset_;
  replid2_ = std::string(40, '0');
  second_offset_ = -1;
  if (backlog_) {
    backlog_->Reset(offset_ + 1);
  } else {
    CreateBacklog();
  }
  DisconnectReplicas();
  master_client_.reset();
  EnsureMasterClient(loaded_stream_db_);
  own_history_ = true;
  LOG_NOTICE("MASTER <-> REPLICA sync: Finished with success");
  LinkEstablished();
}

}  // namespace rankd
