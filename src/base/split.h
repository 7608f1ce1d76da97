// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// Splitting a line into space-separated words (config values such as
// `save 900 1`, script shebangs). Not for client input: RESP inline commands
// use net/split_args.h, which handles quotes and escapes as Redis does.

#pragma once

#include <string_view>
#include <vector>

namespace rankd {

// The non-empty runs of `s` between ' ' characters, as views into `s`.
inline std::vector<std::string_view> SplitSpaces(std::string_view s) {
  std::vector<std::string_view> words;
  for (size_t i = 0; i < s.size();) {
    size_t j = s.find(' ', i);
    if (j == std::string_view::npos) j = s.size();
    if (j > i) words.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return words;
}

}  // namespace rankd
