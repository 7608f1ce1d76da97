// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The text forms the Lua debugger shows for Lua values and Redis replies
// (script_debugger.h), in Redis's layout.

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" {
#include <lua.h>
}

#include "scripting/script_debugger.h"
#include "server/config.h"  // QuoteConfigString: Redis's quoted form of a string

namespace rankd {
namespace {

// Tables nested deeper than this print a marker (Redis: LUA_MINSTACK / 2).
constexpr int kMaxDepth = LUA_MINSTACK / 2;

void AppendValue(lua_State* L, int idx, int depth, std::string* out);

void AppendTable(lua_State* L, int idx, int depth, std::string* out) {
  // Two renderings at once: as an array {a; b} and as a map {[k]=v}; the
  // array one is kept when the keys turn out to be 1, 2, 3 ...
  std::string as_array, as_map;
  bool is_array = true;
  int expected = 1;
  if (idx < 0) idx = lua_gettop(L) + idx + 1;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (is_array && (lua_type(L, -2) != LUA_TNUMBER || lua_tonumber(L, -2) != expected)) {
      is_array = false;
    }
    if (!as_array.empty()) as_array += "; ";
    AppendValue(L, -1, depth, &as_array);
    if (!as_map.empty()) as_map += "; ";
    as_map += "[";
    AppendValue(L, -2, depth, &as_map);
    as_map += "]=";
    AppendValue(L, -1, depth, &as_map);
    lua_pop(L, 1);
    expected++;
  }
  *out += "{";
  *out += is_array ? as_array : as_map;
  *out += "}";
}

void AppendValue(lua_State* L, int idx, int depth, std::string* out) {
  if (depth++ == kMaxDepth) {
    *out += "<max recursion level reached! Nested table?>";
    return;
  }
  int t = lua_type(L, idx);
  switch (t) {
    case LUA_TSTRING: {
      size_t len = 0;
      const char* s = lua_tolstring(L, idx, &len);
      *out += QuoteConfigString(std::string_view(s, len));
      return;
    }
    case LUA_TBOOLEAN:
      *out += lua_toboolean(L, idx) ? "true" : "false";
      return;
    case LUA_TNUMBER: {
      char buf[64];
      snprintf(buf, sizeof(buf), "%g", static_cast<double>(lua_tonumber(L, idx)));
      *out += buf;
      return;
    }
    case LUA_TNIL:
      *out += "nil";
      return;
    case LUA_TTABLE:
      AppendTable(L, idx, depth, out);
      return;
    case LUA_TFUNCTION:
    case LUA_TUSERDATA:
    case LUA_TTHREAD:
    case LUA_TLIGHTUSERDATA: {
      const char* kind = t == LUA_TFUNCTION   ? "function"
                         : t == LUA_TUSERDATA ? "userdata"
                         : t == LUA_TTHREAD   ? "thread"
                                              : "light-userdata";
      char buf[96];
      snprintf(buf, sizeof(buf), "\"%s@%p\"", kind, lua_topointer(L, idx));
      *out += buf;
      return;
    }
    default:
      *out += "\"<unknown-lua-type>\"";
  }
}

// One RESP value at resp[*pos], appended in human form; *pos moves past it.
// Returns false on truncated input.
bool AppendReply(std::string_view resp, size_t* pos, std::string* out) {
  if (*pos >= resp.size()) return false;
  const char type = resp[*pos];
  size_t eol = resp.find("\r\n", *pos);
  if (eol == std::string_view::npos) return false;
  std::string_view line = resp.substr(*pos + 1, eol - *pos - 1);
  *pos = eol + 2;
  long long n = std::strtoll(std::string(line).c_str(), nullptr, 10);
  auto items = [&](const char* open, const char* close, bool pairs) {
    *out += open;
    for (long long i = 0; i < n; i++) {
      if (!AppendReply(resp, pos, out)) return false;
      if (pairs) {
        *out += " => ";
        if (!AppendReply(resp, pos, out)) return false;
      }
      if (i != n - 1) *out += ",";
    }
    *out += close;
    return true;
  };
  switch (type) {
    case ':':
    case '(':
      *out += line;
      return true;
    case '$':
    case '=':
    case '!':
      if (n < 0) {
        *out += "NULL";
        return true;
      }
      if (*pos + n + 2 > resp.size()) return false;
      *out += QuoteConfigString(resp.substr(*pos, n));
      *pos += n + 2;
      return true;
    case '+':
    case '-':
      *out += QuoteConfigString(resp.substr(eol - line.size() - 1, line.size() + 1));
      return true;
    case '*':
    case '>':
      if (n < 0) {
        *out += "NULL";
        return true;
      }
      return items("[", "]", false);
    case '~':
      return items("~(", ")", false);
    case '%':
    case '|':
      return items("{", "}", true);
    case '_':
      *out += "(null)";
      return true;
    case '#':
      *out += line == "t" ? "#true" : "#false";
      return true;
    case ',':
      *out += "(double) ";
      *out += line;
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string DebugValueText(lua_State* L, int idx) {
  std::string out;
  AppendValue(L, idx, 0, &out);
  return out;
}

std::string DebugReplyText(std::string_view resp) {
  std::string out;
  size_t pos = 0;
  AppendReply(resp, &pos, &out);
  return out;
}

}  // namespace rankd
