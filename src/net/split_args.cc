// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/split_args.h"

#include <cstring>

namespace rankd {
namespace {

bool IsBlank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

bool IsHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Where an unquoted word ends (sdssplitargs: \v and \f stay inside it).
bool EndsWord(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

}  // namespace

bool SplitUnquoted(std::string_view line, std::vector<std::string_view>* words) {
  if (line.find_first_of(std::string_view("\"'\0", 3)) != std::string_view::npos) return false;
  const char* p = line.data();
  const char* const end = p + line.size();
  for (;;) {
    while (p < end && IsBlank(*p)) p++;
    if (p == end) return true;
    const char* const word = p;
    while (p < end && !EndsWord(*p)) p++;
    words->emplace_back(word, static_cast<size_t>(p - word));
  }
}

bool SplitArgs(std::string_view line, std::string* storage, std::vector<ArgSpan>* spans) {
  storage->clear();
  spans->clear();
  const char* p = line.data();
  const char* end = p + line.size();
  if (const void* nul = memchr(p, '\0', line.size())) end = static_cast<const char*>(nul);
  // at(q) reads like sdssplitargs' *q on a NUL-terminated string.
  auto at = [end](const char* q) -> char { return q < end ? *q : '\0'; };

  for (;;) {
    while (p < end && IsBlank(*p)) p++;
    if (p == end) return true;
    const size_t begin = storage->size();
    bool in_double = false, in_single = false, done = false;
    while (!done) {
      const char c = at(p);
      if (in_double) {
        if (c == '\\' && at(p + 1) == 'x' && IsHex(at(p + 2)) && IsHex(at(p + 3))) {
          storage->push_back(static_cast<char>(HexValue(p[2]) * 16 + HexValue(p[3])));
          p += 3;
        } else if (c == '\\' && at(p + 1)) {
          p++;
          char e = *p;
          switch (e) {
            case 'n': e = '\n'; break;
            case 'r': e = '\r'; break;
            case 't': e = '\t'; break;
            case 'b': e = '\b'; break;
            case 'a': e = '\a'; break;
            default: break;
          }
          storage->push_back(e);
        } else if (c == '"') {
          // A closing quote must be followed by a blank or nothing at all.
          if (at(p + 1) && !IsBlank(at(p + 1))) return false;
          done = true;
        } else if (!c) {
          return false;  // unterminated quotes
        } else {
          storage->push_back(c);
        }
      } else if (in_single) {
        if (c == '\\' && at(p + 1) == '\'') {
          p++;
          storage->push_back('\'');
        } else if (c == '\'') {
          if (at(p + 1) && !IsBlank(at(p + 1))) return false;
          done = true;
        } else if (!c) {
          return false;
        } else {
          storage->push_back(c);
        }
      } else {
        switch (c) {
          case ' ': case '\n': case '\r': case '\t': case '\0':
            done = true;
            break;
          case '"': in_double = true; break;
          case '\'': in_single = true; break;
          default: storage->push_back(c); break;
        }
      }
      if (p < end) p++;
    }
    spans->push_back({begin, storage->size() - begin});
  }
}

std::optional<std::vector<std::string>> SplitArgs(std::string_view line) {
  std::string storage;
  std::vector<ArgSpan> spans;
  if (!SplitArgs(line, &storage, &spans)) return std::nullopt;
  std::vector<std::string> out;
  out.reserve(spans.size());
  for (const ArgSpan& s : spans) out.emplace_back(storage, s.offset, s.size);
  return out;
}

}  // namespace rankd
