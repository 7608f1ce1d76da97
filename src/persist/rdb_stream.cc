// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Streams in Redis's RDB format. Written as type 19 (STREAM_LISTPACKS_2,
// what Redis 7.0 writes); read as 15 (5.0: no first id, max deleted id,
// entries added or entries read), 19, and 21 (7.2: consumers also carry an
// active time, skipped here).
//
//   nodes     len, then per node: string (16-byte big-endian master id),
//             string (listpack)
//   meta      len length, len last.ms, len last.seq,
//             [19+] len first.ms/seq, len max_deleted.ms/seq, len entries_added
//   groups    len, then per group: string name, len last.ms, len last.seq,
//             [19+] len entries_read (uint64 of -1 when unknown),
//             PEL: len, per entry 16-byte id, 8-byte LE delivery ms, len count,
//             consumers: len, per consumer string name, 8-byte LE seen ms,
//             [21] 8-byte LE active ms, PEL: len, per entry 16-byte id
//
// A node's listpack (Redis t_stream.c): a master entry
//   count, deleted, #master-fields, master fields..., 0
// then per entry
//   flags (1 deleted, 2 same fields as master), ms - master.ms,
//   seq - master.seq, [#fields, field, value ... | values ...], lp-count
// where lp-count is the entry's element count before it.
//
// The reader checks all of this (ids increase, counts agree, the PELs name
// each other) and fails with Corruption on any disagreement, so a hostile
// payload never reaches the stream.

#include <cstring>
#include <memory>
#include <set>
#include <vector>

#include "core/stream.h"
#include "persist/rdb_internal.h"
#include "persist/rdb_writer.h"

