// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// How setting values are written and read as text (config.h): memory sizes,
// quoted strings, percentiles.

#include <cctype>
#include <climits>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

#include "base/numbers.h"
#include "server/command.h"
#include "server/config.h"

namespace rankd {

bool ParseMemory(std::string_view s, int64_t* out) {
  static constexpr std::pair<std::string_view, int64_t> kUnits[] = {
      {"kb", 1024}, {"mb", 1024 * 1024}, {"gb", 1024LL * 1024 * 1024},
      {"k", 1000},  {"m", 1000 * 1000},  {"g", 1000LL * 1000 * 1000}, {"b", 1}};
  int64_t mul = 1;
  for (auto [suffix, m] : kUnits) {
    if (s.size() > suffix.size() && EqualsIgnoreCase(s.substr(s.size() - suffix.size()), suffix)) {
      s.remove_suffix(suffix.size());
      mul = m;
      break;
    }
  }
  int64_t v;
  if (!ParseInt64(s, &v) || v < 0 || (mul > 1 && v > LLONG_MAX / mul)) return false;
  *out = v * mul;
  return true;
}

std::string FormatMemory(int64_t bytes) {
  constexpr int64_t kGb = 1024LL * 1024 * 1024, kMb = 1024 * 1024, kKb = 1024;
  if (bytes != 0 && bytes % kGb == 0) return FormatInt64(bytes / kGb) + "gb";
  if (bytes != 0 && bytes % kMb == 0) return FormatInt64(bytes / kMb) + "mb";
  if (bytes != 0 && bytes % kKb == 0) return FormatInt64(bytes / kKb) + "kb";
  return FormatInt64(bytes);
}

std::string QuoteConfigString(std::string_view s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    switch (ch) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      default:
        if (isprint(ch)) {
          out.push_back(static_cast<char>(ch));
        } else {
          char buf[8];
          snprintf(buf, sizeof(buf), "\\x%02x", ch);
          out += buf;
        }
    }
  }
  return out + "\"";
}

std::string FormatPercentile(double p) {
  char buf[64];
  std::string s(buf, snprintf(buf, sizeof(buf), "%f", p));
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

}  // namespace rankd
