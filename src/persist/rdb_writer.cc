// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// DUMP payloads in Redis's RDB encodings (persist/rdb_writer.h): lengths,
// strings, listpacks, intsets, and one writer per value type. Reading a
// payload back: rdb_dump.cc.

#include "persist/rdb_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "base/lzf.h"
#include "base/numbers.h"
#include "persist/coding.h"
#include "persist/rdb_reader.h"

namespace rankd::rdb {
namespace {

// RDB value types written (Redis rdb.h).
enum : uint8_t {
  kTypeString = 0,
  kTypeSet = 2,
  kTypeHash = 4,
  kTypeZSet2 = 5,
  kTypeSetIntset = 11,
  kTypeHashListpack = 16,
  kTypeZSetListpack = 17,
  kTypeListQuicklist2 = 18,
};

// Redis 7.0 quicklist.c: the byte limits of a negative fill (-1..-5), and
// the size no node passes under a positive fill (SIZE_SAFETY_LIMIT).
constexpr size_t kNodeByteLimits[] = {4096, 8192, 16384, 32768, 65536};
constexpr size_t kNodeSafetyLimit = 8192;
// What Redis adds to an element's length to estimate its listpack entry
// (SIZE_ESTIMATE_OVERHEAD), whatever the element encodes to.
constexpr size_t kEntryOverheadEstimate = 8;

// Whether redis-server 7.0.15's _quicklistNodeAllowInsert lets a node of
// `bytes` (its listpack's size) and `count` entries take an element of
// `len` bytes (checked side by side: a node closes before its estimate
// passes the limit). `fill` is clamped to -5..32767 as quicklistSetFill.
bool NodeTakes(size_t bytes, size_t count, size_t len, int64_t fill) {
  fill = std::clamp<int64_t>(fill, -5, 32767);
  const size_t new_bytes = bytes + len + kEntryOverheadEstimate;
  if (fill < 0) return new_bytes <= kNodeByteLimits[-fill - 1];
  if (new_bytes > kNodeSafetyLimit) return false;
  return static_cast<int64_t>(count) + 1 <= std::max<int64_t>(fill, 1);
}

void PutLE(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++) out->push_back(static_cast<char>(v >> (8 * i)));
}

// Redis lpEncodeBacklen: the entry's length, 7 bits a byte, readable from
// its last byte backwards.
void PutBacklen(std::string* out, uint64_t l) {
  int n = l <= 127 ? 1 : l < 16383 ? 2 : l < 2097151 ? 3 : l < 268435455 ? 4 : 5;
  for (int i = n - 1; i >= 0; i--) {
    const uint8_t b = static_cast<uint8_t>((l >> (7 * i)) & 127);
    out->push_back(static_cast<char>(i == n - 1 ? b : b | 128));
  }
}

// Redis d2string, which zzlInsertAt stores a listpack score as.
std::string ScoreText(double d) {
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  if (d == 0) return std::signbit(d) ? "-0" : "0";
  if (d > -4503599627370495.0 && d < 4503599627370496.0 && d == std::trunc(d)) {
    return std::to_string(static_cast<int64_t>(d));
  }
  char buf[32];
  const int n = std::snprintf(buf, sizeof(buf), "%.17g", d);
  return std::string(buf, n);
}

// Lets a file writer take what a long value wrote so far (DumpOptions::spill).
void MaybeSpill(std::string* out, const DumpOptions& opts) {
  if (opts.spill && out->size() >= DumpOptions::kSpillBytes) (*opts.spill)(out);
}

void PutListpack(std::string* out, ListpackBuilder& lp, bool lzf) {
  PutString(out, lp.Finish(), lzf);
}

// Nodes as Redis 7.0 fills them when the list is pushed at its tail.
void WriteList(std::string* out, const QuickList& l, const DumpOptions& opts) {
  std::vector<std::string> nodes;
  ListpackBuilder lp;
  l.ForEach(0, l.size(), false, [&](std::string_view v) {
    if (lp.count() > 0 && !NodeTakes(lp.bytes(), lp.count(), v.size(), opts.list_fill)) {
      nodes.push_back(lp.Finish());
    }
    lp.Append(v);
  });
  if (lp.count() > 0) nodes.push_back(lp.Finish());
  out->push_back(static_cast<char>(kTypeListQuicklist2));
  PutLength(out, nodes.size());
  for (const std::string& node : nodes) {
    PutLength(out, 2);  // container: packed (a listpack)
    PutString(out, node, opts.compress);
    MaybeSpill(out, opts);
  }
}

void WriteSet(std::string* out, const PlainSet& s, const DumpOptions& opts) {
  const bool lzf = opts.compress;
  std::vector<int64_t> ints;
  bool all_ints = s.is_intset();
  if (all_ints) {
    s.ForEach([&](std::string_view m) {
      int64_t v;
      if (ParseInt64(m, &v)) ints.push_back(v);
      else all_ints = false;
    });
  }
  if (!all_ints) {
    out->push_back(static_cast<char>(kTypeSet));
    PutLength(out, s.size());
    s.ForEach([&](std::string_view m) {
      PutString(out, m, lzf);
      MaybeSpill(out, opts);
    });
    return;
  }
  std::sort(ints.begin(), ints.end());
  int width = 2;
  for (int64_t v : ints) {
    if (v < INT32_MIN || v > INT32_MAX) width = 8;
    else if ((v < INT16_MIN || v > INT16_MAX) && width < 4) width = 4;
  }
  std::string blob;  // Redis intset: encoding, length, ascending values
  PutLE(&blob, width, 4);
  PutLE(&blob, ints.size(), 4);
  for (int64_t v : ints) PutLE(&blob, static_cast<uint64_t>(v), width);
  out->push_back(static_cast<char>(kTypeSetIntset));
  PutString(out, blob, lzf);
}

void WriteZSet(std::string* out, const SortedSet& z, const DumpOptions& opts) {
  const bool lzf = opts.compress;
  const bool compact = z.encoding() == SortedSet::Encoding::kCompact && !z.board();
  if (compact) {
    ListpackBuilder lp;
    z.ForEachInRankRange(0, z.size() - 1, false, [&](std::string_view m, double score) {
      lp.Append(m);
      lp.AppendScore(score);
    });
    out->push_back(static_cast<char>(kTypeZSetListpack));
    PutListpack(out, lp, lzf);
    return;
  }
  // ZSET_2, greatest first as Redis writes it (its loader then always
  // inserts at the skiplist's head). A board lists by its own direction:
  // any order loads the same set. An empty board (LB.CREATE) has no ranks.
  out->push_back(static_cast<char>(kTypeZSet2));
  PutLength(out, z.size());
  if (z.empty()) return;
  z.ForEachInRankRange(0, z.size() - 1, true, [&](std::string_view m, double score) {
    PutString(out, m, lzf);
    coding::PutDouble(out, score);
    MaybeSpill(out, opts);
  });
}

void WriteHash(std::string* out, const Hash& h, const DumpOptions& opts) {
  const bool lzf = opts.compress;
  if (h.is_listpack()) {
    ListpackBuilder lp;
    h.ForEach([&](std::string_view f, std::string_view v) {
      lp.Append(f);
      lp.Append(v);
    });
    out->push_back(static_cast<char>(kTypeHashListpack));
    PutListpack(out, lp, lzf);
    return;
  }
  out->push_back(static_cast<char>(kTypeHash));
  PutLength(out, h.size());
  h.ForEach([&](std::string_view f, std::string_view v) {
    PutString(out, f, lzf);
    PutString(out, v, lzf);
    MaybeSpill(out, opts);
  });
}

}  // namespace

