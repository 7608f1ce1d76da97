// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The text of a config file (redis.conf syntax, as Redis's sdssplitargs
// reads it): lines split into words, double quotes with escapes, single
// quotes as they are. The quoting CONFIG REWRITE writes back is in config_format.cc.

#include <cctype>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "server/config.h"

namespace rankd {

namespace {

// The escape at line[*i] (a backslash) inside double quotes, as Redis's
// sdssplitargs: \n \r \t \b \a, \xHH, or the character itself; advances *i.
char QuotedEscape(std::string_view line, size_t* i) {
  const char e = line[*i + 1];
  auto hex = [](char c) { return isxdigit(static_cast<unsigned char>(c)); };
  if (e == 'x' && *i + 3 < line.size() && hex(line[*i + 2]) && hex(line[*i + 3])) {
    const char c = static_cast<char>(std::stoi(std::string(line.substr(*i + 2, 2)), nullptr, 16));
    *i += 4;
    return c;
  }
  *i += 2;
  switch (e) {
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'b': return '\b';
    case 'a': return '\a';
    default: return e;
  }
}

}  // namespace

std::string ParseConfigText(std::string_view text,
                            std::vector<std::pair<std::string, std::vector<std::string>>>* out) {
  size_t line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    line_no++;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
      line.remove_suffix(1);
    }
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> words;
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) i++;
      if (i >= line.size()) break;
      std::string w;
      if (line[i] == '"' || line[i] == '\'') {
        char q = line[i++];
        while (i < line.size() && line[i] != q) {
          if (line[i] == '\\' && i + 1 < line.size() && q == '"') {
            w.push_back(QuotedEscape(line, &i));
            continue;
          }
          w.push_back(line[i++]);
        }
        if (i >= line.size()) return "line " + std::to_string(line_no) + ": unbalanced quotes";
        i++;
      } else {
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') w.push_back(line[i++]);
      }
      words.push_back(std::move(w));
    }
    if (words.empty()) continue;
    std::string name = words[0];
    words.erase(words.begin());
    out->emplace_back(std::move(name), std::move(words));
  }
  return "";
}

}  // namespace rankd
