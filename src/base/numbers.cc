// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "base/numbers.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/decimal.h"

namespace rankd {
namespace {

// strtod needs a NUL-terminated string; arguments are not. Numbers longer
// than this are rejected, as Redis rejects them (MAX_LONG_DOUBLE_CHARS).
constexpr size_t kMaxNumberChars = 5 * 1024;

// A plain integer ("5", "-12", "+007": an optional sign, then 1 to 15
// digits) is exactly representable, so its double is the one strtod would
// give, "-0" included; scores and increments are mostly written this way.
// False for anything else, which goes to strtod.
inline bool ParseSmallInteger(std::string_view s, double* out) {
  size_t i = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size() || s.size() - i > 15) return false;
  uint64_t v = 0;
  for (; i < s.size(); i++) {
    const unsigned d = static_cast<unsigned char>(s[i]) - unsigned{'0'};
    if (d > 9) return false;
    v = v * 10 + d;
  }
  const double d = static_cast<double>(v);
  *out = s[0] == '-' ? -d : d;
  return true;
}

}  // namespace

bool ParseInt64(std::string_view s, int64_t* out) {
  if (s.empty() || s.size() > 20) return false;
  if (s.size() == 1 && s[0] == '0') {
    *out = 0;
    return true;
  }
  if (s.size() <= 18 && s[0] >= '1' && s[0] <= '9') {
    // Up to 18 digits fit without an overflow check (the usual ranks,
    // counts and indexes: one or two digits).
    uint64_t v = 0;
    for (char ch : s) {
      const unsigned d = static_cast<unsigned char>(ch) - unsigned{'0'};
      if (d > 9) return false;
      v = v * 10 + d;
    }
    *out = static_cast<int64_t>(v);
    return true;
  }
  size_t i = 0;
  bool negative = false;
  if (s[0] == '-') {
    negative = true;
    i = 1;
    if (s.size() == 1) return false;
  }
  if (s[i] < '1' || s[i] > '9') return false;
  uint64_t v = 0;
  for (; i < s.size(); i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    uint64_t d = s[i] - '0';
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  if (negative) {
    if (v > uint64_t{INT64_MAX} + 1) return false;
    *out = static_cast<int64_t>(0 - v);
  } else {
    if (v > uint64_t{INT64_MAX}) return false;
    *out = static_cast<int64_t>(v);
  }
  return true;
}

bool ParseDouble(std::string_view s, double* out) {
  if (ParseSmallInteger(s, out)) return true;
  if (s.empty() || s.size() >= kMaxNumberChars || isspace(static_cast<unsigned char>(s[0]))) {
    return false;
  }
  char buf[kMaxNumberChars];
  s.copy(buf, s.size());
  buf[s.size()] = '\0';
  errno = 0;
  char* end;
  double d = strtod(buf, &end);
  if (static_cast<size_t>(end - buf) != s.size()) return false;
  if (errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL || std::fpclassify(d) == FP_ZERO)) {
    return false;
  }
  if (std::isnan(d)) return false;
  *out = d;
  return true;
}

bool ParseDoubleLoose(std::string_view s, double* out) {
  if (ParseSmallInteger(s, out)) return true;
  if (s.size() >= kMaxNumberChars) return false;
  char buf[kMaxNumberChars];
  s.copy(buf, s.size());
  buf[s.size()] = '\0';
  char* end;
  double d = strtod(buf, &end);
  if (*end != '\0' || static_cast<size_t>(end - buf) != s.size() || std::isnan(d)) return false;
  *out = d;
  return true;
}

bool ParseLongDouble(std::string_view s, long double* out) {
  if (s.empty() || s.size() >= kMaxNumberChars || isspace(static_cast<unsigned char>(s[0]))) {
    return false;
  }
  char buf[kMaxNumberChars];
  s.copy(buf, s.size());
  buf[s.size()] = '\0';
  errno = 0;
  char* end;
  long double v = strtold(buf, &end);
  if (static_cast<size_t>(end - buf) != s.size() || std::isnan(v)) return false;
  // Overflow and underflow to zero are errors; "inf" itself and denormals are
  // not (callers such as INCRBYFLOAT reject infinities with their own error).
  if (errno == ERANGE && (std::isinf(v) || v == 0)) return false;
  *out = v;
  return true;
}

char* FormatDoubleTo(char* out, double d) {
  if (std::isinf(d)) {
    const std::string_view text = d > 0 ? "inf" : "-inf";
    std::memcpy(out, text.data(), text.size());
    return out + text.size();
  }
  // Integral values of magnitude below 1e17 have at most 17 digits: "%.17g"
  // prints them exactly, without exponent or rounding, as the integer
  // formatter does (several times faster; leaderboard scores are mostly
  // integers). -0 keeps its sign through the general path.
  int64_t i;
  if (DoubleAsInteger(d, &i)) {
    if (i >= 0) return WriteDecimal(out, static_cast<uint64_t>(i));
    *out++ = '-';
    return WriteDecimal(out, 0 - static_cast<uint64_t>(i));
  }
  // std::to_chars with a precision is specified to print exactly as printf
  // "%.*g" does, and is ~5x faster than snprintf (numbers_test checks it
  // against snprintf on random doubles).
  return std::to_chars(out, out + kMaxDoubleChars, d, std::chars_format::general, 17).ptr;
}

void AppendDouble(std::string* out, double d) {
  char buf[kMaxDoubleChars];
  out->append(buf, FormatDoubleTo(buf, d) - buf);
}

std::string FormatDouble(double d) {
  std::string s;
  AppendDouble(&s, d);
  return s;
}

std::string FormatLongDouble(long double d) {
  char buf[5 * 1024];
  int n = snprintf(buf, sizeof(buf), "%.17Lf", d);
  std::string s(buf, n);
  if (s.find('.') != std::string::npos) {
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

void AppendInt64(std::string* out, int64_t v) {
  char buf[24];
  auto [p, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, p - buf);
}

std::string FormatInt64(int64_t v) {
  std::string s;
  AppendInt64(&s, v);
  return s;
}

}  // namespace rankd
