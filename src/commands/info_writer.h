// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// InfoWriter builds INFO's text: "# Section" headers, "name:value" lines,
// CRLF line ends and a blank line between sections, as Redis writes them.

#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "base/numbers.h"

namespace rankd {

class InfoWriter {
 public:
  void Section(std::string_view name) {
    if (!out_.empty()) out_ += "\r\n";
    out_ += "# ";
    out_ += name;
    out_ += "\r\n";
  }
  void Field(std::string_view name, std::string_view value) {
    out_.append(name);
    out_ += ':';
    out_.append(value);
    out_ += "\r\n";
  }
  void Field(std::string_view name, const char* value) { Field(name, std::string_view(value)); }
  void Field(std::string_view name, const std::string& value) {
    Field(name, std::string_view(value));
  }
  void Field(std::string_view name, int64_t v) { Field(name, FormatInt64(v)); }
  void Field(std::string_view name, int v) { Field(name, static_cast<int64_t>(v)); }
  std::string& text() { return out_; }

 private:
  std::string out_;
};

// Redis's bytesToHuman: "512B", "1.50K", "2.00M", "3.00G".
inline std::string HumanBytes(int64_t n) {
  char buf[32];
  double d = static_cast<double>(n);
  if (n < 1024) {
    snprintf(buf, sizeof(buf), "%lldB", static_cast<long long>(n));
  } else if (n < 1024LL * 1024) {
    snprintf(buf, sizeof(buf), "%.2fK", d / 1024);
  } else if (n < 1024LL * 1024 * 1024) {
    snprintf(buf, sizeof(buf), "%.2fM", d / (1024 * 1024));
  } else if (n < 1024LL * 1024 * 1024 * 1024) {
    snprintf(buf, sizeof(buf), "%.2fG", d / (1024.0 * 1024 * 1024));
  } else {
    snprintf(buf, sizeof(buf), "%.2fT", d / (1024.0 * 1024 * 1024 * 1024));
  }
  return buf;
}

class Server;

// INFO leaderboards (rankd's own section, info_leaderboards.cc): counts of
// boards, watches, views, periodic boards and member deadlines. Written
// only when asked for by name, so INFO, INFO all and INFO everything list
// exactly Redis 7.0's sections.
void LeaderboardsInfoSection(Server& s, InfoWriter& w);

}  // namespace rankd
