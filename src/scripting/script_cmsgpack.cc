// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The `cmsgpack` library (script_libs.h): MessagePack as Redis 7.0's Lua
// writes and reads it. Lua raises errors with longjmp: the encoder never
// raises while it holds a std::string, and the decoder reports problems
// through its cursor, raising only once it has unwound.

#include "scripting/script_libs.h"

extern "C" {
#include <lauxlib.h>
}

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "scripting/script_readonly.h"

namespace rankd {
namespace {

constexpr int kMaxNesting = 16;  // deeper tables are packed as nil

// ---- encoding -----------------------------------------------------------
//
// The encoder writes into a std::string and never raises (the stack it
// needs is reserved up front), so no destructor is skipped.

void PutBigEndian(std::string* out, uint8_t tag, uint64_t v, int bytes) {
  out->push_back(static_cast<char>(tag));
  for (int i = bytes - 1; i >= 0; i--) out->push_back(static_cast<char>(v >> (8 * i)));
}

void PackInteger(std::string* out, int64_t n) {
  if (n >= 0) {
    if (n <= 127) return out->push_back(static_cast<char>(n));
    if (n <= 0xff) return PutBigEndian(out, 0xcc, n, 1);
    if (n <= 0xffff) return PutBigEndian(out, 0xcd, n, 2);
    if (n <= 0xffffffffLL) return PutBigEndian(out, 0xce, n, 4);
    return PutBigEndian(out, 0xcf, n, 8);
  }
  if (n >= -32) return out->push_back(static_cast<char>(n));
  if (n >= -128) return PutBigEndian(out, 0xd0, static_cast<uint64_t>(n), 1);
  if (n >= -32768) return PutBigEndian(out, 0xd1, static_cast<uint64_t>(n), 2);
  if (n >= INT32_MIN) return PutBigEndian(out, 0xd2, static_cast<uint64_t>(n), 4);
  PutBigEndian(out, 0xd3, static_cast<uint64_t>(n), 8);
}

void PackNumber(std::string* out, double d) {
  // Integral values that survive a round trip through int64 pack as
  // integers; others as float32 when that is exact, else float64.
  if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 &&
      static_cast<double>(static_cast<int64_t>(d)) == d) {
    return PackInteger(out, static_cast<int64_t>(d));
  }
  float f = static_cast<float>(d);
  if (static_cast<double>(f) == d) {
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return PutBigEndian(out, 0xca, bits, 4);
  }
  uint64_t bits;
  memcpy(&bits, &d, 8);
  PutBigEndian(out, 0xcb, bits, 8);
}

void PackString(std::string* out, const char* s, size_t len) {
  if (len < 32) {
    out->push_back(static_cast<char>(0xa0 | len));
  } else if (len <= 0xff) {
    PutBigEndian(out, 0xd9, len, 1);
  } else if (len <= 0xffff) {
    PutBigEndian(out, 0xda, len, 2);
  } else {
    PutBigEndian(out, 0xdb, len, 4);
  }
  out->append(s, len);
}

void PackHeader(std::string* out, size_t n, uint8_t fix, uint8_t tag16, uint8_t tag32) {
  if (n <= 15) return out->push_back(static_cast<char>(fix | n));
  if (n <= 0xffff) return PutBigEndian(out, tag16, n, 2);
  PutBigEndian(out, tag32, n, 4);
}

// The number of elements if the table at `idx` has exactly the keys 1..n
// (an array), or -1 (a map; *pairs is then its size).
int64_t ArrayLength(lua_State* L, int idx, size_t* pairs) {
  int64_t count = 0, max = 0;
  bool array = true;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    count++;
    if (!array) continue;
    double k = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
    if (k < 1 || k > 9e15 || k != std::floor(k)) {
      array = false;
      continue;
    }
    if (k > max) max = static_cast<int64_t>(k);
  }
  *pairs = static_cast<size_t>(count);
  return array && max == count ? count : -1;
}

void PackValue(lua_State* L, std::string* out, int idx, int level);

void PackTable(lua_State* L, std::string* out, int idx, int level) {
  size_t pairs = 0;
  int64_t n = ArrayLength(L, idx, &pairs);
  if (n >= 0) {
    PackHeader(out, static_cast<size_t>(n), 0x90, 0xdc, 0xdd);
    for (int64_t j = 1; j <= n; j++) {
      lua_rawgeti(L, idx, static_cast<int>(j));
      PackValue(L, out, lua_gettop(L), level + 1);
      lua_pop(L, 1);
    }
    return;
  }
  PackHeader(out, pairs, 0x80, 0xde, 0xdf);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    int value = lua_gettop(L);
    PackValue(L, out, value - 1, level + 1);
    PackValue(L, out, value, level + 1);
    lua_pop(L, 1);
  }
}

