// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Snapshot writing: one streaming pass over the keyspace into a 1 MiB
// buffer, CRC-32C computed as the buffer is flushed.

#include <unistd.h>

#include <algorithm>

#include "base/clock.h"
#include "persist/buffered_sink.h"
#include "persist/coding.h"
#include "persist/crc32c.h"
#include "persist/format.h"
#include "persist/rdb_writer.h"
#include "persist/key_delay.h"
#include "persist/periodic_codec.h"
#include "persist/snapshot.h"

namespace rankd {
namespace {

constexpr size_t kFlushBytes = BufferedSink::kFlushBytes;

// The snapshot's bytes, CRC-32C'd as they are flushed.
class SnapshotSink : public BufferedSink {
 public:
  explicit SnapshotSink(WritableFile* file)
      : BufferedSink(file, [this](std::string_view b) {
          crc_ = crc32c::Extend(crc_, b.data(), b.size());
        }) {}
  // Flushes, then appends the masked CRC of everything written.
  Status Finish() {
    return BufferedSink::Finish([this] {
      std::string trailer;
      coding::PutFixed32(&trailer, crc32c::Mask(crc_));
      return trailer;
    });
  }

 private:
  uint32_t crc_ = 0;
};

void PutAux(std::string* buf, std::string_view key, std::string_view value) {
  buf->push_back(static_cast<char>(format::kOpAux));
  coding::PutLengthPrefixed(buf, key);
  coding::PutLengthPrefixed(buf, value);
}

Status WriteZSet(SnapshotSink& sink, const SortedSet& z) {
  std::string& buf = sink.buf();
  const uint64_t n = z.size();
  size_t max_len = 0;
  z.ForEachInRankRange(0, n - 1, false, [&](std::string_view m, double) {
    max_len = std::max(max_len, m.size());
  });
  coding::PutVarint64(&buf, n);
  coding::PutVarint64(&buf, max_len);
  Status s;
  z.ForEachInRankRange(0, n - 1, false, [&](std::string_view m, double score) {
    coding::PutLengthPrefixed(&buf, m);
    coding::PutDouble(&buf, score);
    if (buf.size() >= kFlushBytes) s = sink.MaybeFlush();
  });
  return s;
}

// A leaderboard: its policy, sequence counter, and every member's stamp.
Status WriteBoard(SnapshotSink& sink, const SortedSet& z) {
  std::string& buf = sink.buf();
  const BoardPolicy& p = *z.board();
  buf.push_back(static_cast<char>(p.order));
  buf.push_back(static_cast<char>(p.ties));
  coding::PutVarint64(&buf, z.BoardNextSeq());
  size_t max_len = 0;
  z.BoardForEach(
      [&](std::string_view m, double, BoardStamp) { max_len = std::max(max_len, m.size()); });
  coding::PutVarint64(&buf, z.size());
  coding::PutVarint64(&buf, max_len);
  Status s;
  z.BoardForEach([&](std::string_view m, double score, BoardStamp st) {
    coding::PutLengthPrefixed(&buf, m);
    coding::PutDouble(&buf, score);
    coding::PutVarint64(&buf, st.seq);
    coding::PutFixed64(&buf, static_cast<uint64_t>(st.ms));
    if (buf.size() >= kFlushBytes) s = sink.MaybeFlush();
  });
  return s;
}

Status WriteSet(SnapshotSink& sink, const PlainSet& set) {
  std::string& buf = sink.buf();
  coding::PutVarint64(&buf, set.size());
  Status s;
  set.ForEach([&](std::string_view m) {
    coding::PutLengthPrefixed(&buf, m);
    if (buf.size() >= kFlushBytes) s = sink.MaybeFlush();
  });
  return s;
}

// Field deadlines are written only for hashes that have some
// (format::kTypeHashTtl), so plain hashes cost nothing extra.
Status WriteHash(SnapshotSink& sink, const Hash& h) {
  std::string& buf = sink.buf();
  const bool ttl = h.has_field_deadlines();
  coding::PutVarint64(&buf, h.size());
  Status s;
  h.ForEach([&](std::string_view f, std::string_view v) {
    coding::PutLengthPrefixed(&buf, f);
    coding::PutLengthPrefixed(&buf, v);
    if (ttl) coding::PutVarint64(&buf, static_cast<uint64_t>(h.FieldExpire(f) + 1));
    if (buf.size() >= kFlushBytes) s = sink.MaybeFlush();
  });
  return s;
}

// Member deadlines of a sorted set, as a kOpMemberExpiry item after it.
Status WriteMemberExpiry(SnapshotSink& sink, const SortedSet& z) {
  std::string& buf = sink.buf();
  buf.push_back(static_cast<char>(format::kOpMemberExpiry));
  coding::PutVarint64(&buf, z.MembersWithExpire());
  Status s;
  z.ForEachMemberExpire([&](std::string_view m, int64_t deadline) {
    coding::PutLengthPrefixed(&buf, m);
    coding::PutFixed64(&buf, static_cast<uint64_t>(deadline));
    if (s.ok() && buf.size() >= kFlushBytes) s = sink.MaybeFlush();
  });
  return s;
}

Status WriteList(SnapshotSink& sink, const QuickList& l) {
  std::string& buf = sink.buf();
  coding::PutVarint64(&buf, l.size());
  Status s;
  l.ForEach(0, l.size(), false, [&](std::string_view v) {
    coding::PutLengthPrefixed(&buf, v);
    if (buf.size() >= kFlushBytes) s = sink.MaybeFlush();
  });
  return s;
}

// Member metadata of a sorted set, as a kOpMemberMeta item after it.
Status WriteMemberMeta(SnapshotSink& sink, const SortedSet& z) {
  std::string& buf = sink.buf();
  buf.push_back(static_cast<char>(format::kOpMemberMeta));
  coding::PutVarint64(&buf, z.MembersWithMeta());
  Status s;
  z.ForEachMemberMeta([&](std::string_view m, std::string_view meta) {
    coding::PutLengthPrefixed(&buf, m);
    coding::PutLengthPrefixed(&buf, meta);
    if (s.ok() && buf.size() >= kFlushBytes) s = sink.MaybeFlush();
  });
  return s;
}

uint8_t EntryTypeOf(const Value& v) {
  switch (v.type()) {
    case ValueType::kString:
      return format::kTypeString;
    case ValueType::kZSet:
      return v.zset().board() ? format::kTypeBoard : format::kTypeZSet;
    case ValueType::kSet:
      return format::kTypeSet;
    case ValueType::kHash:
      return v.hash().has_field_deadlines() ? format::kTypeHashTtl : format::kTypeHash;
    case ValueType::kList:
      return format::kTypeList;
    case ValueType::kStream:
      return format::kTypeStream;
  }
  return format::kTypeString;
}

Status WriteEntry(SnapshotSink& sink, const Database::Entry& e, int64_t expire_ms) {
  std::string& buf = sink.buf();
  buf.push_back(static_cast<char>(format::kOpEntry));
  const uint8_t type = EntryTypeOf(e.value);
  const bool board = type == format::kTypeBoard;
  buf.push_back(static_cast<char>(type));
  buf.push_back(static_cast<char>(expire_ms >= 0 ? format::kFlagHasExpiry : 0));
  if (expire_ms >= 0) coding::PutFixed64(&buf, static_cast<uint64_t>(expire_ms));
  coding::PutLengthPrefixed(&buf, e.key());
  switch (e.value.type()) {
    case ValueType::kString:
      coding::PutLengthPrefixed(&buf, e.value.str());
      break;
    case ValueType::kZSet:
      if (Status s = board ? WriteBoard(sink, e.value.zset()) : WriteZSet(sink, e.value.zset());
          !s.ok()) {
        return s;
      }
      if (e.value.zset().periodic()) {
        buf.push_back(static_cast<char>(format::kOpPeriodic));
        coding::PutLengthPrefixed(&buf, EncodePeriodic(e.value.zset()));
      }
      if (e.value.zset().snapshot_every_ms() > 0) {
        buf.push_back(static_cast<char>(format::kOpBoardViews));
        coding::PutLengthPrefixed(&buf, EncodeBoardViews(e.value.zset()));
      }
      if (e.value.zset().MembersWithExpire() > 0) {
        if (Status s = WriteMemberExpiry(sink, e.value.zset()); !s.ok()) return s;
      }
      if (e.value.zset().MembersWithMeta() > 0) {
        if (Status s = WriteMemberMeta(sink, e.value.zset()); !s.ok()) return s;
      }
      break;
    case ValueType::kSet:
      if (Status s = WriteSet(sink, e.value.set()); !s.ok()) return s;
      break;
    case ValueType::kHash:
      if (Status s = WriteHash(sink, e.value.hash()); !s.ok()) return s;
      break;
    case ValueType::kList:
      if (Status s = WriteList(sink, e.value.list()); !s.ok()) return s;
      break;
    case ValueType::kStream: {
      std::string blob;
      rdb::WriteStream(&blob, e.value.stream(), false);
      coding::PutLengthPrefixed(&buf, blob);
      break;
    }
  }
  return sink.MaybeFlush();
}

Status WriteAll(WritableFile* file, std::span<Database* const> dbs, const SnapshotAux& aux,
                SnapshotWriteStats* stats) {
  SnapshotSink sink(file);
  std::string& buf = sink.buf();
  buf.append(format::kSnapshotMagic);
  coding::PutFixed32(&buf, format::kSnapshotVersion);
  PutAux(&buf, "rankd-ver", "0.1.0");
  PutAux(&buf, "ctime-ms", std::to_string(WallMs()));
  for (const auto& [key, value] : aux) PutAux(&buf, key, value);
  const int64_t now = WallMs();
  for (size_t i = 0; i < dbs.size(); i++) {
    Database& db = *dbs[i];
    if (db.size() == 0) continue;
    buf.push_back(static_cast<char>(format::kOpDb));
    coding::PutVarint64(&buf, i);
    coding::PutVarint64(&buf, db.size());
    Status s;
    db.ForEach([&](Database::Entry* e) {
      const int64_t expire_ms = db.ExpireMs(e);
      if (!s.ok() || (expire_ms >= 0 && expire_ms <= now)) return;
      s = WriteEntry(sink, *e, expire_ms);
      stats->keys++;
      KeySaved();
    });
    if (!s.ok()) return s;
  }
  buf.push_back(static_cast<char>(format::kOpEof));
  Status s = sink.Finish();
  stats->bytes = sink.bytes();
  return s;
}

// Collects the bytes in memory (a one-key snapshot, EncodeEntrySnapshot).
class StringFile : public WritableFile {
 public:
  explicit StringFile(std::string* out) : out_(out) {}
  Status Append(std::string_view data) override {
    out_->append(data);
    return Status::OK();
  }
  Status Sync() override { return Status::OK(); }
  Status Truncate(uint64_t size) override {
    out_->resize(size);
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }

