// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/glob.h"

#include <cctype>

namespace rankd {
namespace {

int Fold(int c, bool nocase) { return nocase ? tolower(c) : c; }

// Mirrors Redis stringmatchlen_impl, including its treatment of malformed
// classes, so KEYS and SCAN MATCH select the same keys. `skip_longer` stops
// the exponential backtracking that nested '*' would otherwise cause.
bool Match(const char* p, int plen, const char* s, int slen, bool nocase, bool* skip_longer,
           int nesting) {
  if (nesting > 1000) return false;
  while (plen && slen) {
    switch (p[0]) {
      case '*':
        while (plen > 1 && p[1] == '*') {
          p++;
          plen--;
        }
        if (plen == 1) return true;
        while (slen) {
          if (Match(p + 1, plen - 1, s, slen, nocase, skip_longer, nesting + 1)) return true;
          if (*skip_longer) return false;
          s++;
          slen--;
        }
        *skip_longer = true;
        return false;
      case '?':
        s++;
        slen--;
        break;
      case '[': {
        p++;
        plen--;
        bool negate = p[0] == '^';
        if (negate) {
          p++;
          plen--;
        }
        bool match = false;
        while (true) {
          if (p[0] == '\\' && plen >= 2) {
            p++;
            plen--;
            if (p[0] == s[0]) match = true;
          } else if (p[0] == ']') {
            break;
          } else if (plen == 0) {
            p--;
            plen++;
            break;
          } else if (plen >= 3 && p[1] == '-') {
            int start = Fold(static_cast<unsigned char>(p[0]), nocase);
            int end = Fold(static_cast<unsigned char>(p[2]), nocase);
            int c = Fold(static_cast<unsigned char>(s[0]), nocase);
            if (start > end) std::swap(start, end);
            p += 2;
            plen -= 2;
            if (c >= start && c <= end) match = true;
          } else if (Fold(static_cast<unsigned char>(p[0]), nocase) ==
                     Fold(static_cast<unsigned char>(s[0]), nocase)) {
            match = true;
          }
          p++;
          plen--;
        }
        if (negate) match = !match;
        if (!match) return false;
        s++;
        slen--;
        break;
      }
      case '\\':
        if (plen >= 2) {
          p++;
          plen--;
        }
        [[fallthrough]];
      default:
        if (Fold(static_cast<unsigned char>(p[0]), nocase) !=
            Fold(static_cast<unsigned char>(s[0]), nocase)) {
          return false;
        }
        s++;
        slen--;
        break;
    }
    p++;
    plen--;
    if (slen == 0) {
      while (plen && *p == '*') {
        p++;
        plen--;
      }
      break;
    }
  }
  return plen == 0 && slen == 0;
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view str, bool nocase) {
  bool skip_longer = false;
  return Match(pattern.data(), static_cast<int>(pattern.size()), str.data(),
               static_cast<int>(str.size()), nocase, &skip_longer, 0);
}

}  // namespace rankd
