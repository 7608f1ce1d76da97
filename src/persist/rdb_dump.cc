// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Reading a DUMP payload (persist/rdb_writer.h): the footer check of Redis
// verifyDumpPayload, then the RDB reader's value decoders.

#include <cassert>

#include "persist/coding.h"
#include "persist/rdb_internal.h"
#include "persist/rdb_reader.h"
#include "persist/rdb_writer.h"

namespace rankd {

bool DumpFooterOk(std::string_view payload) {
  if (payload.size() < 10) return false;
  const size_t footer = payload.size() - 10;
  const uint64_t version = rdb::LittleEndian(payload, footer, 2);
  if (version > kRestoreMaxRdbVersion) return false;
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
  if (!c.Byte(&type) || !rdb::ReadValue(type, c, opts, out, &empty)) return c.status();
  if (empty) return Status::Corruption("RDB: empty collection");
  return Status::OK();
}

}  // namespace rankd
