// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Snapshot loading: a streaming parser over a refillable buffer. The CRC is
// extended over bytes as they are consumed and compared with the trailer.

#include <algorithm>
#include <cmath>

#include "base/clock.h"
#include "persist/coding.h"
#include "persist/crc32c.h"
#include "persist/format.h"
#include "persist/key_delay.h"
#include "persist/periodic_codec.h"
#include "persist/rdb_internal.h"
#include "persist/snapshot.h"
#include "persist/snapshot_source.h"

namespace rankd {
namespace {
using snapshot_internal::MemFile;
using snapshot_internal::Source;

// Parses one snapshot; with `db_for` null it only verifies.
class Loader {
 public:
  Loader(Source* src, const std::function<Database*(int)>* db_for,
         const SnapshotLoadOptions* opts, SnapshotLoadStats* stats)
      : src_(*src), db_for_(db_for), opts_(opts), stats_(stats) {}

  Status Run(uint64_t total) {
    std::string_view magic;
    uint32_t version;
    if (!src_.Bytes(format::kSnapshotMagic.size(), &magic) || magic != format::kSnapshotMagic) {
      return src_.Corrupt("not a rankd snapshot (bad magic)");
    }
    if (!src_.Fixed32(&version)) return src_.status();
    if (version == 0 || version > format::kSnapshotVersion) {
      return src_.Corrupt("unsupported snapshot version " + std::to_string(version));
    }
    total_ = total;
    last_progress_ = MonoMs();
    for (;;) {
      uint8_t op;
      if (!src_.Byte(&op)) return src_.status();
      if (op == format::kOpEof) break;
      if (op == format::kOpAux) {
        std::string_view k, v;
        if (!src_.String(&k)) return src_.status();
        std::string key(k);  // reading the value may move the buffer
        if (!src_.String(&v)) return src_.status();
        if (db_for_ && opts_->on_aux) {
          Status s = opts_->on_aux(key, v);
          if (!s.ok()) return s;
        }
      } else if (op == format::kOpDb) {
        uint64_t index, keys;
        if (!src_.Varint(&index) || !src_.Varint(&keys)) return src_.status();
        if (index > INT32_MAX) return src_.Corrupt("bad database index");
        if (db_for_) {
          db_ = (*db_for_)(static_cast<int>(index));
          if (!db_) return src_.Corrupt("database index " + std::to_string(index) + " out of range");
        }
        have_db_ = true;
      } else if (op == format::kOpEntry) {
        if (!have_db_) return src_.Corrupt("key before any database section");
        if (Status s = Entry(); !s.ok()) return s;
        MaybeProgress();
        continue;  // keeps prev_zset_ for a kOpMemberExpiry that follows
      } else if (op == format::kOpPeriodic || op == format::kOpBoardViews) {
        if (Status s = Periodic(op); !s.ok()) return s;
        continue;  // kOpMemberExpiry / kOpMemberMeta may follow
      } else if (op == format::kOpMemberExpiry) {
        if (Status s = MemberExpiry(); !s.ok()) return s;
        MaybeProgress();
        continue;  // kOpMemberMeta may follow
      } else if (op == format::kOpMemberMeta) {
        if (Status s = MemberMeta(); !s.ok()) return s;
      } else {
        return src_.Corrupt("unknown opcode " + std::to_string(op));
      }
      prev_zset_ = false;
      prev_entry_ = nullptr;
      MaybeProgress();
    }
    uint32_t computed = src_.ConsumedCrc(), stored;
    if (!src_.Fixed32(&stored)) return src_.status();
    if (crc32c::Unmask(stored) != computed) return src_.Corrupt("checksum mismatch");
    if (src_.offset() != total) return src_.Corrupt("trailing bytes after the checksum");
    stats_->bytes = total;
    if (opts_ && opts_->progress) opts_->progress(total, total, steps_);
    return Status::OK();
  }

 private:
  // Reports progress about once a second (checked every 4096 steps, so a
  // single huge sorted set reports too; every step while key-load-delay
  // holds the load open, each key then taking a while).
  void MaybeProgress() {
    if (!opts_ || !opts_->progress) return;
    if ((++steps_ & 4095) != 0 && opts_->key_delay == 0) return;
    if (MonoMs() - last_progress_ < 1000) return;
    last_progress_ = MonoMs();
    opts_->progress(src_.offset(), total_, steps_);
  }

