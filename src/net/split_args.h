// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// SplitArgs splits one line into arguments exactly as Redis's sdssplitargs
// does: for inline commands ("SET k \"a b\"") and redis.conf lines.
//
//   - Arguments are separated by blanks (isspace in the C locale: space, \t,
//     \n, \v, \f, \r). An unquoted argument ends only at space, \n, \r, \t or
//     the end, so \v and \f inside a word are kept, as Redis does.
//   - "double quotes" accept \n \r \t \b \a, \xHH (two hex digits) and
//     \<any char> (that char).
//   - 'single quotes' accept only \' as an escape.
//   - A closing quote must be followed by a blank or the end of the line, and
//     a quote must be closed: otherwise the whole line is rejected ("unbalanced
//     quotes").
//   - A NUL byte ends the line, as it does for the C string Redis scans.

#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankd {

// Where one argument lies in the storage string SplitArgs writes.
struct ArgSpan {
  size_t offset;
  size_t size;
};

// Splits `line`. On success returns true, *storage holds every argument's
// bytes back to back and *spans one entry per argument, in order (empty for
// a blank line). Returns false on unbalanced quotes. Both outputs are cleared
// first and keep their capacity, so a reused pair does not allocate.
// O(line.size()).
bool SplitArgs(std::string_view line, std::string* storage, std::vector<ArgSpan>* spans);

// The same split without copying, for a line with no quote and no NUL (so
// no word needs unescaping): appends each word to *words as a view into
// `line`. Returns false, appending nothing, if the line holds a quote or NUL.
bool SplitUnquoted(std::string_view line, std::vector<std::string_view>* words);

// Convenience form: the arguments as strings, or std::nullopt on unbalanced
// quotes.
std::optional<std::vector<std::string>> SplitArgs(std::string_view line);

}  // namespace rankd
