// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/log_writer.h"

#include <cassert>

#include "persist/coding.h"
#include "persist/crc32c.h"

namespace rankd {

void EncodeRecord(std::string* dst, format::RecordType type, std::string_view payload) {
  assert(payload.size() <= format::kMaxRecordPayload);
  const char t = static_cast<char>(type);
  uint32_t crc = crc32c::Extend(crc32c::Value(&t, 1), payload.data(), payload.size());
  coding::PutFixed32(dst, crc32c::Mask(crc));
  coding::PutFixed32(dst, static_cast<uint32_t>(payload.size()));
  dst->push_back(t);
  dst->append(payload);
}

LogWriter::LogWriter(std::unique_ptr<WritableFile> file, uint64_t size, bool track_unsynced)
    : file_(std::move(file)),
      track_unsynced_(track_unsynced),
      written_size_(size),
      synced_size_(size) {}

void LogWriter::AddRecord(format::RecordType type, std::string_view payload) {
  EncodeRecord(&pending_, type, payload);
}

Status LogWriter::set_track_unsynced(bool track) {
  if (track == track_unsynced_) return Status::OK();
  track_unsynced_ = track;
  unsynced_.clear();
  if (!track || synced_size_ == written_size_) return Status::OK();
  // Turning tracking on: the bytes after synced_size_ were not kept, so make
  // them durable now; the new baseline is the written size either way.
  Status s = file_->Sync();
  synced_size_ = written_size_;
  return s;
}

Status LogWriter::Flush(bool sync) {
  if (needs_repair_) {
    // Cut back to the last known-good size and queue what followed it again.
    // Invariant: when tracking, unsynced_ holds exactly the bytes written
    // after synced_size_.
    uint64_t good = track_unsynced_ ? synced_size_ : written_size_;
    Status s = file_->Truncate(good);
    if (!s.ok()) return s;
    if (track_unsynced_) {
      pending_.insert(0, unsynced_);
      unsynced_.clear();
    }
    written_size_ = good;
    synced_size_ = std::min(synced_size_, good);
    generation_++;
    needs_repair_ = false;
  }
  if (!pending_.empty()) {
    Status s = file_->Append(pending_);
    if (!s.ok()) {
      needs_repair_ = true;
      return s;
    }
    written_size_ += pending_.size();
    if (track_unsynced_) unsynced_.append(pending_);
    pending_.clear();
  }
  if (sync && synced_size_ < written_size_) {
    Status s = file_->Sync();
    if (!s.ok()) {
      needs_repair_ = true;
      return s;
    }
    synced_size_ = written_size_;
    unsynced_.clear();
  }
  return Status::OK();
}

void LogWriter::EndSync(const SyncTicket& ticket, const Status& status) {
  if (ticket.generation != generation_) return;  // a repair rewrote those bytes
  if (!status.ok()) {
    needs_repair_ = true;
    return;
  }
  if (ticket.size <= synced_size_) return;
  // Invariant: ticket.size <= written_size_ within one generation.
  assert(ticket.size <= written_size_);
  if (track_unsynced_) unsynced_.erase(0, ticket.size - synced_size_);
  synced_size_ = ticket.size;
}

}  // namespace rankd
