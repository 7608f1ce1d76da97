// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The element order shared by both sorted-set encodings: ascending score as
// a double (never NaN; -0.0 == 0.0 compare equal, and then the member
// decides), ties broken by member bytes as memcmp does, a shorter member
// first on a common prefix. std::string_view's operator< is exactly that:
// char_traits<char> compares bytes as unsigned char.

#pragma once

#include <string_view>

#include "absl/functional/function_ref.h"

namespace rankd {

inline bool ElementLess(double s1, std::string_view m1, double s2, std::string_view m2) {
  if (s1 != s2) return s1 < s2;
  return m1 < m2;
}

// Visits one element; the view is valid until the set is next mutated.
using ElementVisitor = absl::FunctionRef<void(std::string_view member, double score)>;

}  // namespace rankd