void PackValue(lua_State* L, std::string* out, int idx, int level) {
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
      return PackNumber(out, lua_tonumber(L, idx));
    case LUA_TSTRING: {
      size_t len = 0;
      const char* s = lua_tolstring(L, idx, &len);
      return PackString(out, s, len);
    }
    case LUA_TBOOLEAN:
      return out->push_back(static_cast<char>(lua_toboolean(L, idx) ? 0xc3 : 0xc2));
    case LUA_TTABLE:
      if (level >= kMaxNesting) return out->push_back(static_cast<char>(0xc0));
      if (PushRealTable(L, idx)) {  // a protected table packs as what it holds
        PackTable(L, out, lua_gettop(L), level);
        return lua_pop(L, 1);
      }
      return PackTable(L, out, idx, level);
    default:
      out->push_back(static_cast<char>(0xc0));
  }
}

int Pack(lua_State* L) {
  int argc = lua_gettop(L);
  if (argc == 0) return luaL_argerror(L, 0, "MessagePack pack needs input.");
  // Per nesting level: a key, a value and a real table, plus a key and a
  // registry lookup while sizing one.
  luaL_checkstack(L, 6 * kMaxNesting + 8, "too many arguments");
  size_t len = 0;
  {
    std::string out;
    for (int i = 1; i <= argc; i++) PackValue(L, &out, i, 0);
    len = out.size();
    // A userdata owned by Lua holds the bytes, so pushing the string (which
    // may raise on memory) runs after `out` is gone.
    memcpy(lua_newuserdata(L, len ? len : 1), out.data(), len);
  }
  lua_pushlstring(L, static_cast<const char*>(lua_touserdata(L, -1)), len);
  return 1;
}

// ---- decoding -----------------------------------------------------------

enum class DecodeError { kNone, kMissingBytes, kBadFormat };

struct Cursor {
  const unsigned char* p;
  size_t left;
  DecodeError error = DecodeError::kNone;

  bool Need(size_t n) {
    if (left >= n) return true;
    error = DecodeError::kMissingBytes;
    return false;
  }
  uint64_t BigEndian(int bytes) {  // REQUIRES: Need(bytes)
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v = (v << 8) | p[i];
    p += bytes, left -= bytes;
    return v;
  }
};

void Decode(lua_State* L, Cursor* c);

void DecodeString(lua_State* L, Cursor* c, size_t len) {
  if (!c->Need(len)) return;
  lua_pushlstring(L, reinterpret_cast<const char*>(c->p), len);
  c->p += len, c->left -= len;
}

// Deep nesting ends in Lua's "stack overflow (in function ...)", worded as
// Redis's.
void DecodeArray(lua_State* L, Cursor* c, size_t n) {
  luaL_checkstack(L, 3, "in function mp_decode_to_lua_array");
  lua_newtable(L);
  for (size_t j = 1; j <= n && c->error == DecodeError::kNone; j++) {
    lua_pushnumber(L, static_cast<lua_Number>(j));
    Decode(L, c);
    if (c->error != DecodeError::kNone) return;
    lua_settable(L, -3);
  }
}

void DecodeMap(lua_State* L, Cursor* c, size_t n) {
  luaL_checkstack(L, 3, "in function mp_decode_to_lua_hash");
  lua_newtable(L);
  for (size_t j = 0; j < n && c->error == DecodeError::kNone; j++) {
    Decode(L, c);
    if (c->error != DecodeError::kNone) return;
    Decode(L, c);
    if (c->error != DecodeError::kNone) return;
    lua_settable(L, -3);
  }
}