namespace rankd::rdb {
namespace {

constexpr uint8_t kFlagDeleted = 1, kFlagSameFields = 2;

void PutId(std::string* out, StreamId id) {
  for (int i = 7; i >= 0; i--) out->push_back(static_cast<char>(id.ms >> (8 * i)));
  for (int i = 7; i >= 0; i--) out->push_back(static_cast<char>(id.seq >> (8 * i)));
}

StreamId GetId(std::string_view b) {
  StreamId id;
  for (int i = 0; i < 8; i++) id.ms = (id.ms << 8) | static_cast<uint8_t>(b[i]);
  for (int i = 8; i < 16; i++) id.seq = (id.seq << 8) | static_cast<uint8_t>(b[i]);
  return id;
}

void PutMs(std::string* out, int64_t ms) {
  for (int i = 0; i < 8; i++) out->push_back(static_cast<char>(static_cast<uint64_t>(ms) >> (8 * i)));
}

void PutInt(ListpackBuilder& lp, int64_t v) { lp.Append(std::to_string(v)); }

}  // namespace

void WriteStream(std::string* out, const Stream& s, bool lzf) {
  out->push_back(static_cast<char>(19));
  PutLength(out, s.node_count());
  ListpackBuilder lp;
  StreamId master;
  std::vector<std::string> master_fields;
  bool open = false;
  auto flush = [&] {
    if (!open) return;
    std::string key;
    PutId(&key, master);
    PutString(out, key, false);
    PutString(out, lp.Finish(), lzf);
    open = false;
  };
  s.ForEachRaw(
      [&](StreamId m, uint32_t live, uint32_t deleted) {
        flush();
        master = m;
        open = true;
        master_fields.clear();
        PutInt(lp, live);
        PutInt(lp, deleted);
      },
      [&](StreamId id, bool del, const Stream::Fields& f) {
        if (id == master) {  // the master entry takes the first entry's fields
          PutInt(lp, static_cast<int64_t>(f.size() / 2));
          for (size_t i = 0; i < f.size(); i += 2) {
            master_fields.emplace_back(f[i]);
            lp.Append(f[i]);
          }
          PutInt(lp, 0);
        }
        bool same = f.size() / 2 == master_fields.size();
        for (size_t i = 0; same && i < f.size(); i += 2) same = f[i] == master_fields[i / 2];
        PutInt(lp, (del ? kFlagDeleted : 0) | (same ? kFlagSameFields : 0));
        PutInt(lp, static_cast<int64_t>(id.ms - master.ms));
        PutInt(lp, static_cast<int64_t>(id.seq - master.seq));
        const size_t n = f.size() / 2;
        if (same) {
          for (size_t i = 1; i < f.size(); i += 2) lp.Append(f[i]);
        } else {
          PutInt(lp, static_cast<int64_t>(n));
          for (std::string_view x : f) lp.Append(x);
        }
        PutInt(lp, static_cast<int64_t>(same ? n + 3 : 2 * n + 4));
      });
  flush();
  PutLength(out, s.size());
  PutLength(out, s.last_id().ms);
  PutLength(out, s.last_id().seq);
  PutLength(out, s.first_id().ms);
  PutLength(out, s.first_id().seq);
  PutLength(out, s.max_deleted_id().ms);
  PutLength(out, s.max_deleted_id().seq);
  PutLength(out, s.entries_added());
  PutLength(out, s.groups().size());
  for (const auto& [name, g] : s.groups()) {
    PutString(out, name, lzf);
    PutLength(out, g.last_id.ms);
    PutLength(out, g.last_id.seq);
    PutLength(out, static_cast<uint64_t>(g.entries_read));
    PutLength(out, g.pel.size());
    for (const auto& [id, p] : g.pel) {
      PutId(out, id);
      PutMs(out, p.delivery_time_ms);
      PutLength(out, p.delivery_count);
    }
    PutLength(out, g.consumers.size());
    for (const auto& [cname, c] : g.consumers) {
      PutString(out, cname, lzf);
      PutMs(out, c.seen_time_ms);
      PutLength(out, c.pending.size());
      for (StreamId id : c.pending) PutId(out, id);
    }
  }
}

namespace {

bool ToInt(const std::string& s, Cursor& c, int64_t* v) {
  if (s.empty() || s.size() > 20) return c.Fail("bad stream listpack integer");
  char* end;
  *v = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0') return c.Fail("bad stream listpack integer");
  return true;
}

// Reads one node's listpack into `s`, live entries appended.
bool ReadNode(std::string_view key, std::string_view lp, Cursor& c, Stream* s, StreamId* prev,
              bool* any) {
  if (key.size() != 16) return c.Fail("stream node key is not a stream id");
  std::vector<std::string> e;
  if (!ParseListpack(lp, c, &e)) return false;
  const StreamId master = GetId(key);
  size_t p = 0;
  auto next = [&](int64_t* v) { return p < e.size() ? ToInt(e[p++], c, v) : c.Fail("short stream node"); };
  int64_t live, deleted, nmaster, zero;
  if (!next(&live) || !next(&deleted) || !next(&nmaster)) return false;
  if (live < 0 || deleted < 0 || live + deleted == 0 || nmaster <= 0 ||
      static_cast<size_t>(nmaster) > e.size()) {
    return c.Fail("bad stream master entry");
  }
  std::vector<std::string> mfields(e.begin() + p, e.begin() + p + nmaster);
  p += nmaster;
  if (!next(&zero) || zero != 0) return c.Fail("bad stream master entry");
  int64_t seen_live = 0, seen_deleted = 0;
  Stream::Fields f;
  std::vector<std::string> owned;
  while (p < e.size()) {
    int64_t flags, dms, dseq, n;
    if (!next(&flags) || !next(&dms) || !next(&dseq)) return false;
    const StreamId id{master.ms + static_cast<uint64_t>(dms), master.seq + static_cast<uint64_t>(dseq)};
    if (flags & ~(kFlagDeleted | kFlagSameFields)) return c.Fail("bad stream entry flags");
    if ((*any && id <= *prev) || id < master) return c.Fail("stream ids out of order");
    *prev = id;
    *any = true;
    owned.clear();
    if (flags & kFlagSameFields) {
      n = nmaster;
      if (p + n > e.size()) return c.Fail("short stream node");
      for (int64_t i = 0; i < n; i++) {
        owned.push_back(mfields[i]);
        owned.push_back(e[p++]);
      }
    } else {
      if (!next(&n) || n <= 0 || static_cast<size_t>(2 * n) > e.size() - p) {
        return c.Fail("bad stream entry field count");
      }
      for (int64_t i = 0; i < 2 * n; i++) owned.push_back(e[p++]);
    }
    int64_t lp_count;
    if (!next(&lp_count) || lp_count != ((flags & kFlagSameFields) ? n + 3 : 2 * n + 4)) {
      return c.Fail("bad stream entry lp-count");
    }
    if (flags & kFlagDeleted) {
      seen_deleted++;
      continue;
    }
    seen_live++;
    if (id <= s->last_id()) return c.Fail("stream ids out of order");
    f.assign(owned.begin(), owned.end());
    s->Append(id, f, StreamNodeLimits{});
  }
  if (seen_live != live || seen_deleted != deleted) return c.Fail("stream node counts disagree");
  return true;
}

bool ReadMs(Cursor& c, int64_t* ms) {
  std::string_view b;
  if (!c.Bytes(8, &b)) return false;
  *ms = static_cast<int64_t>(LittleEndian(b, 0, 8));
  return true;
}

bool ReadGroups(uint8_t type, Cursor& c, Stream* s) {
  uint64_t ngroups;
  if (!c.Length(&ngroups)) return false;
  for (uint64_t gi = 0; gi < ngroups; gi++) {
    std::string name;
    uint64_t ms, seq, entries_read = static_cast<uint64_t>(-1), npel, ncons;
    if (!c.String(&name) || !c.Length(&ms) || !c.Length(&seq)) return false;
    if (type >= 19 && !c.Length(&entries_read)) return false;
    if (s->groups().contains(name)) return c.Fail("duplicate consumer group");
    StreamGroup& g = s->groups()[name];
    g.last_id = {ms, seq};
    g.entries_read = static_cast<int64_t>(entries_read);
    if (type < 19) g.entries_read = s->EstimateEntriesRead(g.last_id);
    if (!c.Length(&npel)) return false;
    if (npel > c.data().size()) return c.Fail("PEL size past end of data");
    for (uint64_t i = 0; i < npel; i++) {
      std::string_view idb;
      StreamPending p;
      uint64_t count;
      if (!c.Bytes(16, &idb) || !ReadMs(c, &p.delivery_time_ms) || !c.Length(&count)) return false;
      p.delivery_count = count;
      if (!g.pel.emplace(GetId(idb), p).second) return c.Fail("duplicate PEL entry");
    }
    if (!c.Length(&ncons)) return false;
    for (uint64_t i = 0; i < ncons; i++) {
      std::string cname;
      int64_t seen, active;
      uint64_t n;
      if (!c.String(&cname) || !ReadMs(c, &seen)) return false;
      if (type >= 21 && !ReadMs(c, &active)) return false;
      if (g.consumers.contains(cname)) return c.Fail("Duplicate stream consumer detected");
      bool created;
      StreamConsumer* con = g.GetOrCreateConsumer(cname, seen, &created);
      if (!c.Length(&n)) return false;
      for (uint64_t k = 0; k < n; k++) {
        std::string_view idb;
        if (!c.Bytes(16, &idb)) return false;
        auto it = g.pel.find(GetId(idb));
        if (it == g.pel.end() || it->second.consumer) return c.Fail("consumer PEL entry not in group PEL");
        it->second.consumer = con;
        con->pending.insert(it->first);
      }
    }
    for (const auto& [id, p] : g.pel) {
      if (!p.consumer) return c.Fail("PEL entry without consumer");
    }
  }
  return true;
}

}  // namespace

bool ReadStream(uint8_t type, Cursor& c, Value* out) {
  auto s = std::make_unique<Stream>();
  uint64_t nodes;
  if (!c.Length(&nodes)) return false;
  if (nodes > c.data().size()) return c.Fail("stream node count past end of data");
  StreamId prev;
  bool any = false;
  for (uint64_t i = 0; i < nodes; i++) {
    std::string key, lp;
    if (!c.String(&key) || !c.String(&lp)) return false;
    if (!ReadNode(key, lp, c, s.get(), &prev, &any)) return false;
  }
  uint64_t length, v[7] = {0, 0, 0, 0, 0, 0, 0};
  if (!c.Length(&length) || !c.Length(&v[0]) || !c.Length(&v[1])) return false;
  if (type >= 19) {
    for (int i = 2; i < 7; i++) {
      if (!c.Length(&v[i])) return false;
    }
  }
  if (length != s->size()) return c.Fail("stream length disagrees with its entries");
  const StreamId last{v[0], v[1]};
  if (any && prev > last) return c.Fail("stream last id below its entries");
  s->set_last_id(last);
  if (type >= 19) {
    s->set_first_id({v[2], v[3]});
    s->set_max_deleted_id({v[4], v[5]});
    s->set_entries_added(v[6]);
  } else {
    s->set_entries_added(s->size());
  }
  if (!ReadGroups(type, c, s.get())) return false;
  *out = Value(std::move(s));
  return true;
}

Status ReadStreamBlob(std::string_view blob, Value* out) {
  Cursor c(blob);
  uint8_t t;
  if (!c.Byte(&t)) return Status::Corruption("empty stream value");
  if (t != 15 && t != 19 && t != 21) return Status::Corruption("bad stream value type");
  if (!ReadStream(t, c, out)) return Status::Corruption("bad stream: " + c.status().message());
  return Status::OK();
}

}  // namespace rankd::rdb
