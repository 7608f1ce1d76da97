// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "scripting/script_resp.h"

extern "C" {
#include <lauxlib.h>
#include <lua.h>
}

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace rankd {
namespace {

// Reads a "\r\n"-terminated line at *pos; returns it without the CRLF.
bool ReadLine(std::string_view buf, size_t* pos, std::string_view* line) {
  size_t end = buf.find("\r\n", *pos);
  if (end == std::string_view::npos) return false;
  *line = buf.substr(*pos, end - *pos);
  *pos = end + 2;
  return true;
}

bool ParseLen(std::string_view s, int64_t* n) {
  if (s.empty()) return false;
  std::string tmp(s);
  char* end = nullptr;
  *n = strtoll(tmp.c_str(), &end, 10);
  return end && *end == '\0';
}

void SetField(lua_State* L, const char* field, std::string_view value) {
  lua_pushstring(L, field);
  lua_pushlstring(L, value.data(), value.size());
  lua_rawset(L, -3);
}

// Pushes `n` elements parsed from buf into a new table; as_map pairs them.
bool PushAggregate(lua_State* L, std::string_view buf, size_t* pos, int64_t n, char kind) {
  if (!lua_checkstack(L, 8)) return false;
  lua_newtable(L);
  if (kind == '*') {
    for (int64_t i = 1; i <= n; i++) {
      if (!PushReplyAsLua(L, buf, pos)) return lua_pop(L, 1), false;
      lua_rawseti(L, -2, static_cast<int>(i));
    }
    return true;
  }
  lua_pushstring(L, kind == '%' ? "map" : "set");
  lua_newtable(L);
  for (int64_t i = 0; i < n; i++) {
    if (!PushReplyAsLua(L, buf, pos)) return lua_pop(L, 3), false;
    if (kind == '%') {
      if (!PushReplyAsLua(L, buf, pos)) return lua_pop(L, 4), false;
    } else {
      lua_pushboolean(L, 1);
    }
    lua_rawset(L, -3);
  }
  lua_rawset(L, -3);
  return true;
}

}  // namespace

bool ErrorWasCounted(lua_State* L, int idx) {
  idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
  lua_pushstring(L, kErrorCounted);
  lua_rawget(L, idx);
  const bool counted = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return counted;
}

bool PushReplyAsLua(lua_State* L, std::string_view buf, size_t* pos) {
  if (*pos >= buf.size()) return false;
  char type = buf[(*pos)++];
  std::string_view line;
  if (!ReadLine(buf, pos, &line)) return false;
  int64_t n = 0;
  switch (type) {
    case ':':
      if (!ParseLen(line, &n)) return false;
      lua_pushnumber(L, static_cast<lua_Number>(n));
      return true;
    case '+':
      lua_newtable(L);
      SetField(L, "ok", line);
      return true;
    case '-':  // counted when the command answered: never again (as Redis)
      lua_newtable(L);
      SetField(L, "err", line);
      lua_pushboolean(L, 1);
      lua_setfield(L, -2, kErrorCounted);
      return true;
    case '$':
    case '=': {
      if (!ParseLen(line, &n)) return false;
      if (n < 0) return lua_pushboolean(L, 0), true;
      if (*pos + n + 2 > buf.size()) return false;
      std::string_view s = buf.substr(*pos, n);
      *pos += n + 2;
      if (type == '$' || s.size() < 4) {
        lua_pushlstring(L, s.data(), s.size());
        return true;
      }
      lua_newtable(L);
      lua_pushstring(L, "verbatim_string");
      lua_newtable(L);
      SetField(L, "format", s.substr(0, 3));
      SetField(L, "string", s.substr(4));
      lua_rawset(L, -3);
      return true;
    }
    case '*':
    case '%':
    case '~':
      if (!ParseLen(line, &n)) return false;
      if (n < 0) return lua_pushboolean(L, 0), true;
      return PushAggregate(L, buf, pos, n, type);
    case '_':
      lua_pushnil(L);
      return true;
    case '#':
      lua_pushboolean(L, line == "t");
      return true;
    case ',': {
      std::string tmp(line);
      lua_newtable(L);
      lua_pushstring(L, "double");
      lua_pushnumber(L, strtod(tmp.c_str(), nullptr));
      lua_rawset(L, -3);
      return true;
    }
    case '(':
      lua_newtable(L);
      SetField(L, "big_number", line);
      return true;
    case '|':  // attribute: skip its pairs, then read the reply it annotates
      if (!ParseLen(line, &n)) return false;
      for (int64_t i = 0; i < 2 * n; i++) {
        if (!PushReplyAsLua(L, buf, pos)) return false;
        lua_pop(L, 1);
      }
      return PushReplyAsLua(L, buf, pos);
    default:
      return false;
  }
}

namespace {

// If the table on top has a field `name` of Lua type `type`, pushes it and
// returns true; otherwise leaves the stack unchanged.
bool GetTyped(lua_State* L, const char* name, int type) {
  lua_pushstring(L, name);
  lua_rawget(L, -2);
  if (lua_type(L, -1) == type) return true;
  lua_pop(L, 1);
  return false;
}

std::string_view ToView(lua_State* L, int idx) {
  size_t len = 0;
  const char* s = lua_tolstring(L, idx, &len);
  return std::string_view(s, len);
}

// `s` with every CR and LF turned into a space (status and big-number lines).
std::string OneLine(std::string_view s) {
  std::string line(s);
  for (char& ch : line) {
    if (ch == '\r' || ch == '\n') ch = ' ';
  }
  return line;
}

// {verbatim_string={format=, string=}} (what a RESP3 verbatim reply
// becomes in Lua): a verbatim string again in RESP3, a bulk in RESP2.
// Returns false, leaving the stack as it was, for any other table.
bool WriteVerbatim(lua_State* L, ReplyBuilder& out) {
  if (!GetTyped(L, "verbatim_string", LUA_TTABLE)) return false;
  bool written = false;
  if (GetTyped(L, "format", LUA_TSTRING)) {
    std::string format(ToView(L, -1).substr(0, 3));
    format.resize(3, ' ');
    lua_pop(L, 1);
    if (GetTyped(L, "string", LUA_TSTRING)) {
      std::string_view text = ToView(L, -1);
      if (out.resp3()) {
        out.Raw("=" + std::to_string(text.size() + 4) + "\r\n" + format + ":");
        out.Raw(text);
        out.Raw("\r\n");
      } else {
        out.Bulk(text);
      }
      written = true;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return written;
}

void WriteTable(lua_State* L, int script_resp, ReplyBuilder& out) {
  if (GetTyped(L, "err", LUA_TSTRING)) {
    if (ErrorWasCounted(L, -2)) {
      out.UncountedError(ToView(L, -1));
    } else {
      out.Error(ToView(L, -1));
    }
  } else if (GetTyped(L, "ok", LUA_TSTRING)) {
    out.SimpleString(OneLine(ToView(L, -1)));
  } else if (GetTyped(L, "double", LUA_TNUMBER)) {
    out.Double(lua_tonumber(L, -1));
  } else if (GetTyped(L, "big_number", LUA_TSTRING)) {
    // A line break in the digits would end the RESP3 line early (and
    // inject a reply): Redis turns each CR and LF into a space, in both
    // protocols.
    const std::string digits = OneLine(ToView(L, -1));
    if (out.resp3()) {
      out.Raw("(");
      out.Raw(digits);
      out.Raw("\r\n");
    } else {
      out.Bulk(digits);
    }
  } else if (WriteVerbatim(L, out)) {
  } else if (GetTyped(L, "map", LUA_TTABLE) || GetTyped(L, "set", LUA_TTABLE)) {
    lua_pushstring(L, "map");
    lua_rawget(L, -3);
    bool is_map = lua_rawequal(L, -1, -2);
    lua_pop(L, 1);
    size_t token = out.DeferArray();
    size_t count = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      lua_pushvalue(L, -2);  // key on top
      WriteLuaAsReply(L, script_resp, out);
      lua_pop(L, 1);
      if (is_map) WriteLuaAsReply(L, script_resp, out);
      lua_pop(L, 1);  // value
      count++;
      if (out.overflowed()) {  // past the client's output limit: stop early
        lua_pop(L, 1);         // the key lua_next would have taken
        break;
      }
    }
    if (is_map) {
      out.FinishMap(token, count);
    } else {
      out.FinishSet(token, count);
    }
  } else {
    size_t token = out.DeferArray();
    size_t count = 0;
    for (int j = 1;; j++) {
      lua_rawgeti(L, -1, j);
      if (lua_isnil(L, -1)) break;
      WriteLuaAsReply(L, script_resp, out);
      lua_pop(L, 1);
      count++;
      if (out.overflowed()) break;  // past the client's output limit: stop early
    }
    out.FinishArray(token, count);
  }
}

}  // namespace

void WriteLuaAsReply(lua_State* L, int script_resp, ReplyBuilder& out) {
  if (!lua_checkstack(L, 8)) return out.Error("ERR reached lua stack limit");
  switch (lua_type(L, -1)) {
    case LUA_TSTRING:
      return out.Bulk(ToView(L, -1));
    case LUA_TBOOLEAN:
      if (script_resp == 3) return out.Bool(lua_toboolean(L, -1));
      return lua_toboolean(L, -1) ? out.Integer(1) : out.Null();
    case LUA_TNUMBER: {
      // C's (long long) cast: out-of-range and NaN give INT64_MIN on x86.
      double d = lua_tonumber(L, -1);
      int64_t v = (std::isnan(d) || d >= 9223372036854775808.0 || d < -9223372036854775808.0)
                      ? INT64_MIN
                      : static_cast<int64_t>(d);
      return out.Integer(v);
    }
    case LUA_TTABLE: {
      int top = lua_gettop(L);
      lua_pushvalue(L, -1);
      WriteTable(L, script_resp, out);
      lua_settop(L, top);
      return;
    }
    default:
      return out.Null();
  }
}

}  // namespace rankd
