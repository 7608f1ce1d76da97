// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// A replica applying its primary's stream: each command runs as the master
// client, then its bytes count in the offset and go on to this server's
// backlog and replicas (a transaction's once its EXEC ran). A CLIENT PAUSE
// holds the stream as Redis holds its master client: the bytes are read
// (INFO slave_read_repl_offset) and applied when the pause ends.

#include "base/logging.h"
#include "server/repl_divergence.h"
#include "server/replication.h"
#include "server/server.h"

namespace rankd {

namespace {

// Whether a pause holds the primary's next command: Redis pauses its master
// client as any other, so under CLIENT PAUSE WRITE a command that may write
// (or an EXEC of one) waits and the replica's offset stays; under ALL every
// command waits.
bool PauseHolds(const Server& server, const Client& master, std::string_view name) {
  if (server.pause_mode() == Server::PauseMode::kNone) return false;
  if (server.pause_mode() == Server::PauseMode::kAll) return true;
  const CommandSpec* spec = server.FindCommand(name);
  if (!spec) return false;
  if (spec->flags & (kWrite | kMayReplicate)) return true;
  return master.in_multi && spec->name == "exec" && (master.queued_flags & (kWrite | kMayReplicate));
}

}  // namespace

uint64_t Replication::read_offset() const {
  if (fd_ < 0 || state_ != State::kConnected) return offset_;
  return offset_ + unapplied_.size() + (in_.size() - in_pos_);
}

void Replication::ResumeStream() {
  if (fd_ < 0 || state_ != State::kConnected || in_pos_ >= in_.size()) return;
  ApplyStream();
  if (fd_ >= 0) {
    in_.erase(0, in_pos_);
    in_pos_ = 0;
  }
}

void Replication::ApplyStream() {
  RespParser::Limits limits;
  while (fd_ >= 0 && state_ == State::kConnected) {
    const size_t start = in_pos_;
    RespParser::Result r = parser_->Parse(in_, &in_pos_, &args_, limits);
    if (r == RespParser::Result::kNeedMore) {
      // The parser consumed a command read in part: keep its bytes aside.
      unapplied_.append(in_, start, in_pos_ - start);
      return;
    }
    if (r == RespParser::Result::kError) {
      LOG_WARNING("Protocol error from MASTER: %s", parser_->error().c_str());
      return DropLink(/*retry=*/true);
    }
    if (PauseHolds(*server_, *master_client_, args_[0])) {
      in_pos_ = start;  // parsed again when the pause ends (ResumeStream)
      return;
    }
    const size_t end = in_pos_;
    server_->Execute(*master_client_, args_, /*no_block=*/true);
    ReportPrimaryErrors(*server_, *master_client_, args_, master_reply_.buffer());
    master_reply_.buffer().clear();
    if (fd_ < 0) return;  // the command dropped the link (an ACK failed)
    // As Redis's commandProcessed: the bytes count once applied (after the command, so
    // a GETACK's ACK excludes it; after EXEC), then go on to our backlog and replicas.
    const std::string_view bytes = std::string_view(in_).substr(start, end - start);
    if (unapplied_.empty() && !master_client_->in_multi) {
      AppendStream(bytes);
      continue;
    }
    unapplied_.append(bytes);
    if (master_client_->in_multi) continue;
    AppendStream(unapplied_);
    unapplied_.clear();
  }
}

}  // namespace rankd