  // Member deadlines (format::kOpMemberExpiry) of the sorted set just read:
  // members already due are dropped (the key too if none is left).
  Status MemberExpiry() {
    if (!prev_zset_) return src_.Corrupt("member deadlines without a sorted set");
    uint64_t n;
    if (!src_.Varint(&n)) return src_.status();
    if (n == 0) return src_.Corrupt("empty member deadlines");
    if (n > src_.remaining()) return src_.Corrupt("element count past end of file");
    SortedSet* z = prev_entry_ ? &prev_entry_->value.zset() : nullptr;
    for (uint64_t i = 0; i < n; i++) {
      std::string_view m;
      uint64_t deadline;
      if (!src_.String(&m)) return src_.status();
      std::string copy;
      if (!src_.Buffered(8)) m = copy.assign(m);
      if (!src_.Fixed64(&deadline)) return src_.status();
      if (!z) continue;
      if (!z->Score(m)) return src_.Corrupt("deadline of a missing member");
      if (static_cast<int64_t>(deadline) <= opts_->now_ms) {
        z->Remove(m);
      } else {
        z->SetMemberExpire(m, static_cast<int64_t>(deadline));
      }
    }
    if (prev_entry_) {
      if (z->empty() && !z->periodic()) {
        db_->Delete(std::string(prev_entry_->key()));
        prev_entry_ = nullptr;  // metadata that follows has nothing to go to
        stats_->keys_loaded--;
        stats_->keys_expired++;
      } else {
        db_->SyncMemberExpire(prev_entry_);
      }
    }
    return Status::OK();
  }

  // The periods (format::kOpPeriodic) or view schedule (kOpBoardViews) of
  // the board just read.
  Status Periodic(uint8_t op) {
    std::string_view blob;
    if (!prev_zset_) return src_.Corrupt("periods without a leaderboard");
    if (!src_.String(&blob)) return src_.status();
    SortedSet* z = prev_entry_ ? &prev_entry_->value.zset() : nullptr;
    std::string e = op == format::kOpBoardViews ? DecodeBoardViews(blob, z) : "";
    if (!e.empty() || op == format::kOpBoardViews) return e.empty() ? Status::OK() : src_.Corrupt(e);
    if (z && (!z->board() || z->periodic())) return src_.Corrupt("periods of a plain set");
    if (std::string e = DecodePeriodic(blob, z); !e.empty()) return src_.Corrupt(e);
    return Status::OK();
  }

  // Member metadata (format::kOpMemberMeta) of the sorted set just read.
  Status MemberMeta() {
    if (!prev_zset_) return src_.Corrupt("member metadata without a sorted set");
    uint64_t n;
    if (!src_.Varint(&n)) return src_.status();
    if (n == 0) return src_.Corrupt("empty member metadata");
    if (n > src_.remaining()) return src_.Corrupt("element count past end of file");
    SortedSet* z = prev_entry_ ? &prev_entry_->value.zset() : nullptr;
    for (uint64_t i = 0; i < n; i++) {
      std::string_view m, meta;
      if (!src_.String(&m)) return src_.status();
      std::string copy(m);  // reading the bytes may move the buffer
      if (!src_.String(&meta)) return src_.status();
      if (!z || !z->Score(copy)) continue;  // dropped by expiry on load
      z->SetMemberMeta(copy, meta);
    }
    return Status::OK();
  }

  Status Entry() {
    prev_entry_ = nullptr;
    uint8_t type, flags;
    uint64_t expire = 0;
    std::string_view key_view;
    if (!src_.Byte(&type) || !src_.Byte(&flags)) return src_.status();
    if (flags & ~format::kFlagHasExpiry) return src_.Corrupt("bad entry flags");
    if ((flags & format::kFlagHasExpiry) && !src_.Fixed64(&expire)) return src_.status();
    if (!src_.String(&key_view)) return src_.status();
    std::string key(key_view);
    const int64_t expire_ms = (flags & format::kFlagHasExpiry) ? static_cast<int64_t>(expire) : -1;
    Value value;
    Status s = ReadValue(type, &value);
    if (!s.ok()) return s;
    prev_zset_ = type == format::kTypeZSet || type == format::kTypeBoard;
    // The file's key replaces the one in memory (DEBUG RELOAD ... MERGE, and
    // a "rankd-entry" RDB field over the plain value just read), even when it
    // turns out expired or emptied: as the RDB reader does.
    if (db_ && opts_ && opts_->replace_existing) db_->DeleteSync(key);
    const bool emptied = db_ && value.type() == ValueType::kHash && value.hash().empty();
    if (emptied || (expire_ms >= 0 && opts_ && expire_ms <= opts_->now_ms)) {
      stats_->keys_expired++;
      return Status::OK();
    }
    stats_->keys_loaded++;
    if (opts_) KeyDelay(opts_->key_delay);
    if (!db_) return Status::OK();
    if (db_->Peek(key) || db_->IsExpiredButPresent(key)) return src_.Corrupt("duplicate key");
    Database::Entry* e = db_->Insert(key, std::move(value));
    if (expire_ms >= 0) db_->SetExpire(e, expire_ms);
    if (prev_zset_) prev_entry_ = e;
    return Status::OK();
  }

