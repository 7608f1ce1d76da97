// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Redis RDB values (persist/rdb_reader.h): each encoding is read into a
// flat list of elements (listpack, ziplist, intset, plain), then built into
// rankd's value of the same type (a hash and a sorted set alternate
// field/value and member/score).

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "core/hash.h"
#include "core/plain_set.h"
#include "core/quick_list.h"
#include "core/sorted_set.h"
#include "persist/coding.h"
#include "persist/rdb_internal.h"

namespace rankd::rdb {

namespace {

using Elems = std::vector<std::string>;

int64_t SignExtend(uint64_t u, size_t bytes) {
  const int shift = 64 - static_cast<int>(bytes) * 8;
  return shift ? static_cast<int64_t>(u << shift) >> shift : static_cast<int64_t>(u);
}

}  // namespace

// Listpack: 4-byte total, 2-byte count, entries (encoding, data, backlen), 0xFF.
// Header, count and terminator are checked as Redis's lpValidateIntegrity.
bool ParseListpack(std::string_view lp, Cursor& c, Elems* out) {
  if (lp.size() < 7 || LittleEndian(lp, 0, 4) != lp.size()) return c.Fail("bad listpack header");
  const size_t count = LittleEndian(lp, 4, 2), first = out->size();
  size_t p = 6;
  for (;;) {
    if (p >= lp.size()) return c.Fail("listpack without terminator");
    const uint8_t b = static_cast<uint8_t>(lp[p]);
    if (b == 0xFF) {
      if (p != lp.size() - 1) return c.Fail("listpack terminator before its end");
      if (count != 0xFFFF && out->size() - first != count) return c.Fail("listpack count mismatch");
      return true;
    }
    size_t hdr = 1, len = 0;
    bool is_int = true;
    int64_t v = 0;
    auto need = [&](size_t n) { return p + n <= lp.size(); };
    if ((b & 0x80) == 0) {
      v = b & 0x7f;
    } else if ((b & 0xC0) == 0x80) {
      is_int = false, len = b & 0x3f;
    } else if ((b & 0xE0) == 0xC0 || (b & 0xF0) == 0xE0) {
      if (!need(2)) return c.Fail("truncated listpack entry");
      const uint64_t high = b & ((b & 0xE0) == 0xC0 ? 0x1f : 0x0f);
      const uint64_t u = (high << 8) | static_cast<uint8_t>(lp[p + 1]);
      hdr = 2;
      if ((b & 0xE0) == 0xC0) {
        v = u >= 4096 ? static_cast<int64_t>(u) - 8192 : static_cast<int64_t>(u);
      } else {
        is_int = false, len = u;
      }
    } else if (b == 0xF0) {
      if (!need(5)) return c.Fail("truncated listpack entry");
      is_int = false, hdr = 5, len = LittleEndian(lp, p + 1, 4);
    } else if (b >= 0xF1 && b <= 0xF4) {
      const size_t n = b == 0xF1 ? 2 : b == 0xF2 ? 3 : b == 0xF3 ? 4 : 8;
      if (!need(1 + n)) return c.Fail("truncated listpack entry");
      v = SignExtend(LittleEndian(lp, p + 1, n), n);
      hdr = 1 + n;
    } else {
      return c.Fail("bad listpack encoding byte");
    }
    // The back length: the entry's size in 7-bit groups, most significant
    // first, every byte but the first flagged 0x80 (read right to left).
    const size_t entry = hdr + len;
    const size_t backlen = entry <= 127 ? 1 : entry < 16383 ? 2 : entry < 2097151 ? 3
                                                              : entry < 268435455 ? 4 : 5;
    if (len > lp.size() || !need(entry + backlen)) return c.Fail("listpack entry past its end");
    for (size_t i = 0; i < backlen; i++) {
      const uint8_t want = static_cast<uint8_t>(((entry >> (7 * (backlen - 1 - i))) & 0x7f) |
                                                (i > 0 ? 0x80 : 0));
      if (static_cast<uint8_t>(lp[p + entry + i]) != want) {
        return c.Fail("bad listpack back length");
      }
    }
    out->push_back(is_int ? std::to_string(v) : std::string(lp.substr(p + hdr, len)));
    p += entry + backlen;
  }
}

namespace {

// Ziplist: zlbytes, zltail, zllen, entries (prevlen, encoding, data), 0xFF.
// Header, count, terminator and each entry's prevlen are checked as Redis's
// ziplistValidateIntegrity (deep).
bool ParseZiplist(std::string_view zl, Cursor& c, Elems* out) {
  if (zl.size() < 11 || LittleEndian(zl, 0, 4) != zl.size() || LittleEndian(zl, 4, 4) >= zl.size()) {
    return c.Fail("bad ziplist header");
  }
  const size_t count = LittleEndian(zl, 8, 2), first = out->size();
  size_t p = 10, prev_size = 0, last = 10;
  for (;;) {
    if (p >= zl.size()) return c.Fail("ziplist without terminator");
    if (static_cast<uint8_t>(zl[p]) == 0xFF) {
      if (p != zl.size() - 1) return c.Fail("ziplist terminator before its end");
      if (count != 0xFFFF && out->size() - first != count) return c.Fail("ziplist count mismatch");
      if (LittleEndian(zl, 4, 4) != last) return c.Fail("ziplist tail offset is not its last entry");
      return true;
    }
    const size_t entry_start = last = p;
    size_t prevlen = static_cast<uint8_t>(zl[p]);
    if (prevlen == 254) {
      if (p + 5 > zl.size()) return c.Fail("truncated ziplist entry");
      prevlen = LittleEndian(zl, p + 1, 4);
    }
    if (prevlen != prev_size) return c.Fail("ziplist prevlen mismatch");
    p += static_cast<uint8_t>(zl[p]) < 254 ? 1 : 5;
    if (p >= zl.size()) return c.Fail("truncated ziplist entry");
    const uint8_t enc = static_cast<uint8_t>(zl[p]);
    size_t hdr = 1, len = 0, n = 0;
    bool is_int = false;
    switch (enc >> 6) {
      case 0: len = enc & 0x3f; break;
      case 1:
        if (p + 2 > zl.size()) return c.Fail("truncated ziplist entry");
        hdr = 2, len = ((enc & 0x3f) << 8) | static_cast<uint8_t>(zl[p + 1]);
        break;
      case 2:
        if (p + 5 > zl.size()) return c.Fail("truncated ziplist entry");
        hdr = 5;
        for (int i = 1; i <= 4; i++) len = (len << 8) | static_cast<uint8_t>(zl[p + i]);
        break;
      default:
        is_int = true;
        n = enc == 0xC0   ? 2
            : enc == 0xD0 ? 4
            : enc == 0xE0 ? 8
            : enc == 0xF0 ? 3
            : enc == 0xFE ? 1
                          : 0;  // 0xF1-0xFD: the value is in the encoding byte
        if (n == 0 && (enc < 0xF1 || enc > 0xFD)) return c.Fail("bad ziplist encoding byte");
    }
    if (len > zl.size() || p + hdr + len + n > zl.size()) {
      return c.Fail("ziplist entry past its end");
    }
    if (!is_int) {
      out->push_back(std::string(zl.substr(p + hdr, len)));
    } else if (n == 0) {
      out->push_back(std::to_string((enc & 0x0f) - 1));
    } else {
      out->push_back(std::to_string(SignExtend(LittleEndian(zl, p + 1, n), n)));
    }
    p += hdr + len + n;
    prev_size = p - entry_start;
  }
}

// Zipmap (Redis before 2.6 hashes): zmlen (1), then per pair: key length,
// key, value length, free (1), value, `free` unused bytes; 0xFF. A length
// is one byte below 254, or 254 and a 4-byte little-endian length.
bool ParseZipmap(std::string_view zm, Cursor& c, Elems* out) {
  size_t p = 1;
  auto length = [&](size_t* len) {
    if (p >= zm.size()) return c.Fail("truncated zipmap entry");
    const uint8_t b = static_cast<uint8_t>(zm[p]);
    if (b == 0xFF) return c.Fail("zipmap entry expected");
    if (b < 254) {
      *len = b;
      p += 1;
    } else {
      if (p + 5 > zm.size()) return c.Fail("truncated zipmap entry");
      *len = LittleEndian(zm, p + 1, 4);
      p += 5;
    }
    return true;
  };
  for (;;) {
    if (p >= zm.size()) return c.Fail("zipmap without terminator");
    if (static_cast<uint8_t>(zm[p]) == 0xFF) {
      if (p != zm.size() - 1) return c.Fail("zipmap terminator before its end");
      return true;
    }
    size_t klen, vlen;
    if (!length(&klen)) return false;
    if (klen > zm.size() - p) return c.Fail("zipmap entry past its end");
    out->push_back(std::string(zm.substr(p, klen)));
    p += klen;
    if (!length(&vlen)) return false;
    if (p >= zm.size()) return c.Fail("truncated zipmap entry");
    const size_t free = static_cast<uint8_t>(zm[p++]);
    if (vlen > zm.size() - p || free > zm.size() - p - vlen) {
      return c.Fail("zipmap entry past its end");
    }
    out->push_back(std::string(zm.substr(p, vlen)));
    p += vlen + free;
  }
}

bool ParseIntset(std::string_view is, Cursor& c, Elems* out) {
  if (is.size() < 8) return c.Fail("truncated intset");
  const size_t width = LittleEndian(is, 0, 4), n = LittleEndian(is, 4, 4);
  if ((width != 2 && width != 4 && width != 8) || 8 + n * width != is.size()) {
    return c.Fail("bad intset header");
  }
  for (size_t i = 0; i < n; i++) {
    out->push_back(std::to_string(SignExtend(LittleEndian(is, 8 + i * width, width), width)));
  }
  return true;
}

// `per` strings per element, `n` elements.
bool ReadPlain(Cursor& c, int per, Elems* out) {
  uint64_t n;
  if (!c.Length(&n)) return false;
  if (n > c.data().size()) return c.Fail("element count past end of data");
  out->resize(n * per);
  for (std::string& s : *out) {
    if (!c.String(&s)) return false;
  }
  return true;
}

bool ReadBlob(Cursor& c, bool (*parse)(std::string_view, Cursor&, Elems*), Elems* out) {
  std::string blob;
  return c.String(&blob) && parse(blob, c, out);
}

// Quicklist (14: ziplist nodes; 18: container 1 plain / 2 listpack nodes).
bool ReadQuicklist(Cursor& c, bool v2, Elems* out) {
  uint64_t nodes, container = 2;
  if (!c.Length(&nodes)) return false;
  for (uint64_t i = 0; i < nodes; i++) {
    std::string blob;
    if (v2 && !c.Length(&container)) return false;
    if (!c.String(&blob)) return false;
    if (blob.empty()) {
      return c.Fail("empty quicklist node");
    } else if (container == 1) {
      out->push_back(std::move(blob));
    } else if (container != 2) {
      return c.Fail("bad quicklist container");
    } else if (!(v2 ? ParseListpack : ParseZiplist)(blob, c, out)) {
      return false;
    }
  }
  return true;
}

bool ParseScore(const std::string& s, Cursor& c, double* out) {
  char* end = nullptr;
  *out = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || std::isnan(*out)) return c.Fail("bad score");
  return true;
}

const char* UnsupportedName(uint8_t type) {
  switch (type) {
    case 6: case 7: return "module";
    case 9: return "zipmap hash";
    default: return "unknown";
  }
}

bool ReadOneValue(uint8_t type, Cursor& c, const SnapshotLoadOptions& opts, Value* out,
                  bool* empty);

}  // namespace