void PutLength(std::string* out, uint64_t len) {
  if (len < 64) {
    out->push_back(static_cast<char>(len));
  } else if (len < 16384) {
    out->push_back(static_cast<char>(0x40 | (len >> 8)));
    out->push_back(static_cast<char>(len & 0xff));
  } else {
    const int n = len <= UINT32_MAX ? 4 : 8;
    out->push_back(static_cast<char>(n == 4 ? 0x80 : 0x81));
    for (int i = n - 1; i >= 0; i--) out->push_back(static_cast<char>(len >> (8 * i)));
  }
}

void PutString(std::string* out, std::string_view s, bool lzf) {
  int64_t v;
  if (s.size() <= 11 && ParseInt64(s, &v) && v >= INT32_MIN && v <= INT32_MAX) {
    const int n = v >= INT8_MIN && v <= INT8_MAX ? 1 : v >= INT16_MIN && v <= INT16_MAX ? 2 : 4;
    out->push_back(static_cast<char>(0xC0 | (n == 1 ? 0 : n == 2 ? 1 : 2)));
    PutLE(out, static_cast<uint64_t>(v), n);
    return;
  }
  // Redis rdbSaveLzfStringObject: worth it only above 20 bytes and when it
  // saves at least 4.
  if (lzf && s.size() > 20) {
    std::string packed(s.size() - 4, '\0');
    const size_t n = LzfCompress(s, packed.data(), packed.size());
    if (n > 0) {
      out->push_back(static_cast<char>(0xC3));
      PutLength(out, n);
      PutLength(out, s.size());
      out->append(packed.data(), n);
      return;
    }
  }
  PutLength(out, s.size());
  out->append(s);
}