// Pushes one value (or nothing, with c->error set).
void Decode(lua_State* L, Cursor* c) {
  if (!c->Need(1)) return;
  unsigned tag = *c->p++;
  c->left--;
  auto sized = [&](int bytes) -> bool { return c->Need(bytes); };
  if (tag <= 0x7f) return lua_pushnumber(L, tag);
  if (tag >= 0xe0) return lua_pushnumber(L, static_cast<int8_t>(tag));
  if ((tag & 0xe0) == 0xa0) return DecodeString(L, c, tag & 0x1f);
  if ((tag & 0xf0) == 0x90) return DecodeArray(L, c, tag & 0x0f);
  if ((tag & 0xf0) == 0x80) return DecodeMap(L, c, tag & 0x0f);
  switch (tag) {
    case 0xc0: return lua_pushnil(L);
    case 0xc2: return lua_pushboolean(L, 0);
    case 0xc3: return lua_pushboolean(L, 1);
    case 0xcc: if (sized(1)) lua_pushnumber(L, c->BigEndian(1)); return;
    case 0xcd: if (sized(2)) lua_pushnumber(L, c->BigEndian(2)); return;
    case 0xce: if (sized(4)) lua_pushnumber(L, c->BigEndian(4)); return;
    // uint64 reads as a signed 64-bit value, as in Redis.
    case 0xcf: if (sized(8)) lua_pushnumber(L, static_cast<int64_t>(c->BigEndian(8))); return;
    case 0xd0: if (sized(1)) lua_pushnumber(L, static_cast<int8_t>(c->BigEndian(1))); return;
    case 0xd1: if (sized(2)) lua_pushnumber(L, static_cast<int16_t>(c->BigEndian(2))); return;
    case 0xd2: if (sized(4)) lua_pushnumber(L, static_cast<int32_t>(c->BigEndian(4))); return;
    case 0xd3: if (sized(8)) lua_pushnumber(L, static_cast<int64_t>(c->BigEndian(8))); return;
    case 0xca:
      if (sized(4)) {
        uint32_t bits = static_cast<uint32_t>(c->BigEndian(4));
        float f;
        memcpy(&f, &bits, 4);
        lua_pushnumber(L, f);
      }
      return;
    case 0xcb:
      if (sized(8)) {
        uint64_t bits = c->BigEndian(8);
        double d;
        memcpy(&d, &bits, 8);
        lua_pushnumber(L, d);
      }
      return;
    case 0xd9: if (sized(1)) DecodeString(L, c, c->BigEndian(1)); return;
    case 0xda: if (sized(2)) DecodeString(L, c, c->BigEndian(2)); return;
    case 0xdb: if (sized(4)) DecodeString(L, c, c->BigEndian(4)); return;
    case 0xdc: if (sized(2)) DecodeArray(L, c, c->BigEndian(2)); return;
    case 0xdd: if (sized(4)) DecodeArray(L, c, c->BigEndian(4)); return;
    case 0xde: if (sized(2)) DecodeMap(L, c, c->BigEndian(2)); return;
    case 0xdf: if (sized(4)) DecodeMap(L, c, c->BigEndian(4)); return;
    default: c->error = DecodeError::kBadFormat;  // bin, ext, 0xc1
  }
}

// Decodes up to `limit` values from byte `offset`; limit 0 with offset 0
// means all values and no offset in the results (Redis's quirk, which also
// makes unpack_limit(s, 0) decode everything).
int UnpackFrom(lua_State* L, int limit, int offset) {
  size_t len = 0;
  const char* s = luaL_checklstring(L, 1, &len);
  bool all = limit == 0 && offset == 0;
  if (offset < 0 || limit < 0) {
    // Redis prints the input length where it means the limit.
    return luaL_error(L, "Invalid request to unpack with offset of %d and limit of %d.", offset,
                      static_cast<int>(len));
  }
  if (static_cast<size_t>(offset) > len) {
    return luaL_error(L, "Start offset %d greater than input length %d.", offset,
                      static_cast<int>(len));
  }
  if (all) limit = INT_MAX;
  Cursor c{reinterpret_cast<const unsigned char*>(s) + offset, len - offset};
  int count = 0;
  for (; c.left > 0 && count < limit; count++) {
    luaL_checkstack(L, 1, "too many return values at once; use unpack_one or unpack_limit instead.");
    Decode(L, &c);
    if (c.error == DecodeError::kMissingBytes) return luaL_error(L, "Missing bytes in input.");
    if (c.error == DecodeError::kBadFormat) return luaL_error(L, "Bad data format in input.");
  }
  if (all) return count;
  luaL_checkstack(L, 1, "too many results");
  lua_pushinteger(L, c.left == 0 ? -1 : static_cast<lua_Integer>(len - c.left));
  lua_insert(L, 2);  // the offset comes first, after the input string
  return count + 1;
}

int Unpack(lua_State* L) { return UnpackFrom(L, 0, 0); }

int UnpackOne(lua_State* L) {
  int offset = static_cast<int>(luaL_optinteger(L, 2, 0));
  lua_settop(L, 1);
  return UnpackFrom(L, 1, offset);
}

int UnpackLimit(lua_State* L) {
  int limit = static_cast<int>(luaL_checkinteger(L, 2));
  int offset = static_cast<int>(luaL_optinteger(L, 3, 0));
  lua_settop(L, 1);
  return UnpackFrom(L, limit, offset);
}

constexpr luaL_Reg kFunctions[] = {
    {"pack", Pack},
    {"unpack", Unpack},
    {"unpack_one", UnpackOne},
    {"unpack_limit", UnpackLimit},
    {nullptr, nullptr},
};

}  // namespace

void OpenCmsgpackLibrary(lua_State* L) {
  luaL_register(L, "cmsgpack", kFunctions);  // the global table
  lua_pop(L, 1);
}

}  // namespace rankd