// A sorted set written member by member (types 3 and 5, Redis's skiplist
// encoding: the big ones) goes straight into its SortedSet, never through
// a vector of strings: at 10^8 members that vector alone would be 7 GB.
bool ReadScoredSet(uint8_t type, Cursor& c, const SnapshotLoadOptions& opts, Value* out,
                   bool* empty) {
  uint64_t n;
  if (!c.Length(&n)) return false;
  if (n > c.data().size()) return c.Fail("element count past end of data");
  auto z = std::make_unique<SortedSet>(opts.zset_limits, n);
  std::string member;
  std::string_view bits;
  for (uint64_t i = 0; i < n; i++) {
    double score;
    if (!c.String(&member)) return false;
    if (type == 3 ? !c.OldDouble(&score) : !c.Bytes(8, &bits)) return false;
    if (type == 5) std::memcpy(&score, bits.data(), 8);  // little-endian hosts
    if (std::isnan(score)) return c.Fail("NaN score");
    if (z->Add(member, score, AddOptions{}, opts.zset_limits).kind != AddResult::Kind::kAdded) {
      return c.Fail("duplicate sorted set member");
    }
  }
  *empty = n == 0;
  *out = Value(std::move(z));
  return true;
}

bool ReadValue(uint8_t type, Cursor& c, const SnapshotLoadOptions& opts, Value* out, bool* empty) {
  c.set_encoding(EncodingName(type));
  const bool ok = ReadOneValue(type, c, opts, out, empty);
  c.set_encoding(nullptr);
  return ok;
}