void ListpackBuilder::Append(std::string_view s) {
  const size_t start = buf_.size();
  int64_t v;
  if (ParseInt64(s, &v)) {
    const uint64_t u = static_cast<uint64_t>(v);
    if (v >= 0 && v <= 127) {
      buf_.push_back(static_cast<char>(v));
    } else if (v >= -4096 && v <= 4095) {
      const uint64_t t = v < 0 ? (1 << 13) + v : v;
      buf_.push_back(static_cast<char>(0xC0 | (t >> 8)));
      buf_.push_back(static_cast<char>(t & 0xff));
    } else {
      const int n = v >= INT16_MIN && v <= INT16_MAX       ? 2
                    : v >= -8388608 && v <= 8388607        ? 3
                    : v >= INT32_MIN && v <= INT32_MAX     ? 4
                                                           : 8;
      buf_.push_back(static_cast<char>(n == 2 ? 0xF1 : n == 3 ? 0xF2 : n == 4 ? 0xF3 : 0xF4));
      PutLE(&buf_, u, n);
    }
  } else if (s.size() < 64) {
    buf_.push_back(static_cast<char>(0x80 | s.size()));
    buf_.append(s);
  } else if (s.size() < 4096) {
    buf_.push_back(static_cast<char>(0xE0 | (s.size() >> 8)));
    buf_.push_back(static_cast<char>(s.size() & 0xff));
    buf_.append(s);
  } else {
    buf_.push_back(static_cast<char>(0xF0));
    PutLE(&buf_, s.size(), 4);
    buf_.append(s);
  }
  PutBacklen(&buf_, buf_.size() - start);
  count_++;
}

void ListpackBuilder::AppendScore(double score) { Append(ScoreText(score)); }

std::string ListpackBuilder::Finish() {
  buf_.push_back(static_cast<char>(0xFF));
  std::string lp = std::move(buf_);
  const uint32_t total = static_cast<uint32_t>(lp.size());
  const uint16_t n = count_ < 65535 ? static_cast<uint16_t>(count_) : 65535;  // 65535: unknown
  for (int i = 0; i < 4; i++) lp[i] = static_cast<char>(total >> (8 * i));
  lp[4] = static_cast<char>(n & 0xff);
  lp[5] = static_cast<char>(n >> 8);
  buf_.assign(6, '\0');
  count_ = 0;
  return lp;
}

}  // namespace rankd::rdb

namespace rankd {

namespace rdb {

void PutValue(std::string* out, const Value& v, const DumpOptions& opts) {
  switch (v.type()) {
    case ValueType::kString:
      out->push_back(static_cast<char>(kTypeString));
      PutString(out, v.str(), opts.compress);
      break;
    case ValueType::kList: WriteList(out, v.list(), opts); break;
    case ValueType::kSet: WriteSet(out, v.set(), opts); break;
    case ValueType::kZSet: WriteZSet(out, v.zset(), opts); break;
    case ValueType::kHash: WriteHash(out, v.hash(), opts); break;
    case ValueType::kStream: WriteStream(out, v.stream(), opts.compress); break;
  }
}

}  // namespace rdb

std::string DumpPayload(const Value& v, const DumpOptions& opts) {
  std::string out;
  rdb::PutValue(&out, v, opts);
  rdb::AppendDumpFooter(&out);
  return out;
}

}  // namespace rankd
