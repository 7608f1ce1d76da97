// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Redis RDB reader: the cursor (length and string encodings, LZF), CRC64,
// and the top level (opcodes, keys, expiry). Values: rdb_values.cc.

#include "persist/rdb_reader.h"

#include <array>
#include <cstring>

#include "base/clock.h"
#include "base/logging.h"
#include "base/lzf.h"
#include "persist/coding.h"
#include "persist/key_delay.h"
#include "persist/rdb_file.h"
#include "persist/rdb_internal.h"

namespace rankd {
namespace rdb {

bool Cursor::Fail(std::string what) {
  if (status_.ok()) {
    if (encoding_) what = std::string(encoding_) + " integrity check failed: " + what;
    status_ = Status::Corruption("RDB: " + what + " at offset " + std::to_string(pos_));
  }
  return false;
}

bool Cursor::Unsupported(std::string what) {
  if (status_.ok()) status_ = Status::InvalidArgument("RDB: " + what + " is not supported");
  return false;
}

bool Cursor::Bytes(size_t n, std::string_view* out) {
  if (!status_.ok()) return false;
  if (n > data_.size() - pos_) return Fail("unexpected end of data");
  *out = data_.substr(pos_, n);
  pos_ += n;
  if (pos_ >= next_tick_) {
    next_tick_ = pos_ + tick_every_;
    (*tick_)(pos_);
  }
  return true;
}

bool Cursor::Byte(uint8_t* b) {
  std::string_view s;
  if (!Bytes(1, &s)) return false;
  *b = static_cast<uint8_t>(s[0]);
  return true;
}

bool Cursor::Length(uint64_t* len, bool* special) {
  uint8_t b0, b1;
  std::string_view s;
  if (special) *special = false;
  if (!Byte(&b0)) return false;
  switch (b0 >> 6) {
    case 0:
      *len = b0 & 0x3f;
      return true;
    case 1:
      if (!Byte(&b1)) return false;
      *len = (static_cast<uint64_t>(b0 & 0x3f) << 8) | b1;
      return true;
    case 2: {
      const size_t n = b0 == 0x80 ? 4 : b0 == 0x81 ? 8 : 0;
      if (n == 0) return Fail("bad length encoding");
      if (!Bytes(n, &s)) return false;
      uint64_t v = 0;
      for (char c : s) v = (v << 8) | static_cast<uint8_t>(c);  // big-endian
      *len = v;
      return true;
    }
    default:
      if (!special) return Fail("encoded string where a length was expected");
      *special = true;
      *len = b0 & 0x3f;
      return true;
  }
}

bool Cursor::String(std::string* out) {
  bool special;
  uint64_t len;
  std::string_view s;
  if (!Length(&len, &special)) return false;
  if (!special) {
    if (!Bytes(len, &s)) return false;
    out->assign(s);
    return true;
  }
  if (len <= 2) {  // int8 / int16 / int32, little-endian
    const size_t n = size_t{1} << len;
    if (!Bytes(n, &s)) return false;
    const uint64_t u = LittleEndian(s, 0, n);
    const int64_t v = n == 1 ? static_cast<int8_t>(u)
                      : n == 2 ? static_cast<int16_t>(u)
                               : static_cast<int32_t>(u);
    *out = std::to_string(v);
    return true;
  }
  if (len != 3) return Fail("unknown string encoding " + std::to_string(len));
  uint64_t clen, ulen;
  if (!Length(&clen) || !Length(&ulen) || !Bytes(clen, &s)) return false;
  if (ulen > LzfMaxDecompressedSize(clen)) return Fail("LZF string longer than its data allows");
  out->resize(ulen);
  if (!LzfDecompress(s, out->data(), ulen)) return Fail("bad LZF data");
  return true;
}

bool Cursor::OldDouble(double* out) {
  uint8_t n;
  std::string_view s;
  if (!Byte(&n)) return false;
  if (n >= 253) {
    *out = n == 253 ? std::nan("") : n == 254 ? HUGE_VAL : -HUGE_VAL;
    return true;
  }
  if (!Bytes(n, &s)) return false;
  std::string text(s);
  char* end = nullptr;
  *out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() || Fail("bad double");
}

}  // namespace rdb

namespace {

// Slice-by-8 tables (as Redis's crcspeed): t[0] is the bytewise table of the
// reflected Jones polynomial, t[k][b] the CRC of b followed by k zero bytes.
using Crc64Tables = std::array<std::array<uint64_t, 256>, 8>;

Crc64Tables MakeCrc64Tables() {
  uint64_t poly = 0, jones = 0xad93d23594c935a9ULL;
  for (int i = 0; i < 64; i++) poly |= ((jones >> i) & 1) << (63 - i);  // reflected
  Crc64Tables t{};
  for (uint64_t b = 0; b < 256; b++) {
    uint64_t c = b;
    for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ poly : c >> 1;
    t[0][b] = c;
  }
  for (int k = 1; k < 8; k++) {
    for (int b = 0; b < 256; b++) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xff];
  }
  return t;
}

}  // namespace

