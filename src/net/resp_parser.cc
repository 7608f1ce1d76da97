// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/resp_parser.h"

#include <cassert>
#include <cstring>

#include "base/numbers.h"

namespace rankd {
namespace {

constexpr size_t kNpos = std::string_view::npos;
constexpr int64_t kBigArg = 32 * 1024;  // PROTO_MBULK_BIG_ARG
constexpr int64_t kUnauthMaxArgs = 10;
constexpr int64_t kUnauthMaxBulk = 2048;

}  // namespace

RespParser::Result RespParser::Fail(std::string msg) {
  error_ = std::move(msg);
  return Result::kError;
}

size_t RespParser::FindLineEnd(std::string_view in, size_t line_start, char delim) {
  if (line_blocked_) return kNpos;
  const size_t from = line_start + scanned_;
  if (from >= in.size()) return kNpos;
  const char* base = in.data();
  const void* hit = memchr(base + from, delim, in.size() - from);
  const size_t stop = hit ? static_cast<const char*>(hit) - base : in.size();
  scanned_bytes_ += stop - from;
  // strchr semantics: a NUL before the delimiter hides it for good.
  if (memchr(base + from, '\0', stop - from) != nullptr) {
    line_blocked_ = true;
    return kNpos;
  }
  // Next search resumes here (at the delimiter itself if found, for the
  // case where the byte after a '\r' has not arrived yet).
  scanned_ = stop - line_start;
  return hit ? stop : kNpos;
}

RespParser::Result RespParser::Parse(std::string_view buf, size_t* pos,
                                     std::vector<std::string_view>* args,
                                     const Limits& limits) {
  args->clear();
  if (!error_.empty()) return Result::kError;
  for (;;) {
    assert(*pos <= buf.size());
    std::string_view in = buf.substr(*pos);
    if (in.empty()) return Result::kNeedMore;
    // Invariant: multibulk_left_ > 0 only once a '*' header was consumed.
    const bool multibulk = multibulk_left_ > 0 || in[0] == '*';
    Result r = multibulk ? ParseMultibulk(in, pos, args, limits)
                         : ParseInline(in, pos, args, limits);
    if (r != Result::kCommand || !args->empty()) return r;
    // An empty command ("*0", a blank line) was consumed: keep going.
  }
}

RespParser::Result RespParser::ParseInline(std::string_view in, size_t* pos,
                                           std::vector<std::string_view>* args,
                                           const Limits& limits) {
  const size_t nl = FindLineEnd(in, 0, '\n');
  if (nl == kNpos) {
    if (in.size() > limits.max_inline_len) return Fail("Protocol error: too big inline request");
    return Result::kNeedMore;
  }
  size_t line_end = nl;
  if (nl > 0 && in[nl - 1] == '\r') line_end--;
  if (!SplitArgs(in.substr(0, line_end), &inline_, &spans_)) {
    return Fail("Protocol error: unbalanced quotes in request");
  }
  *pos += nl + 1;
  scanned_ = 0;
  const std::string_view storage(inline_);
  for (const ArgSpan& s : spans_) args->push_back(storage.substr(s.offset, s.size));
  return Result::kCommand;
}

RespParser::Result RespParser::ParseMultibulk(std::string_view in, size_t* pos,
                                              std::vector<std::string_view>* args,
                                              const Limits& limits) {
  if (multibulk_left_ == 0) {
    const size_t cr = FindLineEnd(in, 0, '\r');
    if (cr == kNpos) {
      if (in.size() > limits.max_inline_len) {
        return Fail("Protocol error: too big mbulk count string");
      }
      return Result::kNeedMore;
    }
    if (cr + 2 > in.size()) return Result::kNeedMore;  // the '\n' is not here yet
    int64_t n;
    if (!ParseInt64(in.substr(1, cr - 1), &n) || n > limits.max_multibulk_len) {
      return Fail("Protocol error: invalid multibulk length");
    }
    if (limits.unauthenticated && n > kUnauthMaxArgs) {
      return Fail("Protocol error: unauthenticated multibulk length");
    }
    *pos += cr + 2;
    scanned_ = 0;
    if (n <= 0) return Result::kCommand;  // skipped silently, as Redis does
    multibulk_left_ = n;
    bulk_len_ = -1;
    cursor_ = 0;
    spans_.clear();
    in = in.substr(cr + 2);
  }

  while (multibulk_left_ > 0) {
    if (bulk_len_ < 0) {
      const size_t cr = FindLineEnd(in, cursor_, '\r');
      if (cr == kNpos) {
        if (in.size() - cursor_ > limits.max_inline_len) {
          return Fail("Protocol error: too big bulk count string");
        }
        return Result::kNeedMore;
      }
      if (cr + 2 > in.size()) return Result::kNeedMore;
      if (in[cursor_] != '$') {
        return Fail(std::string("Protocol error: expected '$', got '") + in[cursor_] + "'");
      }
      int64_t n;
      if (!ParseInt64(in.substr(cursor_ + 1, cr - cursor_ - 1), &n) || n < 0 ||
          n > limits.max_bulk_len) {
        return Fail("Protocol error: invalid bulk length");
      }
      if (limits.unauthenticated && n > kUnauthMaxBulk) {
        return Fail("Protocol error: unauthenticated bulk length");
      }
      cursor_ = cr + 2;
      scanned_ = 0;
      bulk_len_ = n;
    }
    // The body and the two bytes after it (not checked, as in Redis).
    if (static_cast<uint64_t>(in.size() - cursor_) < static_cast<uint64_t>(bulk_len_) + 2) {
      return Result::kNeedMore;
    }
    spans_.push_back({cursor_, static_cast<size_t>(bulk_len_)});
    cursor_ += static_cast<size_t>(bulk_len_) + 2;
    bulk_len_ = -1;
    multibulk_left_--;
  }
  for (const ArgSpan& s : spans_) args->push_back(in.substr(s.offset, s.size));
  *pos += cursor_;
  cursor_ = 0;
  return Result::kCommand;
}

size_t RespParser::BigBulkBytesWanted(size_t buffered) const {
  if (multibulk_left_ == 0 || bulk_len_ < kBigArg) return 0;
  // Offsets are relative to the multibulk body, which starts at *pos.
  const uint64_t need = cursor_ + static_cast<uint64_t>(bulk_len_) + 2;
  return need > buffered ? static_cast<size_t>(need - buffered) : 0;
}

}  // namespace rankd