  Status ReadValue(uint8_t type, Value* out) {
    const bool build = db_ != nullptr;
    if (type == format::kTypeString || type == format::kTypeStream) {  // stream: format.h
      std::string_view s;
      if (!src_.String(&s)) return src_.status();
      if (build && type == format::kTypeStream) return rdb::ReadStreamBlob(s, out);
      if (build) *out = Value::Str(s);
      return Status::OK();
    }
    if (type == format::kTypeBoard) return ReadBoard(out);
    uint64_t n;
    if (!src_.Varint(&n)) return src_.status();
    if (n == 0) return src_.Corrupt("empty collection");
    if (n > src_.remaining()) return src_.Corrupt("element count past end of file");
    if (type == format::kTypeZSet) {
      uint64_t max_len;
      if (!src_.Varint(&max_len)) return src_.status();
      std::unique_ptr<SortedSet> z;
      if (build) z = std::make_unique<SortedSet>(opts_->zset_limits, n, max_len);
      for (uint64_t i = 0; i < n; i++) {
        std::string_view m, score_bytes;
        if (!src_.String(&m)) return src_.status();
        // Reading the score may refill the buffer and move the member's
        // bytes: copy them only in that (rare) case.
        std::string copy;
        if (!src_.Buffered(8)) m = copy.assign(m);
        if (!src_.Bytes(8, &score_bytes)) return src_.status();
        double score;
        (void)coding::GetDouble(&score_bytes, &score);
        if (std::isnan(score)) return src_.Corrupt("NaN score");
        if (build && z->Add(m, score, AddOptions{}, opts_->zset_limits).kind !=
                         AddResult::Kind::kAdded) {
          return src_.Corrupt("duplicate sorted set member");
        }
        MaybeProgress();
      }
      if (build) *out = Value(std::move(z));
      return Status::OK();
    }
    if (type == format::kTypeSet) {
      std::unique_ptr<PlainSet> set;
      if (build) set = std::make_unique<PlainSet>();
      for (uint64_t i = 0; i < n; i++) {
        std::string_view m;
        if (!src_.String(&m)) return src_.status();
        if (build && !set->Add(m, opts_->set_limits)) return src_.Corrupt("duplicate set member");
        MaybeProgress();
      }
      if (build) *out = Value(std::move(set));
      return Status::OK();
    }
    if (type == format::kTypeHash || type == format::kTypeHashTtl) {
      return ReadHash(n, type == format::kTypeHashTtl, out);
    }
    if (type == format::kTypeList) {
      std::unique_ptr<QuickList> list;
      if (build) list = std::make_unique<QuickList>(opts_->list_limits.compress_depth);
      for (uint64_t i = 0; i < n; i++) {
        std::string_view v;
        if (!src_.String(&v)) return src_.status();
        if (build) list->PushBack(v, opts_->list_limits);
        MaybeProgress();
      }
      if (build) *out = Value(std::move(list));
      return Status::OK();
    }
    return src_.Corrupt("unknown value type " + std::to_string(type));
  }

  // A hash of `n` pairs; with `ttl`, each pair has a deadline (+1, 0 none).
  // Fields already past their deadline are dropped; a hash left empty is a
  // key already gone (stats count it as expired).
  Status ReadHash(uint64_t n, bool ttl, Value* out) {
    const bool build = db_ != nullptr;
    std::unique_ptr<Hash> h;
    if (build) h = std::make_unique<Hash>();
    for (uint64_t i = 0; i < n; i++) {
      std::string_view f, v;
      if (!src_.String(&f)) return src_.status();
      std::string field(f);  // the next read may move the buffer
      if (!src_.String(&v)) return src_.status();
      uint64_t deadline = 0;
      std::string value(v);
      if (ttl && !src_.Varint(&deadline)) return src_.status();
      if (build) {
        if (!h->Set(field, value, opts_->hash_limits)) {
          return src_.Corrupt("duplicate hash field");
        }
        const int64_t ms = static_cast<int64_t>(deadline) - 1;
        if (ms >= 0 && ms <= opts_->now_ms) {
          h->Delete(field);
        } else if (ms >= 0) {
          h->SetFieldExpire(field, ms);
        }
      }
      MaybeProgress();
    }
    if (build) *out = Value(std::move(h));
    return Status::OK();
  }