uint64_t Crc64Redis(uint64_t crc, std::string_view data) {
  static const Crc64Tables t = MakeCrc64Tables();
  const char* p = data.data();
  size_t n = data.size();
  for (; n >= 8; p += 8, n -= 8) {
    crc ^= coding::DecodeFixed64(p);
    crc = t[7][crc & 0xff] ^ t[6][(crc >> 8) & 0xff] ^ t[5][(crc >> 16) & 0xff] ^
          t[4][(crc >> 24) & 0xff] ^ t[3][(crc >> 32) & 0xff] ^ t[2][(crc >> 40) & 0xff] ^
          t[1][(crc >> 48) & 0xff] ^ t[0][crc >> 56];
  }
  for (; n > 0; p++, n--) crc = t[0][(crc ^ static_cast<uint8_t>(*p)) & 0xff] ^ (crc >> 8);
  return crc;
}

namespace {

// A "rankd-entry" field (persist/rdb_file.h): the key just read, whole,
// loaded over its plain value. A key the blob's own deadlines drop (its
// members expired meanwhile) counts as expired.
Status LoadRankdEntry(std::string_view blob, const std::function<Database*(int)>& db_for,
                      const SnapshotLoadOptions& opts, SnapshotLoadStats* stats) {
  SnapshotLoadOptions one;
  one.zset_limits = opts.zset_limits;
  one.set_limits = opts.set_limits;
  one.hash_limits = opts.hash_limits;
  one.list_limits = opts.list_limits;
  one.now_ms = opts.now_ms;
  one.replace_existing = true;
  size_t before = 0;
  for (int i = 0; Database* db = db_for(i); i++) before += db->size();
  SnapshotLoadStats got;
  Status s = LoadSnapshotBytes(blob, "RDB: rankd-entry field", db_for, one, &got);
  if (!s.ok()) return s;
  size_t after = 0;
  for (int i = 0; Database* db = db_for(i); i++) after += db->size();
  if (after < before && stats->keys_loaded > 0) {
    stats->keys_loaded--;
    stats->keys_expired++;
  }
  return Status::OK();
}

}  // namespace

bool IsRedisRdb(std::string_view data) { return data.substr(0, 5) == "REDIS"; }

