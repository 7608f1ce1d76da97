// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "commands/type_lookup.h"

#include <memory>

#include "base/clock.h"
#include "db/database.h"
#include "server/keys_common.h"

namespace rankd {
namespace {

template <ValueType kType>
Value* Typed(Database::Entry* e, bool* wrong_type) {
  *wrong_type = e && e->value.type() != kType;
  return e && !*wrong_type ? &e->value : nullptr;
}

}  // namespace

// A hash whose fields passed their deadline loses them before anyone
// looks (Redis 7.4: expired fields are never visible); it may go entirely.
Hash* LiveHash(CommandContext& ctx, Database::Entry* e) {
  if (!e->value.hash().has_field_deadlines()) return &e->value.hash();
  e = ctx.db().ExpireFields(e, WallMs());
  return e ? &e->value.hash() : nullptr;
}

Hash* FindHashRead(CommandContext& ctx, std::string_view key, bool* wrong_type) {
  Database::Entry* e = LookupRead(ctx, key);
  if (!Typed<ValueType::kHash>(e, wrong_type)) return nullptr;
  return LiveHash(ctx, e);
}

Hash* FindHashWrite(CommandContext& ctx, std::string_view key, bool* wrong_type) {
  Database::Entry* e = LookupWrite(ctx, key);
  if (!Typed<ValueType::kHash>(e, wrong_type)) return nullptr;
  return LiveHash(ctx, e);
}

Hash* HashForWrite(CommandContext& ctx, std::string_view key, bool* wrong_type) {
  Hash* h = FindHashWrite(ctx, key, wrong_type);
  if (h || *wrong_type) return h;
  return &ctx.db().Insert(key, Value(std::make_unique<Hash>()))->value.hash();
}

QuickList* FindListRead(CommandContext& ctx, std::string_view key, bool* wrong_type) {
  Value* v = Typed<ValueType::kList>(LookupRead(ctx, key), wrong_type);
  return v ? &v->list() : nullptr;
}

QuickList* FindListWrite(CommandContext& ctx, std::string_view key, bool* wrong_type) {
  Value* v = Typed<ValueType::kList>(LookupWrite(ctx, key), wrong_type);
  return v ? &v->list() : nullptr;
}

Stream* FindStreamRead(CommandContext& ctx, std::string_view key, bool* wrong_type) {
  Value* v = Typed<ValueType::kStream>(LookupRead(ctx, key), wrong_type);
  return v ? &v->stream() : nullptr;
}

Stream* FindStreamWrite(CommandContext& ctx, std::string_view key, bool* wrong_type) {
  Value* v = Typed<ValueType::kStream>(LookupWrite(ctx, key), wrong_type);
  return v ? &v->stream() : nullptr;
}

}  // namespace rankd