  // A leaderboard (format::kTypeBoard): members come with their stamps.
  Status ReadBoard(Value* out) {
    const bool build = db_ != nullptr;
    uint8_t order, ties;
    uint64_t next_seq, n, max_len;
    if (!src_.Byte(&order) || !src_.Byte(&ties)) return src_.status();
    if (order > 1 || ties > 1) return src_.Corrupt("bad leaderboard policy");
    if (!src_.Varint(&next_seq) || !src_.Varint(&n) || !src_.Varint(&max_len)) {
      return src_.status();
    }
    if (n > src_.remaining()) return src_.Corrupt("element count past end of file");
    std::unique_ptr<SortedSet> z;
    if (build) {
      z = SortedSet::NewBoard({static_cast<BoardOrder>(order), static_cast<BoardTies>(ties)}, n);
    }
    for (uint64_t i = 0; i < n; i++) {
      std::string_view m, score_bytes;
      if (!src_.String(&m)) return src_.status();
      std::string copy;
      if (!src_.Buffered(8 + 10 + 8)) m = copy.assign(m);  // the reads below may move it
      uint64_t seq, ms;
      if (!src_.Bytes(8, &score_bytes)) return src_.status();
      if (!src_.Varint(&seq) || !src_.Fixed64(&ms)) return src_.status();
      double score;
      (void)coding::GetDouble(&score_bytes, &score);
      if (std::isnan(score)) return src_.Corrupt("NaN score");
      if (seq == 0 || seq >= next_seq) return src_.Corrupt("leaderboard sequence out of range");
      if (build) {
        if (z->Score(m)) return src_.Corrupt("duplicate sorted set member");
        z->BoardPut(m, score, {seq, static_cast<int64_t>(ms)});
      }
      MaybeProgress();
    }
    if (build) {
      z->BoardRaiseNextSeq(next_seq);
      *out = Value(std::move(z));
    }
    return Status::OK();
  }

  Source& src_;
  const std::function<Database*(int)>* db_for_;
  const SnapshotLoadOptions* opts_;
  SnapshotLoadStats* stats_;
  Database* db_ = nullptr;
  bool have_db_ = false;
  // The item just read was a sorted set (its kOpMemberExpiry may follow);
  // its entry when it was loaded into db_.
  bool prev_zset_ = false;
  Database::Entry* prev_entry_ = nullptr;
  uint64_t total_ = 0;
  uint64_t steps_ = 0;
  int64_t last_progress_ = 0;
};

Status Load(Env* env, const std::string& path, const std::function<Database*(int)>* db_for,
            const SnapshotLoadOptions* opts, SnapshotLoadStats* stats) {
  *stats = SnapshotLoadStats{};
  uint64_t size;
  Status s = env->GetFileSize(path, &size);
  if (!s.ok()) return s;
  std::unique_ptr<SequentialFile> file;
  s = env->NewSequentialFile(path, &file);
  if (!s.ok()) return s;
  Source src(file.get(), size, path);
  return Loader(&src, db_for, opts, stats).Run(size);
}

}  // namespace

Status LoadSnapshotBytes(std::string_view data, const std::string& name,
                         const std::function<Database*(int index)>& db_for,
                         const SnapshotLoadOptions& options, SnapshotLoadStats* stats) {
  *stats = SnapshotLoadStats{};
  MemFile file(data);
  Source src(&file, data.size(), name);
  return Loader(&src, &db_for, &options, stats).Run(data.size());
}

Status LoadSnapshot(Env* env, const std::string& path,
                    const std::function<Database*(int index)>& db_for,
                    const SnapshotLoadOptions& options, SnapshotLoadStats* stats) {
  return Load(env, path, &db_for, &options, stats);
}

Status VerifySnapshot(Env* env, const std::string& path, SnapshotLoadStats* stats) {
  return Load(env, path, nullptr, nullptr, stats);
}

}  // namespace rankd