Status LoadRedisRdb(std::string_view data, const std::function<Database*(int)>& db_for,
                    const SnapshotLoadOptions& opts, SnapshotLoadStats* stats) {
  if (data.size() < 9 || !IsRedisRdb(data)) return Status::Corruption("RDB: bad magic");
  int version = 0;
  for (char ch : data.substr(5, 4)) {
    if (ch < '0' || ch > '9') return Status::Corruption("RDB: bad version");
    version = version * 10 + (ch - '0');
  }
  if (version < 1 || version > 11) {
    return Status::InvalidArgument("RDB version " + std::to_string(version) + " is not supported");
  }
  rdb::Cursor c(data);
  // Progress inside long loads (one huge key too): looked at every 2 MB
  // read, reported at most once a second.
  int64_t last_report_ms = MonoMs();
  const std::function<void(size_t)> tick = [&](size_t pos) {
    if (MonoMs() - last_report_ms < 1000) return;
    last_report_ms = MonoMs();
    opts.progress(pos, data.size(), stats->keys_loaded);
  };
  if (opts.progress) c.set_tick(size_t{2} << 20, &tick);
  std::string_view s;
  (void)c.Bytes(9, &s);
  Database* db = db_for(0);
  int64_t expire_ms = -1;
  uint64_t a, b;
  uint8_t type;
  std::string key, val;
  while (c.Byte(&type)) {
    switch (type) {
      case 0xFD:  // EXPIRETIME: seconds, 4 bytes little-endian
        if (!c.Bytes(4, &s)) break;
        expire_ms = static_cast<int64_t>(coding::DecodeFixed32(s.data())) * 1000;
        continue;
      case 0xFC:  // EXPIRETIME_MS
        if (!c.Bytes(8, &s)) break;
        expire_ms = static_cast<int64_t>(coding::DecodeFixed64(s.data()));
        continue;
      case 0xF8:  // IDLE: LRU idle seconds, not kept
        (void)c.Length(&a);
        continue;
      case 0xF9:  // FREQ: the LFU counter, not kept
        (void)c.Byte(&type);
        continue;
      case 0xFE:  // SELECTDB
        if (!c.Length(&a)) break;
        db = a < (1u << 20) ? db_for(static_cast<int>(a)) : nullptr;
        if (!db) c.Fail("database " + std::to_string(a) + " out of range");
        continue;
      case 0xFB:  // RESIZEDB: size hints
        (void)(c.Length(&a) && c.Length(&b));
        continue;
      case 0xFA:  // AUX
        if (!c.String(&key) || !c.String(&val)) break;
        if (key == kRankdEntryAux) {
          if (Status st = LoadRankdEntry(val, db_for, opts, stats); !st.ok()) return st;
          continue;
        }
        if (opts.on_aux) {
          Status st = opts.on_aux(key, val);
          if (!st.ok()) return st;
        }
        continue;
      case 0xF5:  // FUNCTION2: a library's source code
        if (!c.String(&val)) break;
        if (!opts.on_function) {
          return Status::InvalidArgument("RDB: function libraries are not supported here");
        }
        if (Status st = opts.on_function(val); !st.ok()) return st;
        continue;
      case 0xF6:
        return Status::InvalidArgument("RDB: Redis 7.0 release-candidate functions are not "
                                       "supported");
      case 0xF7:
        return Status::InvalidArgument("RDB: module auxiliary data is not supported");
      case 0xFF: {  // EOF, then the CRC64 of everything before it (0: not computed)
        const size_t end = c.pos();
        if (version >= 5) {
          if (!c.Bytes(8, &s)) return c.status();
          const uint64_t want = coding::DecodeFixed64(s.data());
          if (want != 0 && Crc64Redis(0, data.substr(0, end)) != want) {
            return Status::Corruption("RDB: checksum mismatch (RDB CRC error)");
          }
        }
        if (opts.progress) opts.progress(c.pos(), data.size(), stats->keys_loaded);
        return Status::OK();
      }
      default: {
        if (!c.String(&key)) break;
        Value value;
        bool empty = false;
        if (!rdb::ReadValue(type, c, opts, &value, &empty)) {
          if (c.status().code() == Status::Code::kInvalidArgument) {
            return Status::InvalidArgument(c.status().message() + " (key '" + key + "')");
          }
          return c.status();
        }
        if (opts.replace_existing) db->DeleteSync(key);  // DEBUG RELOAD ... MERGE
        if (empty) {  // Redis 7.0 skips these (and says so) rather than refusing the file
          LOG_NOTICE("RDB load: skipping empty key: %s", key.c_str());
          stats->keys_empty++;
        } else if (expire_ms >= 0 && expire_ms <= opts.now_ms) {
          stats->keys_expired++;
        } else if (db->Peek(key) || db->IsExpiredButPresent(key)) {
          c.Fail("duplicate key '" + key + "'");
        } else {
          stats->keys_loaded++;
          if (opts.key_delay != 0) {
            KeyDelay(opts.key_delay);
            if (opts.progress) tick(c.pos());  // a held-open load still reports
          }
          Database::Entry* e = db->Insert(key, std::move(value));
          if (expire_ms >= 0) db->SetExpire(e, expire_ms);
        }
        expire_ms = -1;
        continue;
      }
    }
    if (!c.status().ok()) return c.status();
  }
  return c.status().ok() ? Status::Corruption("RDB: no EOF marker") : c.status();
}

}  // namespace rankd
