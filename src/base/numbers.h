// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Number parsing and formatting with Redis's exact rules, since clients see
// both the errors (which strings are accepted) and the bytes (how a double is
// printed). Every function here is pure.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rankd {

// Strict integer parse (Redis string2ll): optional '-', no '+', no spaces, no
// leading zeros, no "-0", fits in int64. Returns false on anything else.
bool ParseInt64(std::string_view s, int64_t* out);

// Strict double parse (Redis string2d): the whole string is a number strtod
// accepts ("inf", "-inf", "1e5", "0x1p3" included), not empty, no leading
// space, not NaN, no overflow to +-HUGE_VAL, no underflow to zero.
bool ParseDouble(std::string_view s, double* out);

// Loose double parse used by range bounds (Redis zslParseRange): strtod must
// consume the whole string and the result must not be NaN. Leading spaces, the
// empty string (0) and overflow (to +-inf) are accepted, as Redis does.
bool ParseDoubleLoose(std::string_view s, double* out);

// Long double parse (Redis string2ld, INCRBYFLOAT and blocking timeouts):
// the whole string, no leading space, not NaN, no overflow or underflow to
// zero. "inf" and "-inf" are accepted, as Redis does.
bool ParseLongDouble(std::string_view s, long double* out);

// Formats a double the way Redis 7.0 replies with it: "inf", "-inf", else
// printf "%.17g" (so 1.1 prints as 1.1000000000000001).
std::string FormatDouble(double d);

// Appends FormatDouble(d) to *out without a temporary string.
void AppendDouble(std::string* out, double d);

// Writes FormatDouble(d) at `out` (no NUL) and returns the end. REQUIRES:
// `out` has room for kMaxDoubleChars bytes.
inline constexpr size_t kMaxDoubleChars = 32;
char* FormatDoubleTo(char* out, double d);

// Formats a long double as INCRBYFLOAT does ("%.17Lf" with trailing zeros and
// a trailing '.' removed; integers print without a fraction).
std::string FormatLongDouble(long double d);

// Decimal text of v.
std::string FormatInt64(int64_t v);
void AppendInt64(std::string* out, int64_t v);

}  // namespace rankd
