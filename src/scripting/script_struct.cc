// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The `struct` library (script_libs.h). A format is read one option at a
// time by FormatReader, which also tracks endianness and alignment; pack,
// unpack and size share it. Lua raises errors with longjmp: nothing here
// holds an object with a destructor across a call that can raise.

#include "scripting/script_libs.h"

extern "C" {
#include <lauxlib.h>
}

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace rankd {
namespace {

constexpr int kMaxIntSize = 32;
constexpr int kMaxAlign = 8;  // the strictest alignment of a C scalar

// Reads a decimal size after an option, or returns `fallback`.
int ReadSize(lua_State* L, const char** fmt, int fallback) {
  if (!isdigit(static_cast<unsigned char>(**fmt))) return fallback;
  int n = 0;
  while (isdigit(static_cast<unsigned char>(**fmt))) {
    int digit = *(*fmt)++ - '0';
    if (n > (INT_MAX - digit) / 10) luaL_error(L, "integral size overflow");
    n = n * 10 + digit;
  }
  return n;
}

struct FormatReader {
  lua_State* L;
  const char* fmt;
  bool little = true;  // x86-64 is little-endian
  int align = 1;

  // The size an option occupies (0 for control options and 's').
  size_t SizeOf(char opt) {
    switch (opt) {
      case 'b': case 'B': case 'x': return 1;
      case 'h': case 'H': return 2;
      case 'l': case 'L': case 'T': case 'd': return 8;
      case 'f': return 4;
      case 'c': return static_cast<size_t>(ReadSize(L, &fmt, 1));
      case 'i': case 'I': {
        int n = ReadSize(L, &fmt, 4);
        if (n > kMaxIntSize) {
          luaL_error(L, "integral size %d is larger than limit of %d", n, kMaxIntSize);
        }
        return static_cast<size_t>(n);
      }
      default: return 0;
    }
  }

  // Padding before an item of `size` bytes at offset `at`.
  size_t Padding(size_t at, char opt, size_t size) const {
    if (size == 0 || opt == 'c') return 0;
    size_t a = size < static_cast<size_t>(align) ? size : static_cast<size_t>(align);
    return (a - (at & (a - 1))) & (a - 1);
  }

  // Applies a control option; raises for an unknown one.
  void Control(char opt) {
    switch (opt) {
      case ' ': return;
      case '<': little = true; return;
      case '>': little = false; return;
      case '!': {
        int a = ReadSize(L, &fmt, kMaxAlign);
        if (a <= 0 || (a & (a - 1)) != 0) luaL_error(L, "alignment %d is not a power of 2", a);
        align = a;
        return;
      }
      default:
        luaL_argerror(L, 1, lua_pushfstring(L, "invalid format option '%c'", opt));
    }
  }
};

bool IsIntegerOption(char opt) { return strchr("bBhHlLTiI", opt) != nullptr; }

// The low 64 bits of a Lua number as C's conversions give them on x86-64.
uint64_t NumberBits(double n) {
  constexpr double k63 = 9223372036854775808.0;
  if (n < 0) return n >= -k63 ? static_cast<uint64_t>(static_cast<int64_t>(n)) : 1ULL << 63;
  if (n < k63) return static_cast<uint64_t>(static_cast<int64_t>(n));
  double high = n - k63;
  uint64_t low = high < k63 ? static_cast<uint64_t>(static_cast<int64_t>(high)) : 1ULL << 63;
  return low ^ (1ULL << 63);
}

void AddInteger(luaL_Buffer* b, uint64_t bits, size_t size, bool little) {
  char bytes[kMaxIntSize] = {};
  for (size_t i = 0; i < size && i < 8; i++) bytes[little ? i : size - 1 - i] = static_cast<char>(bits >> (8 * i));
  luaL_addlstring(b, bytes, size);
}

lua_Number ReadInteger(const char* p, size_t size, bool little, bool is_signed) {
  uint64_t v = 0;
  for (size_t i = 0; i < size; i++) {
    v = (v << 8) | static_cast<unsigned char>(p[little ? size - 1 - i : i]);
  }
  if (!is_signed) return static_cast<lua_Number>(v);
  uint64_t sign = ~uint64_t{0} << ((size * 8 - 1) & 63);  // x86 masks the shift count
  if (v & sign) v |= sign;
  return static_cast<lua_Number>(static_cast<int64_t>(v));
}

template <class T>
void AddFloat(luaL_Buffer* b, T value, bool little) {
  char bytes[sizeof(T)];
  memcpy(bytes, &value, sizeof(T));
  if (!little) std::reverse(bytes, bytes + sizeof(T));
  luaL_addlstring(b, bytes, sizeof(T));
}

template <class T>
T ReadFloat(const char* p, bool little) {
  char bytes[sizeof(T)];
  memcpy(bytes, p, sizeof(T));
  if (!little) std::reverse(bytes, bytes + sizeof(T));
  T value;
  memcpy(&value, bytes, sizeof(T));
  return value;
}

int Pack(lua_State* L) {
  FormatReader f{L, luaL_checkstring(L, 1)};
  int arg = 2;
  size_t total = 0;
  lua_pushnil(L);  // keeps the buffer's stack slots apart from the arguments
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  while (*f.fmt) {
    char opt = *f.fmt++;
    size_t size = f.SizeOf(opt);
    size_t pad = f.Padding(total, opt, size);
    for (total += pad; pad > 0; pad--) luaL_addchar(&b, '\0');
    if (IsIntegerOption(opt)) {
      AddInteger(&b, NumberBits(luaL_checknumber(L, arg++)), size, f.little);
    } else if (opt == 'x') {
      luaL_addchar(&b, '\0');
    } else if (opt == 'f') {
      AddFloat(&b, static_cast<float>(luaL_checknumber(L, arg++)), f.little);
    } else if (opt == 'd') {
      AddFloat(&b, static_cast<double>(luaL_checknumber(L, arg++)), f.little);
    } else if (opt == 'c' || opt == 's') {
      size_t len = 0;
      const char* s = luaL_checklstring(L, arg++, &len);
      if (size == 0) size = len;
      // Redis reports the argument after the string.
      luaL_argcheck(L, len >= size, arg, "string too short");
      luaL_addlstring(&b, s, size);
      if (opt == 's') luaL_addchar(&b, '\0'), size++;
    } else {
      f.Control(opt);
    }
    total += size;
  }
  luaL_pushresult(&b);
  return 1;
}

int Unpack(lua_State* L) {
  FormatReader f{L, luaL_checkstring(L, 1)};
  size_t len = 0;
  const char* data = luaL_checklstring(L, 2, &len);
  lua_Integer start = luaL_optinteger(L, 3, 1);
  luaL_argcheck(L, start > 0, 3, "offset must be 1 or greater");
  size_t pos = static_cast<size_t>(start) - 1;
  int results = 0;
  while (*f.fmt) {
    char opt = *f.fmt++;
    size_t size = f.SizeOf(opt);
    pos += f.Padding(pos, opt, size);
    luaL_argcheck(L, size <= len && pos <= len - size, 2, "data string too short");
    luaL_checkstack(L, 2, "too many results");
    if (IsIntegerOption(opt)) {
      lua_pushnumber(L, ReadInteger(data + pos, size, f.little, islower(opt)));
      results++;
    } else if (opt == 'x') {
    } else if (opt == 'f') {
      lua_pushnumber(L, ReadFloat<float>(data + pos, f.little));
      results++;
    } else if (opt == 'd') {
      lua_pushnumber(L, ReadFloat<double>(data + pos, f.little));
      results++;
    } else if (opt == 'c') {
      if (size == 0) {  // c0: the length is the value just read
        if (results == 0 || !lua_isnumber(L, -1)) luaL_error(L, "format 'c0' needs a previous size");
        size = static_cast<size_t>(lua_tonumber(L, -1));
        lua_pop(L, 1), results--;
        luaL_argcheck(L, size <= len && pos <= len - size, 2, "data string too short");
      }
      lua_pushlstring(L, data + pos, size);
      results++;
    } else if (opt == 's') {
      const void* end = memchr(data + pos, '\0', len - pos);
      if (!end) luaL_error(L, "unfinished string in data");
      size = static_cast<size_t>(static_cast<const char*>(end) - (data + pos)) + 1;
      lua_pushlstring(L, data + pos, size - 1);
      results++;
    } else {
      f.Control(opt);
    }
    pos += size;
  }
  lua_pushinteger(L, static_cast<lua_Integer>(pos) + 1);
  return results + 1;
}

int Size(lua_State* L) {
  FormatReader f{L, luaL_checkstring(L, 1)};
  size_t pos = 0;
  while (*f.fmt) {
    char opt = *f.fmt++;
    size_t size = f.SizeOf(opt);
    pos += f.Padding(pos, opt, size);
    if (opt == 's') luaL_argerror(L, 1, "option 's' has no fixed size");
    if (opt == 'c' && size == 0) luaL_argerror(L, 1, "option 'c0' has no fixed size");
    // Unknown letters count as nothing here (pack and unpack refuse them).
    if (!isalnum(static_cast<unsigned char>(opt))) f.Control(opt);
    pos += size;
  }
  lua_pushinteger(L, static_cast<lua_Integer>(pos));
  return 1;
}

constexpr luaL_Reg kFunctions[] = {
    {"pack", Pack}, {"unpack", Unpack}, {"size", Size}, {nullptr, nullptr}};

}  // namespace

void OpenStructLibrary(lua_State* L) {
  luaL_register(L, "struct", kFunctions);  // the global table
  lua_pop(L, 1);
}

}  // namespace rankd