// The name Redis's load errors give a value type's encoding.
const char* EncodingName(uint8_t type) {
  switch (type) {
    case 9: return "Zipmap";
    case 10: case 14: return "Ziplist";
    case 11: return "Intset";
    case 12: return "Zset ziplist";
    case 13: return "Hash ziplist";
    case 16: return "Hash listpack";
    case 17: return "Zset listpack";
    case 18: return "Quicklist listpack";
    case 20: return "Set listpack";
    case 15: case 19: case 21: return "Stream listpack";
    default: return nullptr;
  }
}

namespace {

bool ReadOneValue(uint8_t type, Cursor& c, const SnapshotLoadOptions& opts, Value* out,
                  bool* empty) {
  Elems e;
  std::vector<double> scores;
  bool ok;
  switch (type) {
    case 0: {
      std::string s;
      if (!c.String(&s)) return false;
      *out = Value(std::move(s));
      return true;
    }
    case 1: case 2: ok = ReadPlain(c, 1, &e); break;
    case 4: ok = ReadPlain(c, 2, &e); break;
    case 10: case 12: case 13: ok = ReadBlob(c, ParseZiplist, &e); break;
    case 9: ok = ReadBlob(c, ParseZipmap, &e); break;
    case 11: ok = ReadBlob(c, ParseIntset, &e); break;
    case 16: case 17: case 20: ok = ReadBlob(c, ParseListpack, &e); break;
    case 14: case 18: ok = ReadQuicklist(c, type == 18, &e); break;
    case 15: case 19: case 21:
      *empty = false;  // an empty stream is a value (its groups, its last id)
      return ReadStream(type, c, out);
    case 3: case 5: return ReadScoredSet(type, c, opts, out, empty);
    default:
      return c.Unsupported("value type " + std::to_string(type) + " (" + UnsupportedName(type) +
                           ")");
  }
  if (!ok) return false;
  *empty = e.empty();
  if (type == 1 || type == 10 || type == 14 || type == 18) {
    auto list = std::make_unique<QuickList>(opts.list_limits.compress_depth);
    for (const std::string& v : e) list->PushBack(v, opts.list_limits);
    *out = Value(std::move(list));
  } else if (type == 2 || type == 11 || type == 20) {
    auto set = std::make_unique<PlainSet>();
    for (const std::string& m : e) {
      if (!set->Add(m, opts.set_limits)) return c.Fail("duplicate set member");
    }
    *out = Value(std::move(set));
  } else if (type == 4 || type == 9 || type == 13 || type == 16) {
    if (e.size() % 2) return c.Fail("odd hash element count");
    auto h = std::make_unique<Hash>();
    for (size_t i = 0; i < e.size(); i += 2) {
      if (!h->Set(e[i], e[i + 1], opts.hash_limits)) {
        return c.Fail(type == 4 ? "duplicate hash field" : "listpack with dup elements");
      }
    }
    *out = Value(std::move(h));
  } else {  // sorted sets: 3 / 5 with scores, 12 / 17 alternating
    if (scores.empty()) {
      if (e.size() % 2) return c.Fail("odd sorted set element count");
      for (size_t i = 0; i < e.size(); i += 2) {
        double d;
        if (!ParseScore(e[i + 1], c, &d)) return false;
        if (i) e[i / 2] = std::move(e[i]);
        scores.push_back(d);
      }
      e.resize(scores.size());
    }
    *empty = e.empty();
    auto z = std::make_unique<SortedSet>(opts.zset_limits, e.size());
    for (size_t i = 0; i < e.size(); i++) {
      if (z->Add(e[i], scores[i], AddOptions{}, opts.zset_limits).kind != AddResult::Kind::kAdded) {
        return c.Fail("duplicate sorted set member");
      }
    }
    *out = Value(std::move(z));
  }
  return true;
}

}  // namespace

}  // namespace rankd::rdb
