// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// ParseConfigText (server/config.h): redis.conf's line syntax, shared by
// the config file, the ACL file and CONFIG REWRITE's reading of the old file.

#include "server/config.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rankd {

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
          if (line[i] == '\\' && i + 1 < line.size() && q == '"') i++;
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
