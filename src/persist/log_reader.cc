// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "persist/log_reader.h"

#include <algorithm>

#include "persist/coding.h"
#include "persist/crc32c.h"

namespace rankd {
namespace {

constexpr size_t kReadChunk = 1 << 20;

bool ValidType(uint8_t t) {
  return t == static_cast<uint8_t>(format::RecordType::kHeader) ||
         t == static_cast<uint8_t>(format::RecordType::kBatch);
}

// True if a well-formed record with a correct CRC starts at data[0].
bool RecordStartsAt(std::string_view data) {
  if (data.size() < format::kRecordHeaderSize) return false;
  uint32_t len = coding::DecodeFixed32(data.data() + 4);
  uint8_t type = static_cast<uint8_t>(data[8]);
  if (!ValidType(type) || len > data.size() - format::kRecordHeaderSize) return false;
  uint32_t crc = crc32c::Unmask(coding::DecodeFixed32(data.data()));
  return crc == crc32c::Value(data.data() + 8, 1 + len);
}

// `rest` is the file from a bad record at file offset `offset` to its end,
// with no valid record after it. Returns nullptr if it is what a crash
// leaves (a torn write), else why it is damage. A crash leaves a record
// short (its header or payload runs past the end of the file) or leaves
// blocks that were never written, which read back as zeros. A record whose
// bytes are all there and still fail is damage: it was written whole (and
// maybe acknowledged), then changed.
const char* TailDamage(std::string_view rest, uint64_t offset) {
  if (rest.size() < format::kRecordHeaderSize) return nullptr;  // header cut short
  const uint64_t len = coding::DecodeFixed32(rest.data() + 4);
  const uint64_t end = format::kRecordHeaderSize + len;
  if (end > rest.size()) {
    // Short, unless the bytes present are a whole record under its CRC and
    // only the length field is wrong.
    uint32_t crc = crc32c::Unmask(coding::DecodeFixed32(rest.data()));
    bool whole = crc == crc32c::Value(rest.data() + 8, rest.size() - 8);
    return whole ? "record length damaged (the record's bytes are all there and match its "
                   "checksum)"
                 : nullptr;
  }
  // Zero fill reaching back over the record's last sector: a write that
  // never reached the disk. (A batch payload ends in "\r\n", so one
  // damaged byte cannot make a whole sector zero.)
  size_t zeros_from = rest.size();
  while (zeros_from > 0 && rest[zeros_from - 1] == '\0') zeros_from--;
  constexpr uint64_t kSector = 512;
  const uint64_t last_sector = (offset + end - 1) / kSector * kSector;
  if (zeros_from <= (last_sector > offset ? last_sector - offset : 0)) return nullptr;
  return "the record is complete, so this is damage, not a torn write";
}

}  // namespace

LogReader::LogReader(std::unique_ptr<SequentialFile> file, uint64_t file_size, std::string name)
    : file_(std::move(file)), file_size_(file_size), name_(std::move(name)) {}

bool LogReader::Fill(size_t n) {
  if (buf_.size() - pos_ >= n) return true;
  buf_.erase(0, pos_);
  pos_ = 0;
  while (buf_.size() < n && !eof_) {
    uint64_t done = offset_ + buf_.size();
    size_t want = static_cast<size_t>(std::min<uint64_t>(std::max(n - buf_.size(), kReadChunk),
                                                         file_size_ - done));
    if (want == 0) {
      eof_ = true;
      break;
    }
    size_t old = buf_.size();
    buf_.resize(old + want);
    std::string_view got;
    Status s = file_->Read(want, &got, buf_.data() + old);
    if (!s.ok()) {
      status_ = s;
      buf_.resize(old);
      return false;
    }
    buf_.resize(old + got.size());
    if (got.size() < want) eof_ = true;
  }
  return buf_.size() - pos_ >= n;
}

bool LogReader::ReadRecord(format::RecordType* type, std::string_view* payload) {
  if (!status_.ok() || torn_bytes_ > 0) return false;
  record_offset_ = offset_;
  if (!Fill(format::kRecordHeaderSize)) {
    if (status_.ok() && buf_.size() > pos_) ClassifyBadRecord("truncated record header");
    return false;
  }
  const char* h = buf_.data() + pos_;
  uint32_t len = coding::DecodeFixed32(h + 4);
  uint8_t t = static_cast<uint8_t>(h[8]);
  if (!ValidType(t)) {
    ClassifyBadRecord("bad record type");
    return false;
  }
  if (len > format::kMaxRecordPayload) {
    ClassifyBadRecord("bad record length");
    return false;
  }
  if (!Fill(format::kRecordHeaderSize + len)) {
    if (status_.ok()) ClassifyBadRecord("truncated record");
    return false;
  }
  h = buf_.data() + pos_;
  uint32_t crc = crc32c::Unmask(coding::DecodeFixed32(h));
  if (crc != crc32c::Value(h + 8, 1 + len)) {
    ClassifyBadRecord("checksum mismatch");
    return false;
  }
  *type = static_cast<format::RecordType>(t);
  *payload = std::string_view(h + format::kRecordHeaderSize, len);
  pos_ += format::kRecordHeaderSize + len;
  offset_ += format::kRecordHeaderSize + len;
  return true;
}

void LogReader::ClassifyBadRecord(const char* what) {
  // Read the rest of the file and look for any later valid record.
  buf_.erase(0, pos_);
  pos_ = 0;
  while (Fill(buf_.size() + kReadChunk)) {
  }
  if (!status_.ok()) return;
  std::string_view rest(buf_);
  for (size_t i = 1; i + format::kRecordHeaderSize <= rest.size(); i++) {
    if (RecordStartsAt(rest.substr(i))) {
      status_ = Status::Corruption(name_ + ": " + what + " at offset " + std::to_string(offset_) +
                                   " (a valid record follows at offset " +
                                   std::to_string(offset_ + i) + ")");
      return;
    }
  }
  if (const char* damage = TailDamage(rest, offset_)) {
    status_ = Status::Corruption(name_ + ": " + what + " at offset " + std::to_string(offset_) +
                                 " (" + damage + ")");
    return;
  }
  torn_bytes_ = rest.size();
  if (torn_bytes_ == 0) torn_bytes_ = file_size_ - offset_;
}

namespace {

Status ReadRecords(LogReader& reader, const std::string& path,
                   const std::function<Status(std::string_view, uint64_t)>& fn, LogFileInfo* info) {
  format::RecordType type;
  std::string_view payload;
  bool first = true;
  while (reader.ReadRecord(&type, &payload)) {
    if (first) {
      std::string_view magic = payload.substr(0, format::kLogMagic.size());
      if (type != format::RecordType::kHeader || magic != format::kLogMagic) {
        return Status::Corruption(path + ": not a rankd log file (no header record at offset 0)");
      }
      std::string_view rest = payload.substr(magic.size());
      uint32_t version = 0;
      if (!coding::GetFixed32(&rest, &version) || version > format::kLogVersion) {
        return Status::Corruption(path + ": unsupported log version " + std::to_string(version));
      }
      first = false;
      continue;
    }
    if (type != format::RecordType::kBatch) {
      return Status::Corruption(path + ": unexpected record type at offset " +
                                std::to_string(reader.record_offset()));
    }
    info->records++;
    Status s = fn(payload, reader.record_offset());
    if (!s.ok()) return s;
  }
  // The header record is fsynced before any manifest names the file, so a
  // file without a valid one was never ours (an empty file is an empty log).
  if (first && reader.status().ok() && reader.torn_bytes() > 0) {
    return Status::Corruption(path + ": not a rankd log file (no valid header record at offset 0)");
  }
  return reader.status();
}

}  // namespace

Status ReadLogFile(Env* env, const std::string& path,
                   const std::function<Status(std::string_view payload, uint64_t offset)>& fn,
                   LogFileInfo* info) {
  *info = LogFileInfo{};
  Status s = env->GetFileSize(path, &info->file_size);
  if (!s.ok()) return s;
  std::unique_ptr<SequentialFile> file;
  s = env->NewSequentialFile(path, &file);
  if (!s.ok()) return s;
  LogReader reader(std::move(file), info->file_size, path);
  s = ReadRecords(reader, path, fn, info);
  info->valid_size = reader.valid_size();
  info->torn_bytes = reader.torn_bytes();
  return s;
}

}  // namespace rankd
