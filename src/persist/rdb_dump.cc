// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Reading a DUMP payload (persist/rdb_writer.h): the footer check of Redis
// verifyDumpPayload, then the RDB reader's value decoders.

#include <atomic>
#include <cassert>

#include "persist/coding.h"
#include "persist/rdb_internal.h"
#include "persist/rdb_reader.h"
#include "persist/rdb_writer.h"

namespace rankd {

namespace rdb {

void AppendDumpFooter(std::string* out) {
  out->push_back(static_cast<char>(kDumpRdbVersion & 0xff));
  out->push_back(static_cast<char>(kDumpRdbVersion >> 8));
  coding::PutFixed64(out, Crc64Redis(0, *out));
}

bool ReadString(std::string_view data, size_t* pos, std::string* out) {
  if (*pos > data.size()) return false;
  Cursor c(data.substr(*pos));
  if (!c.String(out)) return false;
  *pos += c.pos();
  return true;
}

}  // namespace rdb

namespace {
std::atomic<bool> g_skip_dump_checksum{false};
}  // namespace

void SetSkipDumpChecksum(bool skip) { g_skip_dump_checksum.store(skip); }

bool DumpFooterOk(std::string_view payload, int max_version) {
  if (payload.size() < 10) return false;
  const size_t footer = payload.size() - 10;
  const uint64_t version = rdb::LittleEndian(payload, footer, 2);
  if (version > static_cast<uint64_t>(max_version)) return false;
  if (g_skip_dump_checksum.load(std::memory_order_relaxed)) return true;
  const uint64_t crc = coding::DecodeFixed64(payload.data() + footer + 2);
  return Crc64Redis(0, payload.substr(0, footer + 2)) == crc;
}

Status ReadDumpPayload(std::string_view payload, const SnapshotLoadOptions& opts, Value* out) {
  assert(payload.size() >= 10);
  // Redis reads the value from the whole payload, footer included: a value
  // cut short reads on into the footer bytes, as there.
  rdb::Cursor c(payload);
  uint8_t type;
  bool empty = false;
  if (!c.Byte(&type)) return c.status();
  // Not an RDB value type at all (Redis 7.0 knows 0-7 and 9-19; 7.2 adds
  // 20, 21): plain bad data, not a type rankd lacks.
  if (type == 8 || type > 21) return Status::Corruption("RDB: unknown value type");
  if (!rdb::ReadValue(type, c, opts, out, &empty)) return c.status();
  if (empty) {  // a file's loader skips these; a payload is refused
    c.set_encoding(rdb::EncodingName(type));
    c.Fail("empty collection");
    return c.status();
  }
  return Status::OK();
}

}  // namespace rankd