 private:
  std::string* out_;
};

}  // namespace

bool HasRankdExtras(const Value& v) {
  if (v.type() == ValueType::kHash) return v.hash().has_field_deadlines();
  if (v.type() != ValueType::kZSet) return false;
  const SortedSet& z = v.zset();
  return z.board() || z.MembersWithExpire() > 0 || z.MembersWithMeta() > 0;
}

std::string EncodeEntrySnapshot(int db, const Database::Entry& e, int64_t expire_ms) {
  std::string out;
  StringFile file(&out);
  SnapshotSink sink(&file);
  std::string& buf = sink.buf();
  buf.append(format::kSnapshotMagic);
  coding::PutFixed32(&buf, format::kSnapshotVersion);
  buf.push_back(static_cast<char>(format::kOpDb));
  coding::PutVarint64(&buf, static_cast<uint64_t>(db));
  coding::PutVarint64(&buf, 1);
  Status s = WriteEntry(sink, e, expire_ms);  // memory: cannot fail
  buf.push_back(static_cast<char>(format::kOpEof));
  s = sink.Finish();
  return out;
}

Status WriteSnapshotStream(WritableFile* file, std::span<Database* const> dbs,
                           SnapshotWriteStats* stats, const SnapshotAux& aux) {
  *stats = SnapshotWriteStats{};
  return WriteAll(file, dbs, aux, stats);
}

Status WriteSnapshot(Env* env, const std::string& path, const std::string& tmp_path,
                     std::span<Database* const> dbs, SnapshotWriteStats* stats,
                     const SnapshotAux& aux) {
  *stats = SnapshotWriteStats{};
  return WriteFileVia(env, path, tmp_path,
                      [&](WritableFile* file) { return WriteAll(file, dbs, aux, stats); });
}

}  // namespace rankd
