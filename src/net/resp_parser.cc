// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/resp_parser.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "base/numbers.h"

namespace rankd {
namespace {

constexpr size_t kNpos = std::string_view::npos;
constexpr int64_t kBigArg = 32 * 1024;  // PROTO_MBULK_BIG_ARG
constexpr int64_t kUnauthMaxArgs = 10;
constexpr int64_t kUnauthMaxBulk = 2048;
constexpr size_t kShortLine = 32;  // FindLineEnd's byte-by-byte window

// The most arguments and the longest argument `limits` admit: what the
// one-pass path and TakePeeked check (the stepwise path checks the same two
// bounds in turn, to report which one failed).
struct MaxCounts {
  uint64_t args, bulk;
};
MaxCounts Effective(const RespParser::Limits& limits) {
  int64_t args = limits.max_multibulk_len, bulk = limits.max_bulk_len;
  if (limits.unauthenticated) {
    args = std::min(kUnauthMaxArgs, args);
    bulk = std::min(kUnauthMaxBulk, bulk);
  }
  return {static_cast<uint64_t>(std::max<int64_t>(args, 0)),
          static_cast<uint64_t>(std::max<int64_t>(bulk, 0))};
}

}  // namespace

bool RespParser::ParseWholeMultibulk(std::string_view in, size_t* pos,
                                     std::vector<std::string_view>* args,
                                     const Limits& limits) {
  const auto [max_args, max_bulk] = Effective(limits);
  const char* const begin = in.data();
  const char* const end = begin + in.size();
  const char* p = begin + 1;  // past the '*'
  uint64_t n;
  if (!ReadCanonicalCount(&p, end, max_args, &n) || n == 0) return false;
  // Each argument takes at least 6 bytes ("$0\r\n\r\n"): a count the buffer
  // cannot hold is left to the incremental path, which waits for it.
  if (n > static_cast<uint64_t>(end - p) / 6) return false;
  args->clear();
  uint64_t header_bytes = static_cast<uint64_t>(p - begin);
  for (uint64_t k = 0; k < n; k++) {
    const char* const start = p;
    uint64_t len;
    if (p >= end || *p != '$') break;
    p++;
    if (!ReadCanonicalCount(&p, end, max_bulk, &len)) break;
    header_bytes += static_cast<uint64_t>(p - start);
    // The body and the two bytes after it (not checked, as in Redis).
    if (static_cast<uint64_t>(end - p) < len + 2) break;
    args->emplace_back(p, static_cast<size_t>(len));
    p += len + 2;
  }
  if (args->size() != static_cast<size_t>(n)) {
    args->clear();
    return false;
  }
  scanned_bytes_ += header_bytes;
  *pos += static_cast<size_t>(p - begin);
  return true;
}

bool RespParser::TakePeeked(const PeekedCommand& p, const Limits& limits, size_t* pos) {
  const auto [max_args, max_bulk] = Effective(limits);
  if (p.argc > PeekedCommand::kMaxArgs || p.argc > max_args || p.max_len > max_bulk || multibulk_left_ != 0 || line_blocked_ ||
      !error_.empty()) {
    return false;
  }
  *pos += p.size;
  scanned_ = 0;
  return true;
}

RespParser::Result RespParser::Fail(std::string msg) {
  error_ = std::move(msg);
  return Result::kError;
}

size_t RespParser::FindLineEnd(std::string_view in, size_t line_start, char delim) {
  if (line_blocked_) return kNpos;
  const size_t from = line_start + scanned_;
  if (from >= in.size()) return kNpos;
  const char* base = in.data();
  // Header lines ("*3", "$5") are a few bytes: one pass over a short window
  // looks for the delimiter and a NUL together, where two memchr calls cost
  // more in setup than in scanning. Longer lines go on with memchr.
  const size_t window_end = std::min(in.size(), from + kShortLine);
  size_t stop = from;
  while (stop < window_end && base[stop] != delim && base[stop] != '\0') stop++;
  bool found = stop < window_end && base[stop] == delim;
  if (stop < window_end && !found) {  // a NUL first: hides the line end for good
    scanned_bytes_ += stop - from;
    line_blocked_ = true;
    return kNpos;
  }
  if (!found && window_end < in.size()) {
    const void* hit = memchr(base + window_end, delim, in.size() - window_end);
    stop = hit ? static_cast<const char*>(hit) - base : in.size();
    found = hit != nullptr;
    // strchr semantics: a NUL before the delimiter hides it for good.
    if (memchr(base + window_end, '\0', stop - window_end) != nullptr) {
      scanned_bytes_ += stop - from;
      line_blocked_ = true;
      return kNpos;
    }
  }
  scanned_bytes_ += stop - from;
  // Next search resumes here (at the delimiter itself if found, for the
  // case where the byte after a '\r' has not arrived yet).
  scanned_ = stop - line_start;
  return found ? stop : kNpos;
}

RespParser::Result RespParser::Parse(std::string_view buf, size_t* pos,
                                     std::vector<std::string_view>* args,
                                     const Limits& limits) {
  args->clear();
  if (!error_.empty()) return Result::kError;
  // A whole, canonically written command (what clients send) is taken in
  // one pass; anything else goes through the incremental steps, from the
  // start, with the exact Redis behaviour.
  if (multibulk_left_ == 0 && !line_blocked_ && *pos < buf.size() && buf[*pos] == '*' &&
      ParseWholeMultibulk(buf.substr(*pos), pos, args, limits)) {
    scanned_ = 0;  // a search for this header may have begun on fewer bytes
    return Result::kCommand;
  }
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
  const std::string_view line = in.substr(0, line_end);
  // Most inline lines ("PING") have no quotes: their words are views into
  // the input; the others are unescaped into inline_.
  if (!SplitUnquoted(line, args)) {
    if (!SplitArgs(line, &inline_, &spans_)) {
      return Fail("Protocol error: unbalanced quotes in request");
    }
    const std::string_view storage(inline_);
    for (const ArgSpan& s : spans_) args->push_back(storage.substr(s.offset, s.size));
  }
  *pos += nl + 1;
  scanned_ = 0;
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
